import CGLib
import GObjectBindings

/// The HTTP disk cache of one `HTTPClient`: libsoup's SoupCache in `directory`, capped at `maxBytes`,
/// honouring the servers' cache headers. Fresh responses come from disk without a request, stale ones are
/// revalidated, and while the network is unreachable a stored copy is used however old (see `HTTPClient.open`).
///
/// The index is read on a GTask worker as soon as the cache is made (it is a synchronous read of a file
/// that grows with the entries: measured in `make bench`'s `fullcache` and `relaunch`), after trimming it
/// to `fillAfterTrim` of the cap and `maxEntriesAfterTrim` entries, and the cache joins the session only
/// once it is read; requests made meanwhile wait for it, so a launch without network still finds everything
/// the last one stored.
/// `dump()` writes the index back: call it when the app quits.
///
/// The cap is libsoup's, and it cannot evict an entry whose file is still being written (libsoup 2.74 passes
/// over it and stores the new response anyway): while many responses are being stored at once the cache holds
/// more than `maxBytes` by those. The next response stored after their writes finish evicts back to the cap,
/// and each start trims to `fillAfterTrim` of it.
///
/// One cache serves one `HTTPClient`, and its directory must belong to this process alone (SoupCache is
/// not safe for two processes): `DiskCache` takes a lock for it. `HTTPClient.clearCache` empties it (see
/// `HTTPSessions`).
@MainActor
public final class HTTPCache {
    public let directory: String
    public let maxBytes: Int
    /// The cache the client's session uses; replaced by an empty one when cleared.
    private var soupCache: Soup.Cache
    /// Work waiting for the index; nil once it is read.
    private var waiting: [@MainActor () -> Void]? = []
    /// Reading the index at start: how long it took on the worker, and what the trim found and left.
    public private(set) var loadReport: LoadReport?

    public struct LoadReport: Sendable {
        public var microseconds: Int
        /// Of which the trim: reading and rewriting the index, renaming the dropped entries' files aside (they
        /// are deleted after the read, while the cache is in use).
        public var trimMicroseconds: Int
        /// Nil when there was no index (a first start, or after a crash or a clear).
        public var trim: HTTPCacheTrim.Report?
    }

    /// libsoup counts in a guint: the cap stays below 4 GiB (`CacheSettings.largestMegabytes` follows).
    public nonisolated static let largestMaxBytes = Int(UInt32.max)

    /// At each start the oldest entries are dropped until the cache is at most this full, so that the
    /// coming session has room to store what it sees (see `HTTPCacheTrim` for why libsoup's own
    /// eviction does not leave it).
    public static let fillAfterTrim = 0.75
    /// ... and until it has at most this many entries. libsoup reads its index in more than linear time, and
    /// requests wait for it (`make bench`'s fullcache scenario measures it; docs/PERFORMANCE.md has the
    /// numbers). 4,000 thumbnails are about 25–80 MB.
    public static let defaultMaxEntriesAfterTrim = 4_000

    public let maxEntriesAfterTrim: Int

    public init(directory: String, maxBytes: Int, maxEntriesAfterTrim: Int = defaultMaxEntriesAfterTrim) {
        self.directory = directory
        self.maxBytes = min(max(0, maxBytes), Self.largestMaxBytes)
        self.maxEntriesAfterTrim = maxEntriesAfterTrim
        soupCache = Self.makeCache(directory: directory, maxBytes: self.maxBytes)
        let loading = soupCache
        let trashPrefix = Self.trashPrefix(of: directory)
        let trimLimit = Int(Double(self.maxBytes) * Self.fillAfterTrim)
        let maxEntries = maxEntriesAfterTrim
        let opened = Int(g_get_real_time() / 1_000_000)
        WorkerTask.run({ () -> LoadReport in
            let started = MonotonicClock.microseconds
            let trim = HTTPCacheTrim.run(in: directory, toBytes: trimLimit, maxEntries: maxEntries)
            let trimmed = MonotonicClock.microseconds
            loading.load()
            Self.removeLeftoverTrash(prefix: trashPrefix)
            return LoadReport(microseconds: MonotonicClock.microseconds - started, trimMicroseconds: trimmed - started,
                              trim: trim)
        }, completion: { [weak self] report in
            // What the trim set aside goes now, off the way of the requests waiting for the index.
            WorkerTask.run({
                Soup.CacheIndex.removeDroppedFiles(in: directory)
                // libsoup writes its index through a temporary file as the app quits; a kill meanwhile leaves it.
                DirectoryScan.removeInterruptedWrites(in: directory, of: [Soup.CacheIndex.fileName], changedBefore: opened)
            }, completion: {})
            guard let self else { return }
            self.loadReport = report
            let work = self.waiting ?? []
            self.waiting = nil
            for body in work { body() }
        })
    }

    private static func makeCache(directory: String, maxBytes: Int) -> Soup.Cache {
        let cache = Soup.Cache(directory: directory)
        cache.maxSize = UInt32(maxBytes)
        return cache
    }

    /// True once the index is read and the cache answers requests.
    public var isReady: Bool { waiting == nil }

    /// Runs `body` once the index is read: at once if it is.
    public func whenReady(_ body: @escaping @MainActor () -> Void) {
        if waiting != nil { waiting?.append(body) } else { body() }
    }

    /// Writes the index, so that the next launch finds what this one stored. A cache whose index is still
    /// being read has nothing new to write (requests waited for it).
    public func dump() {
        guard isReady else { return }
        soupCache.dump()
    }

    /// Lets the responses being stored reach the disk (iterating the main loop): tests and benchmarks call it
    /// before `dump` so that what they fetched is in the index. The app does not: at quit, a response still
    /// being written is simply not kept.
    public func finishWrites() {
        guard isReady, isAttached else { return }
        soupCache.flush()
    }

    /// A session uses the cache (libsoup's flush needs the session).
    private(set) var isAttached = false
    private var isClaimed = false

    /// One client per cache, for good: SoupCache belongs to one session at a time.
    func claim() {
        precondition(!isClaimed, "an HTTPCache serves one HTTPClient")
        isClaimed = true
    }

    /// `session`'s requests go through the cache from now on.
    func attach(to session: Soup.Session) {
        session.addCache(soupCache)
        isAttached = true
    }

    func detach(from session: Soup.Session) {
        session.removeCache(soupCache)
        isAttached = false
    }

    /// Puts an empty cache in the place of this one (its files are left to `removeTrash`): the directory
    /// is renamed aside (one rename) and a new cache made in its place. Nil when there was nothing to rename.
    func replaceWithEmptyCache() -> String? {
        let trash = Self.trashPrefix(of: directory) + String(g_get_real_time())
        let moved = FileSystem.rename(directory, to: trash)
        soupCache = Self.makeCache(directory: directory, maxBytes: maxBytes)
        return moved ? trash : nil
    }

    /// Deletes a replaced cache's files on a worker; `completion` gets the bytes freed.
    static func removeTrash(_ trash: String?, completion: @escaping @MainActor (Int) -> Void) {
        guard let trash else {
            MainLoopSource.idle { completion(0) }
            return
        }
        WorkerTask.run({ DirectoryScan.removeFlatDirectory(trash) }, completion: completion)
    }

    /// Bytes the cache's files take on disk now (measured on a worker; tests).
    func measureBytes(completion: @escaping @MainActor (Int) -> Void) {
        let directory = directory
        WorkerTask.run({ DirectoryScan.totalFileBytes(in: directory) }, completion: completion)
    }

    /// A cleared cache's directory, renamed aside until its files are deleted: "<directory>.cleared-<time>".
    private nonisolated static func trashPrefix(of directory: String) -> String { directory + ".cleared-" }

    /// A clear interrupted by the app quitting leaves its renamed directory behind: deleted at the next start.
    private nonisolated static func removeLeftoverTrash(prefix: String) {
        let parent = FileSystem.directoryName(of: prefix), stem = FileSystem.baseName(of: prefix)
        for name in DirectoryScan.names(in: parent) where name.hasPrefix(stem) {
            DirectoryScan.removeFlatDirectory(parent + "/" + name)
        }
    }
}
