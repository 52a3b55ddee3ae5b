/// A file name's extension, by one rule everywhere: a dot that does not start the name, then 1 to
/// `maxLength` ASCII letters or digits ("photo.jpg", "scan.jpeg", "art.webp"). "original", "abc123",
/// ".hidden" and "v1.2 final" have none. The sources ask whether a URL names a file (Mastodon) and strip it
/// from titles (Commons); `--download` keeps it when it cuts a name or makes it unique.
enum FileExtension {
    /// Long enough for every image and media format the app meets (jpeg, webp, avif, heic, tiff, svgz).
    static let maxLength = 5

    /// `name` split before the extension's dot: ("photo", ".jpg"); nil when it has no extension.
    static func split<Name: StringProtocol>(_ name: Name) -> (stem: Name.SubSequence, ext: Name.SubSequence)? {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        let ext = name[name.index(after: dot)...]
        guard (1...maxLength).contains(ext.count), ext.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
            return nil
        }
        return (name[..<dot], name[dot...])
    }

    static func exists(in name: some StringProtocol) -> Bool { split(name) != nil }
}
