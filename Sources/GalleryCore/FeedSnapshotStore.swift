import CGtk
import GObjectBindings

/// Keeps the last gallery's `FeedSnapshot` in one file in the cache directory (readable by the user only),
/// for a launch without network. Encoding, decoding and the disk are off the main loop: JSON on a GTask
/// worker, the file through GIO's asynchronous calls (written atomically). Saves that come faster than the
/// disk are coalesced: the newest wins.
@MainActor
public final class FeedSnapshotStore {
    public let path: String
    private var saving = false
    private var pending: FeedSnapshot?
    /// Bumped by `remove`, so that a save already under way does not bring the file back.
    private var generation = 0
    /// Called after each write with its error, if any (tests).
    public var onSaved: (@MainActor (GLibError?) -> Void)?

    public init(path: String) { self.path = path }

    public func save(_ snapshot: FeedSnapshot) {
        pending = snapshot
        writePending()
    }

    private func writePending() {
        guard !saving, let snapshot = pending else { return }
        pending = nil
        saving = true
        let generation = generation
        WorkerTask.run({ snapshot.encoded() }, completion: { [weak self] bytes in
            guard let self else { return }
            guard let bytes, generation == self.generation else { return self.finishSave(nil) }
            File(path: self.path).replaceContents(bytes, private: true) { [weak self] error in
                guard let self else { return }
                // Removed while this was being written: remove the file written after all.
                if generation != self.generation { File(path: self.path).delete { _ in } }
                self.finishSave(error)
            }
        })
    }

    private func finishSave(_ error: GLibError?) {
        saving = false
        onSaved?(error)
        writePending()
    }

    /// The snapshot of the gallery whose first request is `firstURL`; nil when there is none for it, or
    /// the file is unreadable, too big or damaged.
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
        generation += 1
        pending = nil
        let size = DirectoryScan.fileBytes(at: path) ?? 0
        File(path: path).delete { result in
            if case .success = result { completion(size) } else { completion(0) }
        }
    }
}
