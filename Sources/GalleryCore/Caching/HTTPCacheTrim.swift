import GObjectBindings

/// Which of the HTTP disk cache's entries go at each start, before libsoup reads its index: the oldest,
/// until the rest take at most a share of the cap (`HTTPCache.fillAfterTrim`) and number at most
/// `HTTPCache.maxEntriesAfterTrim`. The bindings (`Soup.CacheIndex`) read and write libsoup's index; the
/// choice is here.
///
/// Why: libsoup evicts among the entries hit least often the *newest* first (its LRU list puts a new entry
/// before its equals), so a full cache keeps its oldest entries and replaces each new one with the next:
/// what a session saw would not be there the next time. Trimming by age before each start leaves room for
/// what the coming session stores. And libsoup's `load` costs more than linear time in the entries (each
/// insert checks the length of its LRU list), while requests wait for it: the entry limit keeps the start
/// quick (`make bench`'s fullcache scenario holds it to its goal).
public enum HTTPCacheTrim {
    /// What a trim found and left: the bytes of the bodies the index names, and its entries before and after.
    public struct Report: Sendable, Equatable {
        public var bytesAfter: Int
        public var entriesBefore: Int
        public var entriesAfter: Int
    }

    /// The positions (in `entries`) of the entries to drop: the oldest first, until the rest take at most
    /// `limit` bytes and number at most `maxEntries`. Empty when the index is within both.
    static func entriesToDrop(_ entries: [Soup.CacheIndex.Entry], toBytes limit: Int, maxEntries: Int) -> Set<Int> {
        var bytes = entries.reduce(0) { $0 + $1.bodyBytes }
        guard bytes > limit || entries.count > maxEntries else { return [] }
        // Oldest first; within one second, the later in the index is the older (see `Soup.CacheIndex.entries`).
        let oldestFirst = entries.indices.sorted { a, b in
            entries[a].storedAt != entries[b].storedAt ? entries[a].storedAt < entries[b].storedAt : a > b
        }
        var dropped = Set<Int>()
        for position in oldestFirst where bytes > limit || entries.count - dropped.count > maxEntries {
            dropped.insert(position)
            bytes -= entries[position].bodyBytes
        }
        return dropped
    }

    /// Trims the index in `directory` (see the type). Blocking: call it on a worker thread, before the
    /// cache's `load`. Nil when there is no index to read (or one of another version), or the trimmed one
    /// could not be written.
    nonisolated static func run(in directory: String, toBytes limit: Int, maxEntries: Int) -> Report? {
        guard let index = Soup.CacheIndex(directory: directory) else { return nil }
        let entries = index.entries
        let dropped = entriesToDrop(entries, toBytes: limit, maxEntries: maxEntries)
        let kept = entries.indices.filter { !dropped.contains($0) }
        let report = Report(bytesAfter: kept.reduce(0) { $0 + entries[$1].bodyBytes }, entriesBefore: entries.count,
                            entriesAfter: kept.count)
        guard dropped.isEmpty || index.write(dropping: dropped) else { return nil }
        return report
    }
}
