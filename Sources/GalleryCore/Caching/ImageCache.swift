import Collections
import GObjectBindings

/// A bounded in-memory cache of decoded images, least recently used first out. Bounded by pixel memory,
/// not by count, because one full-size image weighs as much as hundreds of thumbnails — and by what its entries
/// cost besides their pixels (`entryBytes`: the URL and a fixed overhead each), which a gallery of tiny images
/// under long URLs would otherwise grow without bound. URLs longer than `maxKeyURLBytes` are not cached.
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
    /// What the entries cost besides pixels (see `entryBytes`), at most `maxEntryBytes`.
    public private(set) var entryBytesTotal = 0
    public let maxEntryBytes: Int
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

    /// The longest URL an entry may have: longer ones are not cached (a page of them would be megabytes of keys).
    public nonisolated static let maxKeyURLBytes = 8 * 1024
    /// An entry's cost besides its pixels and URL: the dictionary slot, the pixbuf's and wrapper's objects.
    public static let entryOverheadBytes = 256
    /// 4 MiB: about 14,000 entries under typical 50-byte URLs, 490 under the longest; the 64 MiB of pixels fill
    /// first with anything but tiny images.
    public static let defaultMaxEntryBytes = 4 * 1_048_576

    public init(capacityBytes: Int = ImageCache.defaultCapacityBytes, maxEntryBytes: Int = ImageCache.defaultMaxEntryBytes) {
        self.capacityBytes = capacityBytes
        self.maxEntryBytes = maxEntryBytes
    }

    /// What an entry under `key` costs besides its pixels.
    public static func entryBytes(_ key: Key) -> Int { key.url.utf8.count + entryOverheadBytes }

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
        let entrySize = Self.entryBytes(key)
        guard size <= capacityBytes, key.url.utf8.count <= Self.maxKeyURLBytes, entrySize <= maxEntryBytes else { return }
        if let old = entries.removeValue(forKey: key) {
            totalBytes -= old.image.pixbuf.byteCount
            entryBytesTotal -= entrySize
        }
        entries[key] = Entry(image: image, file: file)
        totalBytes += size
        entryBytesTotal += entrySize
        while totalBytes > capacityBytes || entryBytesTotal > maxEntryBytes, !entries.isEmpty {
            let (oldest, entry) = entries.removeFirst()
            totalBytes -= entry.image.pixbuf.byteCount
            entryBytesTotal -= Self.entryBytes(oldest)
        }
    }

    public func removeAll() {
        entries.removeAll()
        totalBytes = 0
        entryBytesTotal = 0
    }
}
