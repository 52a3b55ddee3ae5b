/// A file name's extension, by one rule everywhere: a dot that does not start the name, then 1 to
/// `maxLength` ASCII letters or digits ("photo.jpg", "scan.jpeg", "art.webp"). "original", "abc123",
/// ".hidden" and "v1.2 final" have none. The sources ask whether a URL names a file (Mastodon) and strip it
/// from titles (Commons); `--download` keeps it when it cuts a name or makes it unique.
enum FileExtension {
    /// Long enough for every image and media format the app meets (jpeg, webp, avif, heic, tiff, svgz).
    static let maxLength = 5

    /// `name` split before the extension's dot: ("photo", ".jpg"); nil when it has no extension.
    static func split<Name: StringProtocol>(_ name: Name) -> (stem: Name.SubSequence, ext: Name.SubSequence)? {
        // By UTF-8 bytes: the extension is ASCII, and `--download` asks this several times for every file.
        let bytes = name.utf8
        var lastDot: String.Index?
        var index = bytes.startIndex
        while index != bytes.endIndex {
            if bytes[index] == UInt8(ascii: ".") { lastDot = index }
            index = bytes.index(after: index)
        }
        guard let dot = lastDot, dot != bytes.startIndex else { return nil }
        let ext = bytes[bytes.index(after: dot)...]
        guard (1...maxLength).contains(ext.count), ext.allSatisfy(isASCIILetterOrDigit) else { return nil }
        return (name[..<dot], name[dot...])
    }

    private static func isASCIILetterOrDigit(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }

    static func exists(in name: some StringProtocol) -> Bool { split(name) != nil }
}
