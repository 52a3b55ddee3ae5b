import Collections
import GObjectBindings

/// A bounded in-memory cache of decoded images, least recently used first out. Bounded by pixel memory,
/// not by count, because one full-size image weighs as much as hundreds of thumbnails.
@MainActor
public final class ImageCache {
    public struct Key: Hashable, Sendable {
        public var url: String
        /// nil: the original size.
        public var maxPixelSize: Int?

        public init(url: String, maxPixelSize: Int?) {
            self.url = url
            self.maxPixelSize = maxPixelSize
        }
    }

    public let capacityBytes: Int
    public private(set) var totalBytes = 0
    private var entries: OrderedDictionary<Key, Entry> = [:]

    /// The pixels, and the few bytes that say what file they came from.
    private struct Entry {
        let image: DecodedPixbuf
        let file: ImageFileInfo?
    }

    /// 64 MiB: a dozen screen-sized large views (≈ 47 MiB in the `memory` benchmark) with a few screens of
    /// thumbnails, or about 640 of the grid's 160 px ones. At 96 MiB the grid's 100,000 items went over their
    /// 250 MB goal (`gridend100k`: 274 MiB), the cache filling with tiles long scrolled past.
    public static let defaultCapacityBytes = 64 * 1_048_576

    public init(capacityBytes: Int = ImageCache.defaultCapacityBytes) {
        self.capacityBytes = capacityBytes
    }

    public var count: Int { entries.count }

    public func image(for key: Key) -> DecodedPixbuf? {
        guard let index = entries.index(forKey: key) else { return nil }
        let entry = entries.values[index]
        // Move to the most recently used end.
        entries.remove(at: index)
        entries[key] = entry
        return entry.image
    }

    /// The format and size of the file `key`'s image was decoded from, when it is cached and they were known
    /// (does not count as a use).
    public func file(for key: Key) -> ImageFileInfo? { entries[key]?.file }

    public func insert(_ image: DecodedPixbuf, for key: Key, file: ImageFileInfo? = nil) {
        let size = image.pixbuf.byteCount
        guard size <= capacityBytes else { return }
        if let old = entries.removeValue(forKey: key) { totalBytes -= old.image.pixbuf.byteCount }
        entries[key] = Entry(image: image, file: file)
        totalBytes += size
        while totalBytes > capacityBytes, !entries.isEmpty {
            totalBytes -= entries.removeFirst().value.image.pixbuf.byteCount
        }
    }

    public func removeAll() {
        entries.removeAll()
        totalBytes = 0
    }
}
