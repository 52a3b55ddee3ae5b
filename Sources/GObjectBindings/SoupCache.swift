import CGLib
import CSoup

extension Soup {
    /// libsoup's HTTP disk cache (SoupCache, single-user): responses are stored in `directory` as the
    /// servers' cache headers allow, and a session with the cache attached answers fresh ones from disk
    /// without a request, revalidates stale ones (304) and honours a request's `Cache-Control: max-stale`.
    /// Only `soup_session_send_async` consults it.
    ///
    /// The index of entries lives in memory; `load` reads it from `directory` and `dump` writes it back,
    /// both synchronously (GVariant, one file).
    public final class Cache: @unchecked Sendable {
        // @unchecked Sendable: only so that `load` can run on a GTask worker while the cache belongs to no
        // session yet (nothing else can touch it then); everything else happens on the main loop.
        public let ref: ObjectRef
        public let directory: String

        /// Creates `directory` (0700) when it does not exist.
        public init(directory: String) {
            self.directory = directory
            ref = ObjectRef(soup_cache_new(directory, SOUP_CACHE_SINGLE_USER)!, transfer: .full)
        }

        private var cache: UnsafeMutablePointer<SoupCache> { ref.typed() }

        /// Bytes of bodies the cache keeps before it evicts (least hit first). libsoup stores no single
        /// response larger than a tenth of this.
        public var maxSize: UInt32 {
            get { UInt32(soup_cache_get_max_size(cache)) }
            set { soup_cache_set_max_size(cache, guint(newValue)) }
        }

        /// Reads the index. Blocks on the disk (and on checking the directory's files): call it on a worker
        /// thread, before the cache is attached to a session. Files the index does not know are deleted.
        public func load() { soup_cache_load(cache) }

        /// Writes the index. Without it, the entries stored in this run are forgotten (and their files
        /// deleted by the next `load`). Entries still being written are left out.
        public func dump() { soup_cache_dump(cache) }

        /// Iterates the main context until every response being stored is written (at most 10 s; libsoup
        /// warns past that). For tests and benchmarks: never from inside a main-loop callback of the app.
        public func flush() { soup_cache_flush(cache) }
    }
}

extension Soup.Session {
    /// Attaches `cache`: from now on `send` answers from it where it can, and stores what it may.
    public func addCache(_ cache: Soup.Cache) {
        soup_session_add_feature(ref.typed(), cache.ref.opaque)
    }

    /// Detaches `cache`; requests already answered or being stored by it finish with it.
    public func removeCache(_ cache: Soup.Cache) {
        soup_session_remove_feature(ref.typed(), cache.ref.opaque)
    }
}
