import GObjectBindings

/// The last gallery's first screen of thumbnails, kept as decoded pixels beside its saved first page, so that a
/// launch shows them with that page at once. From the HTTP cache they would come only once libsoup has read its
/// index (on a worker: a hundred milliseconds or more at the cache's working size, see `make bench`'s
/// `relaunch`), and then be decoded again in the sandbox.
///
/// The pixels are the sandboxed decoders' own output, written by this app into its private cache directory;
/// reading them back parses nothing but this fixed layout, every count and size checked against `Limits`
/// before anything is made of it. A file that does not fit is ignored as a whole.
///
/// Layout (each integer a little-endian UInt32): "GVTHUMB1", the gallery's first URL, the count of images, then
/// per image its URL, the size it was decoded for (0: none), width, height, row stride, alpha (0 or 1), the
/// original's width and height, its frame count, whether only its first frame was decoded (0 or 1), and its
/// pixels: `(height - 1) × stride + width × channels` bytes. A URL is its byte count and its UTF-8.
public enum FirstScreenThumbnails {
    /// One thumbnail as the image cache holds it.
    public struct Entry: Sendable {
        public let key: ImageCache.Key
        public let image: DecodedPixbuf

        public init(key: ImageCache.Key, image: DecodedPixbuf) {
            self.key = key
            self.image = image
        }
    }

    /// More than a screen holds in the list or the grid.
    public static let maxEntries = 64
    /// Thumbnails are a few hundred device pixels on a side at most (the grid's tiles at scale 2).
    public static let maxSide = 1024
    /// All the pixels of one file: a screenful of the list's thumbnails takes about 1 MiB, of the grid's tiles at
    /// scale 2 about 6 MiB.
    public static let maxPixelBytes = 8 * 1_048_576
    /// The file is never read past this: the pixels, and the URLs (the gallery's and the keys) at their longest.
    public static let maxFileBytes = maxPixelBytes + (maxEntries + 1) * (ImageCache.maxKeyURLBytes + 64) + 64

    static let magic = Array("GVTHUMB1".utf8)

    /// The thumbnails the first screen of `gallery` showed, as `cache` holds them now: its first items', in
    /// order, at the gallery's thumbnail size, within the bounds.
    @MainActor
    public static func firstScreen(of gallery: Gallery, in cache: ImageCache) -> [Entry] {
        // What `decode` would refuse is not written.
        guard gallery.source.firstRequest().key.utf8.count <= ImageCache.maxKeyURLBytes else { return [] }
        var entries: [Entry] = []
        var pixelBytes = 0
        for download in gallery.downloads.prefix(maxEntries) {
            guard download.state == .loaded, let url = download.thumbnailURL else { continue }
            let key = ImageCache.Key(url: url, maxPixelSize: gallery.thumbnailPixelSize)
            guard url.utf8.count <= ImageCache.maxKeyURLBytes, let image = cache.image(for: key), isWithinBounds(image.pixbuf),
                  pixelBytes + image.pixbuf.pixelByteLength <= maxPixelBytes else { continue }
            pixelBytes += image.pixbuf.pixelByteLength
            entries.append(Entry(key: key, image: image))
        }
        return entries
    }

    /// The file's contents.
    public static func encode(firstURL: String, entries: [Entry]) -> [UInt8] {
        var writer = ThumbnailFileWriter()
        writer.bytes(magic)
        writer.text(firstURL)
        writer.integer(entries.count)
        for entry in entries {
            let pixbuf = entry.image.pixbuf
            writer.text(entry.key.url)
            writer.integer(entry.key.maxPixelSize ?? 0)
            for value in [pixbuf.width, pixbuf.height, pixbuf.rowStride, pixbuf.hasAlpha ? 1 : 0,
                          entry.image.originalWidth, entry.image.originalHeight, entry.image.frameCount,
                          entry.image.isFirstFrameOnly ? 1 : 0] {
                writer.integer(value)
            }
            pixbuf.withUnsafePixels { pixels, _, _ in
                writer.bytes(UnsafeRawBufferPointer(start: pixels, count: pixbuf.pixelByteLength))
            }
        }
        return writer.output
    }

    /// The thumbnails in `bytes` and whose they are (the gallery's first URL), when the whole file is within
    /// bounds and, given `firstURL`, is that gallery's; nil for another gallery's, a damaged or a foreign file.
    /// For a worker: it copies the pixels.
    public static func decode(_ bytes: UnsafeRawBufferPointer, firstURL expected: String?) -> (firstURL: String, entries: [Entry])? {
        guard bytes.count <= maxFileBytes else { return nil }
        var reader = ThumbnailFileReader(bytes)
        guard reader.bytes(magic.count).map(Array.init) == magic, let firstURL = reader.text(),
              expected.map({ $0 == firstURL }) ?? true, let count = reader.integer(), count <= maxEntries else { return nil }
        var entries: [Entry] = []
        var pixelBytes = 0
        for _ in 0..<count {
            guard let url = reader.text(), url.utf8.count <= ImageCache.maxKeyURLBytes, URLText.isWebAddress(url),
                  let size = reader.integer(), let width = reader.integer(), let height = reader.integer(),
                  let rowStride = reader.integer(), let alpha = reader.integer(), alpha <= 1,
                  let originalWidth = reader.integer(), let originalHeight = reader.integer(),
                  let frameCount = reader.integer(), let firstFrameOnly = reader.integer(), firstFrameOnly <= 1,
                  (1...maxSide).contains(width), (1...maxSide).contains(height),
                  rowStride <= width * 4 + 64, size <= maxSide * 4 else { return nil }
            let length = (height - 1) * rowStride + width * (alpha == 1 ? 4 : 3)
            pixelBytes += length
            guard pixelBytes <= maxPixelBytes, let pixels = reader.bytes(length),
                  let pixbuf = Pixbuf(copying: pixels, width: width, height: height, rowStride: rowStride,
                                      hasAlpha: alpha == 1) else { return nil }
            var image = DecodedPixbuf(pixbuf: pixbuf, originalWidth: originalWidth, originalHeight: originalHeight)
            image.frameCount = max(1, frameCount)
            image.isFirstFrameOnly = firstFrameOnly == 1
            entries.append(Entry(key: ImageCache.Key(url: url, maxPixelSize: size == 0 ? nil : size), image: image))
        }
        return reader.isAtEnd ? (firstURL, entries) : nil
    }

    private static func isWithinBounds(_ pixbuf: Pixbuf) -> Bool {
        (1...maxSide).contains(pixbuf.width) && (1...maxSide).contains(pixbuf.height)
            && pixbuf.rowStride <= pixbuf.width * 4 + 64
    }
}

/// Appends little-endian UInt32s, byte runs and length-prefixed UTF-8.
private struct ThumbnailFileWriter {
    var output: [UInt8] = []

    mutating func integer(_ value: Int) {
        let word = UInt32(clamping: value)
        output.append(contentsOf: [UInt8(word & 0xFF), UInt8(word >> 8 & 0xFF), UInt8(word >> 16 & 0xFF), UInt8(word >> 24)])
    }

    mutating func bytes(_ run: some Collection<UInt8>) { output.append(contentsOf: run) }

    mutating func bytes(_ run: UnsafeRawBufferPointer) { output.append(contentsOf: run) }

    mutating func text(_ string: String) {
        integer(string.utf8.count)
        output.append(contentsOf: string.utf8)
    }
}

/// Reads what `ThumbnailFileWriter` wrote; nil for anything that runs past the end.
private struct ThumbnailFileReader {
    private let data: UnsafeRawBufferPointer
    private var offset = 0

    init(_ data: UnsafeRawBufferPointer) { self.data = data }

    var isAtEnd: Bool { offset == data.count }

    mutating func bytes(_ count: Int) -> UnsafeRawBufferPointer? {
        guard count >= 0, count <= data.count - offset else { return nil }
        defer { offset += count }
        return UnsafeRawBufferPointer(rebasing: data[offset..<offset + count])
    }

    mutating func integer() -> Int? {
        guard let word = bytes(4) else { return nil }
        return Int(word[0]) | Int(word[1]) << 8 | Int(word[2]) << 16 | Int(word[3]) << 24
    }

    mutating func text() -> String? {
        guard let count = integer(), count <= ImageCache.maxKeyURLBytes, let run = bytes(count) else { return nil }
        return String(validating: run.bindMemory(to: UInt8.self), as: UTF8.self)
    }
}
