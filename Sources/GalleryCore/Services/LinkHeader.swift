/// The HTTP `Link` header (RFC 8288), as APIs use it for paging:
/// `<https://host/api?max_id=9>; rel="next", <https://host/api?min_id=12>; rel="prev"`.
///
/// Written as a small scanner rather than by splitting on "," and ";": a URL may itself contain commas and
/// semicolons inside `<…>`, a quoted parameter may contain them too, and libsoup joins repeated `Link` headers
/// with ", " — all of which naive splitting gets wrong.
enum LinkHeader {
    struct Link: Equatable {
        var target: String
        /// Relation types, lower-cased; `rel="prev next"` names two.
        var relations: [String]
    }

    /// Every well-formed link in `value`, in order. Malformed parts are skipped, not fatal: a server that
    /// garbles one link should not lose us the others.
    static func parse(_ value: String) -> [Link] {
        var scanner = Scanner(Array(value.unicodeScalars))
        var links: [Link] = []
        while !scanner.atEnd {
            scanner.skip { $0 == "," || $0.properties.isWhitespace }
            guard scanner.take("<") else {
                scanner.skipToNextLink()
                continue
            }
            let target = scanner.read { $0 != ">" }
            guard scanner.take(">") else { break }  // Unterminated "<…": nothing reliable follows.
            var relations: [String]?
            while true {
                scanner.skip { $0.properties.isWhitespace }
                guard scanner.take(";") else { break }
                scanner.skip { $0.properties.isWhitespace }
                let name = scanner.read { $0 != "=" && $0 != ";" && $0 != "," && !$0.properties.isWhitespace }
                scanner.skip { $0.properties.isWhitespace }
                var parameterValue = ""
                if scanner.take("=") {
                    scanner.skip { $0.properties.isWhitespace }
                    parameterValue = scanner.readParameterValue()
                }
                // RFC 8288 §3.3: only the first "rel" parameter counts.
                if name.lowercased() == "rel" && relations == nil {
                    relations = parameterValue.lowercased().split { $0 == " " || $0 == "\t" }.map(String.init)
                }
            }
            scanner.skipToNextLink()
            let trimmedTarget = target.trimmed
            if !trimmedTarget.isEmpty { links.append(Link(target: trimmedTarget, relations: relations ?? [])) }
        }
        return links
    }

    /// The first link whose relations include `relation` ("next").
    static func target(of relation: String, in value: String?) -> String? {
        guard let value else { return nil }
        return parse(value).first { $0.relations.contains(relation) }?.target
    }

    private struct Scanner {
        let scalars: [Unicode.Scalar]
        var position = 0

        init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

        var atEnd: Bool { position >= scalars.count }

        mutating func take(_ scalar: Unicode.Scalar) -> Bool {
            guard !atEnd, scalars[position] == scalar else { return false }
            position += 1
            return true
        }

        mutating func skip(while predicate: (Unicode.Scalar) -> Bool) {
            while !atEnd, predicate(scalars[position]) { position += 1 }
        }

        mutating func read(while predicate: (Unicode.Scalar) -> Bool) -> String {
            let start = position
            skip(while: predicate)
            var text = String.UnicodeScalarView()
            text.append(contentsOf: scalars[start..<position])
            return String(text)
        }

        /// A quoted string (with backslash escapes) or a token up to the next ";" or ",".
        mutating func readParameterValue() -> String {
            guard take("\"") else { return read { $0 != ";" && $0 != "," }.trimmed }
            var text = String.UnicodeScalarView()
            while !atEnd {
                let scalar = scalars[position]
                position += 1
                if scalar == "\"" { break }
                if scalar == "\\", !atEnd {
                    text.append(scalars[position])
                    position += 1
                } else {
                    text.append(scalar)
                }
            }
            return String(text)
        }

        /// Moves past the next "," that is outside quotes, i.e. to the start of the next link.
        mutating func skipToNextLink() {
            var quoted = false
            while !atEnd {
                let scalar = scalars[position]
                position += 1
                if scalar == "\\" && quoted {
                    position += 1
                } else if scalar == "\"" {
                    quoted.toggle()
                } else if scalar == "," && !quoted {
                    return
                }
            }
        }
    }
}
