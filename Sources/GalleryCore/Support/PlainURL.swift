/// The origin of an http(s) URL made only of the characters RFC 3986 allows unescaped, with a plain host name
/// or IPv4 address and no user information: what every image and feed URL of a gallery looks like. Reading
/// those bytes directly costs a fraction of a full parse; `URLText.origin(of:)` asks the full parser about
/// everything this declines (`undecided`), so the two always agree (PlainURLTests compares them).
enum PlainURL {
    enum Answer: Equatable {
        case decided(String)
        case undecided
    }

    static func origin(of url: String) -> Answer {
        url.utf8.withContiguousStorageIfAvailable { origin(of: $0) } ?? .undecided
    }

    private static func origin(of bytes: UnsafeBufferPointer<UInt8>) -> Answer {
        let schemeLength: Int
        if startsCaseInsensitively(bytes, with: "https://") {
            schemeLength = 5
        } else if startsCaseInsensitively(bytes, with: "http://") {
            schemeLength = 4
        } else {
            return .undecided
        }
        let hostStart = schemeLength + 3
        var index = hostStart
        while index < bytes.count, isHostByte(bytes[index]) { index += 1 }
        let hostEnd = index
        guard hostEnd > hostStart else { return .undecided }
        var port: Int?
        if index < bytes.count, bytes[index] == UInt8(ascii: ":") {
            index += 1
            var value = 0
            var digits = 0
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9"), digits < 6 {
                value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                digits += 1
                index += 1
            }
            guard digits > 0, digits <= 5, value <= 65535 else { return .undecided }
            port = value
        }
        // The authority ends at the path or the query; anything else there (user information, an IPv6
        // literal, a fragment) is for the full parser.
        if index < bytes.count, bytes[index] != UInt8(ascii: "/"), bytes[index] != UInt8(ascii: "?") { return .undecided }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, isHexDigit(bytes[index + 1]), isHexDigit(bytes[index + 2]) else { return .undecided }
                index += 3
                continue
            }
            guard isPathOrQueryByte(byte) else { return .undecided }
            index += 1
        }
        var origin = schemeLength == 5 ? "https://" : "http://"
        origin.reserveCapacity(hostEnd - hostStart + 14)
        for offset in hostStart..<hostEnd { origin.unicodeScalars.append(Unicode.Scalar(lowercased(bytes[offset]))) }
        if let port { origin += ":" + String(port) }
        return .decided(origin)
    }

    private static func startsCaseInsensitively(_ bytes: UnsafeBufferPointer<UInt8>, with prefix: StaticString) -> Bool {
        guard bytes.count >= prefix.utf8CodeUnitCount else { return false }
        let expected = UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
        for (offset, byte) in expected.enumerated() where lowercased(bytes[offset]) != byte { return false }
        return true
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "F"))
    }

    /// A host name's or an IPv4 address's characters.
    private static func isHostByte(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }

    /// RFC 3986's unreserved and sub-delims characters, ":", "@", "/" and "?": what a path and a query may
    /// hold unescaped ("%" is checked on its own).
    private static func isPathOrQueryByte(_ byte: UInt8) -> Bool {
        if isAlphanumeric(byte) { return true }
        switch byte {
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"),
             UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("),
             UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"),
             UInt8(ascii: "="), UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "/"), UInt8(ascii: "?"):
            return true
        default:
            return false
        }
    }
}
