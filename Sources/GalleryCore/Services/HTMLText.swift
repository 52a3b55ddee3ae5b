/// Feeds often carry text that was HTML-escaped before it was XML-escaped ("Rock &amp;amp; Roll",
/// "it&amp;#39;s"): after the XML parser, these entities remain and are decoded here.
enum HTMLText {
    private static let named: [Substring: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{00A0}",
        "ndash": "–", "mdash": "—", "hellip": "…", "lsquo": "‘", "rsquo": "’", "ldquo": "“", "rdquo": "”",
        "copy": "©", "reg": "®", "trade": "™", "eacute": "é", "egrave": "è", "uuml": "ü", "ouml": "ö", "auml": "ä",
    ]

    static func decodeEntities(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "&")) else { return text }
        var result = ""
        var rest = Substring(text)
        while let ampersand = rest.unicodeScalars.firstIndex(of: "&") {
            result += rest[..<ampersand]
            let afterAmpersand = rest.index(after: ampersand)
            guard let semicolon = rest[afterAmpersand...].prefix(12).firstIndex(of: ";"),
                  let decoded = decode(rest[afterAmpersand..<semicolon])
            else {
                result += "&"
                rest = rest[afterAmpersand...]
                continue
            }
            result += decoded
            rest = rest[rest.index(after: semicolon)...]
        }
        return result + rest
    }

    private static func decode(_ entity: Substring) -> String? {
        if entity.hasPrefix("#x") || entity.hasPrefix("#X") {
            return UInt32(entity.dropFirst(2), radix: 16).flatMap(scalar)
        }
        if entity.hasPrefix("#") { return UInt32(entity.dropFirst(1)).flatMap(scalar) }
        return named[entity]
    }

    private static func scalar(_ value: UInt32) -> String? {
        guard value != 0, let scalar = Unicode.Scalar(value) else { return nil }
        return String(Character(scalar))
    }
}
