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

    public init(path: String) {
        self.path = path
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

    /// Deletes the file (Clear Cache); a save under way is dropped.
    public func remove(completion: @escaping @MainActor (Int) -> Void) {
        writer.discard()
        let size = DirectoryScan.fileBytes(at: path) ?? 0
        File(path: path).delete { result in
            if case .success = result { completion(size) } else { completion(0) }
        }
    }
}
