extension HTMLText {
    /// Readable text from a small HTML fragment (a Mastodon post's `content`, a Commons file's description, a
    /// DeviantArt description): tags dropped, paragraph and line breaks kept as newlines, entities decoded.
    /// Comments and the contents of `script` and `style` are dropped whole, and a `>` inside a quoted attribute
    /// value does not end its tag. Not a sanitiser — the result is plain text, never markup, and is shown as
    /// such — and only the first `limit` characters are looked at, so a huge fragment costs nothing.
    static func plainText(_ html: String, limit: Int = 4096) -> String {
        var text = ""
        var rest = Substring(html.prefix(limit))
        // Scalars, not Characters, wherever a byte decides: grapheme breaking a page of descriptions was most
        // of a feed page's parse.
        while let open = rest.unicodeScalars.firstIndex(of: "<") {
            appendCollapsingSpaces(rest[..<open], to: &text)
            let tagStart = rest.index(after: open)
            // A "<" not followed by a tag name ("a < b") is text, as browsers treat it.
            guard tagStart < rest.endIndex, rest[tagStart].isLetter || rest[tagStart] == "/" || rest[tagStart] == "!"
            else {
                text += "<"
                rest = rest[tagStart...]
                continue
            }
            if rest[tagStart...].hasPrefix("!--") {
                // A comment ends at "-->", whatever it holds; unterminated, it runs to the end.
                rest = rest[tagStart...].firstRange(of: "-->").map { rest[$0.upperBound...] } ?? ""
                continue
            }
            guard let close = tagEnd(in: rest[tagStart...]) else {
                rest = rest[rest.endIndex...]  // An unterminated tag at the end: drop it.
                break
            }
            let name = rest[tagStart..<close].prefix { $0.isLetter || $0.isNumber || $0 == "/" }.lowercased()
            rest = rest[rest.index(after: close)...]
            // At most one empty line between paragraphs ("<br><br>" is one), none before the text.
            if lineBreakTags.contains(name) && !text.isEmpty && !text.hasSuffix("\n\n") { text += "\n" }
            if name == "script" || name == "style" {
                // Their text is code, never words: skip to the closing tag (or the end).
                rest = closingTag(name, in: rest).flatMap { tagEnd(in: rest[$0...]) }.map { rest[rest.index(after: $0)...] } ?? ""
            }
        }
        appendCollapsingSpaces(rest, to: &text)
        return decodeEntities(text)
    }

    /// HTML's own rule for text: a run of spaces, tabs and line breaks is one space (only tags break lines).
    private static func appendCollapsingSpaces(_ run: Substring, to text: inout String) {
        var afterSpace = text.unicodeScalars.last?.isWhitespaceScalar ?? true
        var start = run.unicodeScalars.startIndex
        for index in run.unicodeScalars.indices where run.unicodeScalars[index].isWhitespaceScalar {
            if start < index {
                // Whole runs at once (a copy of their bytes), not scalar by scalar.
                text += Substring(run.unicodeScalars[start..<index])
                afterSpace = false
            }
            if !afterSpace { text += " " }
            afterSpace = true
            start = run.unicodeScalars.index(after: index)
        }
        text += Substring(run.unicodeScalars[start...])
    }

    /// Tags after which the text goes on on a new line.
    private static let lineBreakTags: Set<String> = [
        "br", "br/", "p", "/p", "div", "/div", "li", "/li", "/blockquote", "/tr", "/h1", "/h2", "/h3", "/h4", "/h5",
        "/h6", "/dd", "/dt", "hr",
    ]

    /// Where the name of the first `</name` (any case) in `text` ends.
    private static func closingTag(_ name: String, in text: Substring) -> Substring.Index? {
        var rest = text
        while let found = rest.firstRange(of: "</") {
            let after = rest[found.upperBound...]
            if after.prefix(name.count).lowercased() == name { return after.index(after.startIndex, offsetBy: name.count) }
            rest = after
        }
        return nil
    }

    /// The ">" that ends the tag starting at `tag` (after its "<"), skipping those inside quoted attribute values
    /// (a quote opens one only right after "=", as in HTML: `title=don't` quotes nothing).
    private static func tagEnd(in tag: Substring) -> Substring.Index? {
        var quote: Unicode.Scalar?
        var afterEquals = false
        for index in tag.unicodeScalars.indices {
            let scalar = tag.unicodeScalars[index]
            if let open = quote {
                if scalar == open { quote = nil }
                continue
            }
            if scalar == ">" { return index }
            if afterEquals && (scalar == "\"" || scalar == "'") { quote = scalar }
            if scalar == "=" {
                afterEquals = true
            } else if !scalar.isWhitespaceScalar {
                afterEquals = false
            }
        }
        return nil
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
