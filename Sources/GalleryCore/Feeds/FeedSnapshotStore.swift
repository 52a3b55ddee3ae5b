import CGLib
import GObjectBindings

/// Keeps the last gallery's `FeedSnapshot` in one file in the cache directory (readable by the user only),
/// for a launch without network. Encoding, decoding and the disk are off the main loop: JSON on a GTask
/// worker, the file through GIO's asynchronous calls (written atomically). Saves that come faster than the
/// disk are coalesced: the newest wins.
@MainActor
public final class FeedSnapshotStore {
    public let path: String
    private let writer: CoalescingFileWriter
    /// Called after each write with its error, if any (tests).
    public var onSaved: (@MainActor (GLibError?) -> Void)? {
        get { writer.onSaved }
        set { writer.onSaved = newValue }
    }

    /// The first screen's thumbnails of the gallery saved last (`FirstScreenThumbnails`), beside it.
    public let thumbnailsPath: String

    public init(path: String) {
        self.path = path
        thumbnailsPath = (path.hasSuffix(".json") ? String(path.dropLast(5)) : path) + ".thumbnails"
        writer = CoalescingFileWriter(path: path)
    }

    public func save(_ snapshot: FeedSnapshot) {
        writer.save { snapshot.encoded() }
    }

    /// The snapshot of the gallery whose first request is `firstURL` (its `PageRequest.key`); nil when there is
    /// none for it, or the file is unreadable, too big or damaged.
    public func load(firstURL: String, completion: @escaping @MainActor (FeedSnapshot?) -> Void) {
        // A stat, not a read: the file is never read past its bound.
        guard let size = DirectoryScan.fileBytes(at: path), size <= FeedSnapshot.maxFileBytes else {
            MainLoopSource.idle { completion(nil) }
            return
        }
        File(path: path).loadContents { result in
            guard case .success(let bytes) = result else { return completion(nil) }
            WorkerTask.run({ FeedSnapshot.decode(bytes) }, completion: { snapshot in
                completion(snapshot?.firstURL == firstURL ? snapshot : nil)
            })
        }
    }

    /// Keeps the thumbnails `gallery`'s first screen shows, as `cache` holds them, for the next launch
    /// (`loadFirstScreen`). Written at once (see `FileSystem.replaceContents`): the app calls it as it quits.
    public func saveFirstScreen(of gallery: Gallery, cache: ImageCache) {
        guard !gallery.isKnownItems else { return }
        let entries = FirstScreenThumbnails.firstScreen(of: gallery, in: cache)
        guard !entries.isEmpty else { return }
        FileSystem.replaceContents(of: thumbnailsPath,
                                   with: FirstScreenThumbnails.encode(firstURL: gallery.source.firstRequest().key, entries: entries))
    }

    /// The thumbnails kept by `saveFirstScreen` when they are the gallery's whose first request is `firstURL`;
    /// empty when there are none or the file is damaged. Read and checked off the main loop.
    public func loadFirstScreen(firstURL: String, completion: @escaping @MainActor ([FirstScreenThumbnails.Entry]) -> Void) {
        guard let size = DirectoryScan.fileBytes(at: thumbnailsPath), size <= FirstScreenThumbnails.maxFileBytes else {
            MainLoopSource.idle { completion([]) }
            return
        }
        File(path: thumbnailsPath).loadContents { result in
            guard case .success(let bytes) = result else { return completion([]) }
            WorkerTask.run({
                bytes.withUnsafeBytes { FirstScreenThumbnails.decode($0, firstURL: firstURL) } ?? []
            }, completion: completion)
        }
    }

    /// Deletes the files (Clear Cache); a save under way is dropped. `completion` gets the bytes freed.
    public func remove(completion: @escaping @MainActor (Int) -> Void) {
        writer.discard()
        var freed: [Int] = []
        for file in [path, thumbnailsPath] {
            let size = DirectoryScan.fileBytes(at: file) ?? 0
            File(path: file).delete { result in
                if case .success = result { freed.append(size) } else { freed.append(0) }
                if freed.count == 2 { completion(freed.reduce(0, +)) }
            }
        }
    }

    /// Bytes the files take now.
    var bytesOnDisk: Int { (DirectoryScan.fileBytes(at: path) ?? 0) + (DirectoryScan.fileBytes(at: thumbnailsPath) ?? 0) }
}
