import CGLib
#if canImport(Glibc)
import Glibc
#endif

extension Soup {
    /// libsoup 2.4's own index of a SoupCache directory ("soup.cache2", a GVariant `(qa(sbuuuuuqa{ss}))`,
    /// version 5), read, and written back without some of its entries. Which entries go is the app's choice
    /// (GalleryCore's `HTTPCacheTrim`); this type only knows the format. Any other version is not read
    /// (libsoup itself then starts empty).
    ///
    /// Blocking file I/O: worker threads only, and before the cache's `load` (libsoup reads the file then
    /// and writes it at `dump`).
    public final class CacheIndex {
        /// One stored response, as far as choosing what to drop needs it.
        public struct Entry: Sendable, Equatable {
            /// When the response arrived (libsoup's response_time: seconds since the epoch).
            public var storedAt: UInt32
            /// The bytes of its body file.
            public var bodyBytes: Int

            public init(storedAt: UInt32, bodyBytes: Int) {
                self.storedAt = storedAt
                self.bodyBytes = bodyBytes
            }
        }

        public let directory: String
        /// In the file's order, which is libsoup's eviction list: a new entry goes before its equals, so of
        /// two entries stored in the same second the later one in the file is the older.
        public let entries: [Entry]
        /// The index as read (owned); `write` copies the entries it keeps from it unchanged.
        private let index: OpaquePointer
        private let version: UInt16

        /// libsoup 2.4's index file in the cache directory, and the format version this type reads.
        public static let fileName = "soup.cache2"
        static let supportedVersion: UInt16 = 5

        /// Reads the index in `directory`; nil when there is none (a first start, or after a crash or a
        /// clear) or it has another version.
        public init?(directory: String) {
            var contents: UnsafeMutablePointer<gchar>?
            var length: gsize = 0
            guard g_file_get_contents(directory + "/" + Self.fileName, &contents, &length, nil) != 0, let contents else {
                return nil
            }
            let fileType = g_variant_type_new("(qa(sbuuuuuqa{ss}))")
            defer { g_variant_type_free(fileType) }
            // Not trusted: GVariant reads malformed data as default values instead of failing or overreading.
            let index = g_variant_ref_sink(g_variant_new_from_data(fileType, contents, length, 0, g_free, contents))!
            let version = Self.child(index, 0) { g_variant_get_uint16($0) }
            guard version == Self.supportedVersion else {
                g_variant_unref(index)
                return nil
            }
            self.directory = directory
            self.index = index
            self.version = version
            entries = Self.child(index, 1) { list in
                (0..<Int(g_variant_n_children(list))).map { position in
                    Self.child(list, position) { entry in
                        Entry(storedAt: Self.child(entry, 4) { g_variant_get_uint32($0) },
                              bodyBytes: Int(Self.child(entry, 6) { g_variant_get_uint32($0) }))
                    }
                }
            }
        }

        deinit { g_variant_unref(index) }

        /// Writes the index without the entries at `positions` (indices into `entries`), atomically, then
        /// renames their body files to `droppedFilePrefix` + their name, which libsoup's `load` passes over
        /// (it skips "soup." names; any other file its index does not name it deletes, one unlink at a time
        /// on the thread that waits for the index, where a rename is several times quicker):
        /// `removeDroppedFiles` deletes them once the cache is in use. False when the index could not be
        /// written (a full disk, say): then no file is set aside, as the old index still names them all.
        public func write(dropping positions: Set<Int>) -> Bool {
            let arrayType = g_variant_type_new("a(sbuuuuuqa{ss})")
            defer { g_variant_type_free(arrayType) }
            var builder = GVariantBuilder()
            g_variant_builder_init(&builder, arrayType)
            var droppedFiles: [String] = []
            Self.child(index, 1) { list in
                for position in entries.indices {
                    Self.child(list, position) { entry in
                        if positions.contains(position) {
                            if let name = Self.fileName(of: entry) { droppedFiles.append(name) }
                        } else {
                            g_variant_builder_add_value(&builder, entry)
                        }
                    }
                }
            }
            var children: [OpaquePointer?] = [g_variant_new_uint16(version), g_variant_builder_end(&builder)]
            let trimmed = g_variant_ref_sink(g_variant_new_tuple(&children, 2))
            defer { g_variant_unref(trimmed) }
            let data = g_variant_get_data(trimmed)?.assumingMemoryBound(to: gchar.self)
            guard g_file_set_contents(directory + "/" + Self.fileName, data, gssize(g_variant_get_size(trimmed)), nil) != 0 else {
                return false
            }
            for name in droppedFiles { rename(directory + "/" + name, directory + "/" + Self.droppedFilePrefix + name) }
            return true
        }

        /// What `write` renames dropped entries' files to: a "soup." name, which libsoup leaves alone.
        public static let droppedFilePrefix = "soup.dropped-"

        /// Deletes the files `write` set aside (also those an earlier run left). Blocking: a worker thread;
        /// it can run while the cache is in use, as libsoup never touches these names.
        public static func removeDroppedFiles(in directory: String) {
            for name in DirectoryScan.names(in: directory) where name.hasPrefix(droppedFilePrefix) {
                unlink(directory + "/" + name)
            }
        }

        /// The body file of an index entry: libsoup names it by `g_str_hash` of the URI.
        private static func fileName(of entry: OpaquePointer?) -> String? {
            child(entry, 0) { uri in g_variant_get_string(uri, nil).map { String(g_str_hash($0)) } }
        }

        /// `body` on the child at `index` of a GVariant container, released afterwards.
        private static func child<T>(_ container: OpaquePointer?, _ index: Int, _ body: (OpaquePointer?) -> T) -> T {
            let value = g_variant_get_child_value(container, gsize(index))
            defer { g_variant_unref(value) }
            return body(value)
        }
    }
}
