import CGLib
import GObjectBindings

/// Keeps the last gallery's `FeedSnapshot` in one file in the cache directory (readable by the user only),
/// for a launch without network, and beside it the thumbnails of its first screen (`FirstScreenThumbnails`). Encoding, decoding and the disk are off the main loop: JSON on a GTask
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
        // What was read ahead is no longer the file.
        aheadSnapshot = nil
        isCleared = false
        writer.save { snapshot.encoded() }
    }

    /// Cleared (`remove`) and no page saved since: the first screen is not kept either, since no page would
    /// show it, and the user asked for the cache to be emptied.
    private var isCleared = false

    /// The snapshot of the gallery whose first request is `firstURL` (its `PageRequest.key`); nil when there is
    /// none for it, or the file is unreadable, too big or damaged.
    public func load(firstURL: String, completion: @escaping @MainActor (FeedSnapshot?) -> Void) {
        let matching: @MainActor (FeedSnapshot?) -> Void = { completion($0?.firstURL == firstURL ? $0 : nil) }
        if let ahead = aheadSnapshot {
            aheadSnapshot = nil
            return ahead.whenRead(matching)
        }
        readSnapshot(matching)
    }

    /// Starts reading both files now, before anyone asks (the app: as it starts, so that they are read while
    /// the window is made); the first `load` and `loadFirstScreen` take what was read.
    public func readAhead() {
        aheadSnapshot = PendingRead(readSnapshot)
        aheadThumbnails = PendingRead { [self] done in readThumbnails(firstURL: nil, done) }
    }

    /// Lets go of what was read ahead, when no one will ask for it (a launch that shows no saved gallery):
    /// its thumbnails are megabytes.
    public func dropReadAhead() {
        aheadSnapshot = nil
        aheadThumbnails = nil
    }

    /// Each file read ahead, until the first who asks takes it.
    private var aheadSnapshot: PendingRead<FeedSnapshot>?
    private var aheadThumbnails: PendingRead<(firstURL: String, entries: [FirstScreenThumbnails.Entry])>?

    private func readSnapshot(_ completion: @escaping @MainActor (FeedSnapshot?) -> Void) {
        // A stat, not a read: the file is never read past its bound.
        guard let size = DirectoryScan.fileBytes(at: path), size <= FeedSnapshot.maxFileBytes else {
            MainLoopSource.idle { completion(nil) }
            return
        }
        File(path: path).loadContents { result in
            guard case .success(let bytes) = result else { return completion(nil) }
            WorkerTask.run({ FeedSnapshot.decode(bytes) }, completion: completion)
        }
    }

    /// Keeps the thumbnails `gallery`'s first screen shows, as `cache` holds them, for the next launch
    /// (`loadFirstScreen`). Written at once (see `FileSystem.replaceContents`): the app calls it as it quits.
    public func saveFirstScreen(of gallery: Gallery, cache: ImageCache) {
        guard !gallery.isKnownItems, !isCleared else { return }
        let entries = FirstScreenThumbnails.firstScreen(of: gallery, in: cache)
        guard !entries.isEmpty else { return }
        aheadThumbnails = nil
        FileSystem.replaceContents(of: thumbnailsPath,
                                   with: FirstScreenThumbnails.encode(firstURL: gallery.source.firstRequest().key, entries: entries))
    }

    /// The thumbnails kept by `saveFirstScreen` when they are the gallery's whose first request is `firstURL`;
    /// empty when there are none or the file is damaged. Read and checked off the main loop.
    public func loadFirstScreen(firstURL: String, completion: @escaping @MainActor ([FirstScreenThumbnails.Entry]) -> Void) {
        let matching: @MainActor ((firstURL: String, entries: [FirstScreenThumbnails.Entry])?) -> Void = {
            completion($0?.firstURL == firstURL ? $0?.entries ?? [] : [])
        }
        if let ahead = aheadThumbnails {
            aheadThumbnails = nil
            return ahead.whenRead(matching)
        }
        readThumbnails(firstURL: firstURL, matching)
    }

    /// Nil `firstURL`: whichever gallery's they are.
    private func readThumbnails(firstURL: String?,
                                _ completion: @escaping @MainActor ((firstURL: String, entries: [FirstScreenThumbnails.Entry])?) -> Void) {
        guard let size = DirectoryScan.fileBytes(at: thumbnailsPath), size <= FirstScreenThumbnails.maxFileBytes else {
            MainLoopSource.idle { completion(nil) }
            return
        }
        File(path: thumbnailsPath).loadContents { result in
            guard case .success(let bytes) = result else { return completion(nil) }
            WorkerTask.run({
                bytes.withUnsafeBytes { FirstScreenThumbnails.decode($0, firstURL: firstURL) }
            }, completion: completion)
        }
    }

    /// Deletes the files (Clear Cache); a save under way is dropped. `completion` gets the bytes freed.
    public func remove(completion: @escaping @MainActor (Int) -> Void) {
        writer.discard()
        dropReadAhead()
        isCleared = true
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

/// A file being read before anyone asked for it: those who ask get what was read, at once if it is.
@MainActor
private final class PendingRead<Value> {
    private var result: Value??
    private var waiting: [@MainActor (Value?) -> Void] = []

    init(_ read: (@escaping @MainActor (Value?) -> Void) -> Void) {
        read { [self] value in
            result = .some(value)
            let waiting = self.waiting
            self.waiting = []
            for body in waiting { body(value) }
        }
    }

    func whenRead(_ body: @escaping @MainActor (Value?) -> Void) {
        if let result { body(result) } else { waiting.append(body) }
    }
}
