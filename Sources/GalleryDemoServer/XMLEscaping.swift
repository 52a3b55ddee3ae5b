/// Escaping for text that goes into XML or HTML. Every piece of user-controlled text (titles, user names,
/// URLs) passes through here; nothing is concatenated into markup raw.
public enum XMLEscaping {
    /// Character data: `&`, `<`, `>` escaped; characters XML 1.0 forbids (most C0 controls, U+FFFE, U+FFFF)
    /// dropped, since no escape can represent them.
    public static func text(_ value: String) -> String { escape(value, quotes: false) }

    /// An attribute value in double quotes: additionally `"` and `'`.
    public static func attribute(_ value: String) -> String { escape(value, quotes: true) }

    /// HTML text and attribute values use the same rules.
    public static func html(_ value: String) -> String { escape(value, quotes: true) }

    private static func escape(_ value: String, quotes: Bool) -> String {
        var result = ""
        result.unicodeScalars.reserveCapacity(value.unicodeScalars.count)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"" where quotes: result += "&quot;"
            case "'" where quotes: result += "&#39;"
            default:
                if isAllowedInXML(scalar) { result.unicodeScalars.append(scalar) }
            }
        }
        return result
    }

    static func isAllowedInXML(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD: true
        case 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }
}
