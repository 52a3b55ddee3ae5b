import CGLib
import GObjectBindings
import Synchronization

/// Keeps the last gallery's `FeedSnapshot` in one file in the cache directory (readable by the user only),
/// for a launch without network, and beside it the thumbnails of its first screen (`FirstScreenThumbnails`).
/// Off the main loop: reads on a GTask worker (the file within its bound, then decoded), writes through GIO's
/// asynchronous calls (atomically); saves that come faster than the disk are coalesced, the newest winning.
/// The thumbnails are written at once as the app quits.
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
        let path = self.path
        WorkerTask.run({ Self.readSnapshot(at: path) }, completion: matching)
    }

    /// Starts reading both files now, before anyone asks (the app: as it starts, so that they are read while
    /// the window is made); the first `load` and `loadFirstScreen` take what was read, at once if the worker
    /// has finished, even while the main loop has not yet heard of it (the window's first frame can then show it).
    public func readAhead() {
        let path = self.path
        let thumbnailsPath = self.thumbnailsPath
        aheadSnapshot = PendingRead { Self.readSnapshot(at: path) }
        aheadThumbnails = PendingRead { Self.readThumbnails(at: thumbnailsPath, firstURL: nil) }
    }

    /// Lets go of what was read ahead, when no one will ask for it (a launch that shows no saved gallery):
    /// its thumbnails are megabytes.
    public func dropReadAhead() {
        aheadSnapshot = nil
        aheadThumbnails = nil
    }

    /// Both files read ahead have been read (or none is being read ahead); tests wait for it.
    var isReadAheadFinished: Bool { (aheadSnapshot?.isFinished ?? true) && (aheadThumbnails?.isFinished ?? true) }

    /// Each file read ahead, until the first who asks takes it.
    private var aheadSnapshot: PendingRead<FeedSnapshot>?
    private var aheadThumbnails: PendingRead<(firstURL: String, entries: [FirstScreenThumbnails.Entry])>?

    /// On a worker: the file, never read past its bound, and what it holds (nil when absent or damaged).
    private nonisolated static func readSnapshot(at path: String) -> FeedSnapshot? {
        guard case .success(let bytes) = BoundedFileRead.read(atPath: path, maxBytes: FeedSnapshot.maxFileBytes) else {
            return nil
        }
        return bytes.withUnsafeBytes { FeedSnapshot.decode($0) }
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
        let path = thumbnailsPath
        WorkerTask.run({ Self.readThumbnails(at: path, firstURL: firstURL) }, completion: matching)
    }

    /// On a worker: the kept thumbnails if they are the gallery's whose first request is `firstURL` (nil:
    /// whichever gallery's they are).
    private nonisolated static func readThumbnails(at path: String, firstURL: String?)
        -> (firstURL: String, entries: [FirstScreenThumbnails.Entry])? {
        guard case .success(let bytes) = BoundedFileRead.read(atPath: path, maxBytes: FirstScreenThumbnails.maxFileBytes) else {
            return nil
        }
        return bytes.withUnsafeBytes { FirstScreenThumbnails.decode($0, firstURL: firstURL) }
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

/// A file being read on a worker before anyone asked for it: those who ask get what was read, at once if the
/// worker has finished (taken from it directly, before the main loop delivers its result).
@MainActor
private final class PendingRead<Value: Sendable> {
    private var result: Value??
    private var waiting: [@MainActor (Value?) -> Void] = []
    private let finished = FinishedOutput<Value?>()

    init(_ read: @escaping @Sendable () -> Value?) {
        let finished = self.finished
        WorkerTask.run({
            let value = read()
            finished.store(value)
            return value
        }) { [self] value in deliver(value) }
    }

    var isFinished: Bool { result != nil || finished.peek() != nil }

    func whenRead(_ body: @escaping @MainActor (Value?) -> Void) {
        // Finished on the worker, not yet delivered by the main loop: delivered now (its own delivery then finds
        // it done).
        if result == nil, let value = finished.peek() { deliver(value) }
        if let result { body(result) } else { waiting.append(body) }
    }

    private func deliver(_ value: Value?) {
        guard result == nil else { return }
        result = .some(value)
        let waiting = self.waiting
        self.waiting = []
        for body in waiting { body(value) }
    }
}

/// A worker's output, readable from the main thread as soon as the worker stored it.
private final class FinishedOutput<Output: Sendable>: Sendable {
    /// Nil until the worker stored its output (which may itself be nil).
    private let output = Mutex<Output?>(nil)

    func store(_ value: Output) { output.withLock { $0 = .some(value) } }

    func peek() -> Output? { output.withLock { $0 } }
}
