extension HTMLText {
    /// Readable text from a small HTML fragment (a Mastodon post's `content`): tags dropped, paragraph and
    /// line breaks kept as newlines, entities decoded. Not a sanitiser — the result is plain text, never
    /// markup — and only the first `limit` characters are looked at, so a huge post costs nothing.
    static func plainText(_ html: String, limit: Int = 4096) -> String {
        var text = ""
        var rest = Substring(html.prefix(limit))
        while let open = rest.firstIndex(of: "<") {
            text += rest[..<open]
            let tagStart = rest.index(after: open)
            // A "<" not followed by a tag name ("a < b") is text, as browsers treat it.
            guard tagStart < rest.endIndex, rest[tagStart].isLetter || rest[tagStart] == "/" || rest[tagStart] == "!"
            else {
                text += "<"
                rest = rest[tagStart...]
                continue
            }
            guard let close = rest[tagStart...].firstIndex(of: ">") else {
                rest = rest[rest.endIndex...]  // An unterminated tag at the end: drop it.
                break
            }
            let name = rest[tagStart..<close].prefix { $0.isLetter || $0.isNumber || $0 == "/" }.lowercased()
            if ["br", "br/", "/p", "p", "/div", "/li", "/blockquote"].contains(name) { text += "\n" }
            rest = rest[rest.index(after: close)...]
        }
        text += rest
        return decodeEntities(text)
    }

    /// The first non-empty line of `text` with runs of whitespace collapsed, cut at a word boundary to about
    /// `maxLength` characters with "…". For titles made from alt text or post text.
    static func headline(_ text: String, maxLength: Int = 80) -> String {
        // Only the start can make the title; a huge text is not split whole.
        let line = text.prefix(maxLength * 8).split(whereSeparator: \.isNewline)
            .lazy
            .map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
            .first { !$0.isEmpty } ?? ""
        guard line.count > maxLength else { return line }
        let cut = line.prefix(maxLength)
        let atWord = cut.lastIndex(of: " ").map { cut[..<$0] } ?? cut
        // Cutting at a space only when it keeps most of the text: one long word is cut mid-word instead.
        let kept = atWord.count >= maxLength / 2 ? atWord : cut
        return kept.trimmingSuffix { $0.isWhitespace || $0.isPunctuation } + "…"
    }
}

extension Substring {
    fileprivate func trimmingSuffix(while predicate: (Character) -> Bool) -> String {
        var end = endIndex
        while end > startIndex, predicate(self[index(before: end)]) { end = index(before: end) }
        return String(self[startIndex..<end])
    }
}
