/// The extension a saved image gets from its bytes, not from the name its service gave it: a PNG served as
/// "photo.jpg" is saved as "photo.png", so the file opens as what it is and no viewer is led by its name into a
/// loader for another format. A mismatched image extension is replaced, any other name gets one appended;
/// bytes that are no image format known here (a video, SVG's text, a format the app refuses) keep the name.
enum SavedExtension {
    /// Enough of a file's start to tell its format: AVIF's `ftyp` box lists its brands within it.
    static let headBytes = 256

    /// Formats told apart by their first bytes, each with its usual extension and the other names it goes by.
    private static let extensions: [ImageFormat: [String]] = [
        .png: ["png"], .jpeg: ["jpg", "jpeg", "jpe", "jfif"], .gif: ["gif"], .webp: ["webp"], .avif: ["avif"],
        .bmp: ["bmp"],
    ]

    /// The format of the bytes that start with `head`, or nil when they are none of `extensions`' formats.
    static func format(of head: [UInt8]) -> ImageFormat? {
        head.withUnsafeBytes { bytes in
            let reader = ByteReader(bytes)
            if reader.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
            if reader.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
            if reader.starts(with: Array("GIF87a".utf8)) || reader.starts(with: Array("GIF89a".utf8)) { return .gif }
            if reader.starts(with: Array("RIFF".utf8)), reader.byte(at: 8...11) == Array("WEBP".utf8) { return .webp }
            if ImageHeaderParsers.isAVIF(reader) { return .avif }
            // "BM" alone starts much text: the info header's size must be one of BMP's too.
            if reader.starts(with: Array("BM".utf8)), let size = reader.byte(at: 14...17),
               [12, 40, 52, 56, 64, 108, 124].contains(Int(size[0]) | Int(size[1]) << 8), size[2] == 0, size[3] == 0 { return .bmp }
            return nil
        }
    }

    /// `name` with the extension of `format` (nil: `name` as it is).
    static func name(_ name: String, for format: ImageFormat?) -> String {
        guard let format, let usual = extensions[format]?.first else { return name }
        guard let (stem, ext) = FileExtension.split(name) else { return name + "." + usual }
        let given = ext.dropFirst().lowercased()
        if extensions[format]!.contains(given) { return name }
        let isImageExtension = extensions.values.contains { $0.contains(given) }
        return (isImageExtension ? String(stem) : name) + "." + usual
    }

    /// Every name `name` may have been saved under (itself first): where a run looks for an earlier run's file.
    static func candidates(for name: String) -> [String] {
        var result = [name]
        for format in ImageFormat.allCases {
            let candidate = Self.name(name, for: format)
            if !result.contains(candidate) { result.append(candidate) }
        }
        return result
    }
}
