import CGtk

extension Soup.Cache {
    /// What `trimIndex` found and left: the bytes of bodies the index names, and its entries.
    public struct IndexTrim: Sendable, Equatable {
        public var bytesBefore: Int
        public var bytesAfter: Int
        public var entriesBefore: Int
        public var entriesAfter: Int
        /// Bytes of the index file as read.
        public var indexFileBytes: Int
    }

    /// Drops the entries stored longest ago from the index in `directory` until the bodies it names take at
    /// most `limit` bytes, and writes the index back (atomically). The next `load` deletes the dropped
    /// entries' files, as it deletes every file its index does not name.
    ///
    /// Why: libsoup evicts among the entries hit least often the *newest* first (its LRU list puts a new
    /// entry before its equals), so a full cache keeps its oldest entries and replaces each new one with the
    /// next: what a session saw would not be there the next time. Trimming by age before each start leaves
    /// room for what the coming session stores.
    ///
    /// The file is libsoup 2.4's own ("soup.cache2", a GVariant `(qa(sbuuuuuqa{ss}))`, version 5); any other
    /// version is left alone (libsoup itself then starts empty). Blocking: call it on a worker thread,
    /// before `load`. Nil when there is no index to read.
    @discardableResult
    public nonisolated static func trimIndex(in directory: String, toBytes limit: Int) -> IndexTrim? {
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
        var trim = IndexTrim(bytesBefore: total, bytesAfter: total, entriesBefore: count, entriesAfter: count,
                             indexFileBytes: Int(length))
        guard total > limit else { return trim }

        // Oldest first; within one second, libsoup's list has the newest entries in front, so the later
        // one is the older.
        ages.sort { $0.storedAt != $1.storedAt ? $0.storedAt < $1.storedAt : $0.position > $1.position }
        var dropped = Set<Int>()
        for age in ages where trim.bytesAfter > limit {
            dropped.insert(age.position)
            trim.bytesAfter -= age.bytes
        }
        trim.entriesAfter = count - dropped.count

        let arrayType = g_variant_type_new("a(sbuuuuuqa{ss})")
        defer { g_variant_type_free(arrayType) }
        var builder = GVariantBuilder()
        g_variant_builder_init(&builder, arrayType)
        for position in 0..<count where !dropped.contains(position) {
            let entry = g_variant_get_child_value(entries, gsize(position))
            g_variant_builder_add_value(&builder, entry)
            g_variant_unref(entry)
        }
        var children: [OpaquePointer?] = [g_variant_new_uint16(version), g_variant_builder_end(&builder)]
        let trimmed = g_variant_ref_sink(g_variant_new_tuple(&children, 2))
        defer { g_variant_unref(trimmed) }
        let data = g_variant_get_data(trimmed)?.assumingMemoryBound(to: gchar.self)
        g_file_set_contents(path, data, gssize(g_variant_get_size(trimmed)), nil)
        return trim
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
