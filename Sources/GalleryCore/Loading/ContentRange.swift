/// A `Content-Range` response header (RFC 9110 §14.4), the check that a resumed download really continues
/// where the partial file ends.
public enum ContentRange: Equatable, Sendable {
    /// "bytes FIRST-LAST/COMPLETE" (COMPLETE nil for "*").
    case bytes(first: Int, last: Int, complete: Int?)
    /// "bytes */COMPLETE", sent with 416 Range Not Satisfiable.
    case unsatisfied(complete: Int)

    public init?(_ header: String) {
        let text = header.trimmed
        guard text.lowercased().hasPrefix("bytes ") else { return nil }
        let spec = String(text.dropFirst("bytes ".count)).trimmed
        let halves = spec.split(separator: "/", omittingEmptySubsequences: false)
        guard halves.count == 2 else { return nil }
        let completeText = String(halves[1]).trimmed
        let complete = completeText == "*" ? nil : Self.number(completeText)
        if completeText != "*" && complete == nil { return nil }
        if String(halves[0]).trimmed == "*" {
            guard let complete else { return nil }
            self = .unsatisfied(complete: complete)
            return
        }
        let bounds = halves[0].split(separator: "-", omittingEmptySubsequences: false)
        guard bounds.count == 2, let first = Self.number(String(bounds[0])), let last = Self.number(String(bounds[1])),
              first <= last, complete.map({ last < $0 }) ?? true else { return nil }
        self = .bytes(first: first, last: last, complete: complete)
    }

    /// True when this is the rest of a file from `offset` on: it starts there and runs to the file's end.
    public func continues(from offset: Int) -> Bool {
        guard case .bytes(let first, let last, let complete) = self, first == offset else { return false }
        return complete.map { last == $0 - 1 } ?? true
    }

    /// Digits only (no sign, no spaces inside), and small enough for an Int.
    private static func number(_ text: String) -> Int? {
        guard !text.isEmpty, text.utf8.count <= 18, text.utf8.allSatisfy({ (48...57).contains($0) }) else { return nil }
        return Int(text)
    }
}
