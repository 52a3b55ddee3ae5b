import CGLib
#if canImport(Glibc)
import Glibc
#endif

extension Soup.Cache {
    /// What `trimIndex` left: the bytes of bodies the index names, and its entries before and after.
    public struct IndexTrim: Sendable, Equatable {
        public var bytesAfter: Int
        public var entriesBefore: Int
        public var entriesAfter: Int
    }

    /// Drops the entries stored longest ago from the index in `directory` until the bodies it names take at
    /// most `limit` bytes and it has at most `maxEntries` entries, and writes the index back (atomically).
    /// The dropped entries' files are renamed to `droppedFilePrefix` + their name, which `load` passes over
    /// (it skips "soup." names; any other file its index does not name it deletes, one unlink at a time,
    /// ~150 µs each here, while a rename is ~30 µs): `removeDroppedFiles` deletes them once the cache is
    /// in use.
    ///
    /// Why: libsoup evicts among the entries hit least often the *newest* first (its LRU list puts a new
    /// entry before its equals), so a full cache keeps its oldest entries and replaces each new one with the
    /// next: what a session saw would not be there the next time. Trimming by age before each start leaves
    /// room for what the coming session stores. And `load` costs more than linear time in the entries (each
    /// insert checks the length of its LRU list): the entry limit keeps the start quick.
    ///
    /// The file is libsoup 2.4's own ("soup.cache2", a GVariant `(qa(sbuuuuuqa{ss}))`, version 5); any other
    /// version is left alone (libsoup itself then starts empty). Blocking: call it on a worker thread,
    /// before `load`. Nil when there is no index to read, or the trimmed one could not be written (then no
    /// file is set aside: the old index still names them all).
    @discardableResult
    public nonisolated static func trimIndex(in directory: String, toBytes limit: Int, maxEntries: Int) -> IndexTrim? {
        let path = directory + "/" + indexFileName
        var contents: UnsafeMutablePointer<gchar>?
        var length: gsize = 0
        guard g_file_get_contents(path, &contents, &length, nil) != 0, let contents else { return nil }
        let fileType = g_variant_type_new("(qa(sbuuuuuqa{ss}))")
        defer { g_variant_type_free(fileType) }
        // Not trusted: GVariant reads malformed data as default values instead of failing or overreading.
        let index = g_variant_ref_sink(g_variant_new_from_data(fileType, contents, length, 0, g_free, contents))
        defer { g_variant_unref(index) }
        let versionValue = g_variant_get_child_value(index, 0)
        let version = g_variant_get_uint16(versionValue)
        g_variant_unref(versionValue)
        let entries = g_variant_get_child_value(index, 1)!
        defer { g_variant_unref(entries) }
        let count = Int(g_variant_n_children(entries))
        guard version == supportedIndexVersion else { return nil }

        // (response time, position, body bytes) of each entry.
        var ages: [(storedAt: UInt32, position: Int, bytes: Int)] = []
        ages.reserveCapacity(count)
        var total = 0
        for position in 0..<count {
            let entry = g_variant_get_child_value(entries, gsize(position))
            let storedAt = uint32Child(entry, 4)
            let bytes = Int(uint32Child(entry, 6))
            g_variant_unref(entry)
            ages.append((storedAt, position, bytes))
            total += bytes
        }
        var trim = IndexTrim(bytesAfter: total, entriesBefore: count, entriesAfter: count)
        guard total > limit || count > maxEntries else { return trim }

        // Oldest first; within one second, libsoup's list has the newest entries in front, so the later
        // one is the older.
        ages.sort { $0.storedAt != $1.storedAt ? $0.storedAt < $1.storedAt : $0.position > $1.position }
        var dropped = Set<Int>()
        for age in ages where trim.bytesAfter > limit || count - dropped.count > maxEntries {
            dropped.insert(age.position)
            trim.bytesAfter -= age.bytes
        }
        trim.entriesAfter = count - dropped.count

        let arrayType = g_variant_type_new("a(sbuuuuuqa{ss})")
        defer { g_variant_type_free(arrayType) }
        var builder = GVariantBuilder()
        g_variant_builder_init(&builder, arrayType)
        var droppedFiles: [String] = []
        for position in 0..<count {
            let entry = g_variant_get_child_value(entries, gsize(position))
            if dropped.contains(position) {
                if let name = fileName(of: entry) { droppedFiles.append(name) }
            } else {
                g_variant_builder_add_value(&builder, entry)
            }
            g_variant_unref(entry)
        }
        var children: [OpaquePointer?] = [g_variant_new_uint16(version), g_variant_builder_end(&builder)]
        let trimmed = g_variant_ref_sink(g_variant_new_tuple(&children, 2))
        defer { g_variant_unref(trimmed) }
        let data = g_variant_get_data(trimmed)?.assumingMemoryBound(to: gchar.self)
        // The files go aside only once the index without them is written (a full disk, say, keeps both).
        guard g_file_set_contents(path, data, gssize(g_variant_get_size(trimmed)), nil) != 0 else { return nil }
        for name in droppedFiles { rename(directory + "/" + name, directory + "/" + droppedFilePrefix + name) }
        return trim
    }

    /// The file of an index entry: libsoup names it by `g_str_hash` of the URI.
    private nonisolated static func fileName(of entry: OpaquePointer?) -> String? {
        let uriValue = g_variant_get_child_value(entry, 0)
        defer { g_variant_unref(uriValue) }
        return g_variant_get_string(uriValue, nil).map { String(g_str_hash($0)) }
    }

    /// What `trimIndex` renames dropped entries' files to: a "soup." name, which libsoup leaves alone.
    public nonisolated static let droppedFilePrefix = "soup.dropped-"

    /// Deletes the files `trimIndex` set aside (also those an earlier run left). Blocking: a worker thread;
    /// it can run while the cache is in use, as libsoup never touches these names.
    public nonisolated static func removeDroppedFiles(in directory: String) {
        for name in DirectoryScan.names(in: directory) where name.hasPrefix(droppedFilePrefix) {
            unlink(directory + "/" + name)
        }
    }

    /// libsoup 2.4's index file in the cache directory, and the format version this code reads.
    public nonisolated static let indexFileName = "soup.cache2"
    nonisolated static let supportedIndexVersion: UInt16 = 5

    private nonisolated static func uint32Child(_ tuple: OpaquePointer?, _ index: Int) -> UInt32 {
        let value = g_variant_get_child_value(tuple, gsize(index))
        defer { g_variant_unref(value) }
        return g_variant_get_uint32(value)
    }
}
