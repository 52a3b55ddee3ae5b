/// A JSON document as the demo and hostile servers write it: values in the order given (replies read like
/// the real services'), strings escaped as RFC 8259 requires. Builds text, never parses.
public indirect enum JSONValue: Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByNilLiteral {
    case string(String)
    case int(Int)
    /// A finite number (durations, aspect ratios), written as Swift's shortest round-trip form.
    case double(Double)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([(String, JSONValue)])

    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(nilLiteral: ()) { self = .null }

    /// A string, or null for nil.
    public static func optional(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }

    public func render() -> String {
        var text = ""
        write(to: &text)
        return text
    }

    private func write(to text: inout String) {
        switch self {
        case .string(let value): Self.writeString(value, to: &text)
        case .int(let value): text += String(value)
        case .double(let value): text += value.isFinite ? String(value) : "null"
        case .bool(let value): text += value ? "true" : "false"
        case .null: text += "null"
        case .array(let values):
            text += "["
            for (index, value) in values.enumerated() {
                if index > 0 { text += "," }
                value.write(to: &text)
            }
            text += "]"
        case .object(let members):
            text += "{"
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { text += "," }
                Self.writeString(key, to: &text)
                text += ":"
                value.write(to: &text)
            }
            text += "}"
        }
    }

    private static func writeString(_ value: String, to text: inout String) {
        text += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}
