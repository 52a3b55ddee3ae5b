import CGLib
import GObjectBindings

/// What the window keeps on disk between launches, in `$XDG_CACHE_HOME/gallery-viewer` (0700): the HTTP
/// cache (`http/`, thumbnails and images as the services' cache headers allow) and the last gallery's first
/// page (`last-gallery.json`) with its first screen's thumbnails (`last-gallery.thumbnails`). One process at a
/// time: a second one (a second instance without a session bus) runs without a disk cache rather than share
/// libsoup's index.
@MainActor
public final class DiskCache {
    public let directory: String
    public let http: HTTPCache
    public let snapshots: FeedSnapshotStore
    /// Held while the cache is in use: this process's claim on the directory.
    private let lock: FileLock

    public nonisolated static var defaultDirectory: String {
        FileSystem.userCacheDirectory + "/gallery-viewer"
    }

    /// Nil when `settings` turn the cache off, or the directory cannot be made or is in use by another
    /// process.
    public static func open(directory: String = defaultDirectory, settings: CacheSettings) -> DiskCache? {
        guard settings.isEnabled else { return nil }
        // A few directory calls once per launch: not worth a thread.
        guard FileSystem.makePrivateDirectory(directory), let lock = FileLock(path: directory + "/lock") else { return nil }
        return DiskCache(directory: directory, maxBytes: settings.maxBytes, lock: lock)
    }

    private init(directory: String, maxBytes: Int, lock: FileLock) {
        self.directory = directory
        self.lock = lock
        http = HTTPCache(directory: directory + "/http", maxBytes: maxBytes)
        snapshots = FeedSnapshotStore(path: directory + "/last-gallery.json")
        // Read while the window is made: the launch shows them first.
        snapshots.readAhead()
        // The saved page and thumbnails are written through temporary files (at quit, and as a gallery loads);
        // a process killed meanwhile leaves one behind, which nothing else would ever remove.
        let names = [snapshots.path, snapshots.thumbnailsPath].map(FileSystem.baseName)
        let opened = Int(g_get_real_time() / 1_000_000)
        WorkerTask.run({ DirectoryScan.removeInterruptedWrites(in: directory, of: names, changedBefore: opened) }, completion: { _ in })
    }

    /// Bytes on disk now: the HTTP cache's files and the saved page (measured on a worker; tests).
    func measureBytes(completion: @escaping @MainActor (Int) -> Void) {
        let snapshotBytes = snapshots.bytesOnDisk
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

    /// Writes the HTTP cache's index and the thumbnails of `gallery`'s first screen (the gallery on screen), as
    /// `images` holds them: call it when the app quits.
    public func save(showing gallery: Gallery?, images: ImageCache) {
        if let gallery { snapshots.saveFirstScreen(of: gallery, cache: images) }
        http.dump()
    }
}
