import CGLib
import GObjectBindings
#if canImport(Glibc)
import Glibc
#endif

/// What the window keeps on disk between launches, in `$XDG_CACHE_HOME/gallery-viewer` (0700): the HTTP
/// cache (`http/`, thumbnails and images as the services' cache headers allow) and the last gallery's first
/// page (`last-gallery.json`). One process at a time: a second one (a second instance without a session
/// bus) runs without a disk cache rather than share libsoup's index.
@MainActor
public final class DiskCache {
    public let directory: String
    public let http: HTTPCache
    public let snapshots: FeedSnapshotStore
    /// The lock's file descriptor, held (and so the lock) until the process ends.
    private let lockDescriptor: Int32

    public nonisolated static var defaultDirectory: String {
        (string(g_get_user_cache_dir()) ?? ".") + "/gallery-viewer"
    }

    /// Nil when `settings` turn the cache off, or the directory cannot be made or is in use by another
    /// process.
    public static func open(directory: String = defaultDirectory, settings: CacheSettings) -> DiskCache? {
        guard settings.isEnabled else { return nil }
        // A few directory calls once per launch: not worth a thread. An existing directory made with wider
        // permissions is narrowed: the cache says what the user looks at.
        g_mkdir_with_parents(directory, 0o700)
        chmod(directory, 0o700)
        let descriptor = Glibc.open(directory + "/lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return nil }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            return nil
        }
        return DiskCache(directory: directory, maxBytes: settings.maxBytes, lockDescriptor: descriptor)
    }

    private init(directory: String, maxBytes: Int, lockDescriptor: Int32) {
        self.directory = directory
        self.lockDescriptor = lockDescriptor
        http = HTTPCache(directory: directory + "/http", maxBytes: maxBytes)
        snapshots = FeedSnapshotStore(path: directory + "/last-gallery.json")
    }

    /// Bytes on disk now: the HTTP cache's files and the saved page (measured on a worker; tests).
    func measureBytes(completion: @escaping @MainActor (Int) -> Void) {
        let snapshotBytes = DirectoryScan.fileBytes(at: snapshots.path) ?? 0
        http.measureBytes { completion($0 + snapshotBytes) }
    }

    /// Empties both, `client` (the one using `http`) going on with an empty cache; `completion` gets the
    /// bytes freed.
    public func clear(through client: HTTPClient, completion: @escaping @MainActor (Int) -> Void) {
        precondition(client.cache === http, "the client using this cache")
        var freed: [Int] = []
        let collect: @MainActor (Int) -> Void = { bytes in
            freed.append(bytes)
            if freed.count == 2 { completion(freed.reduce(0, +)) }
        }
        client.clearCache(completion: collect)
        snapshots.remove(completion: collect)
    }

    /// Writes the HTTP cache's index: call it when the app quits.
    public func save() { http.dump() }
}
