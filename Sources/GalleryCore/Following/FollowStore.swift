import CGLib
import GObjectBindings

/// The followed galleries and their seen-marks, in `$XDG_DATA_HOME/gallery-viewer/follows.sqlite3` (folder
/// 0700, file 0600; schema in `FollowSchema`).
///
/// Threading: every call is a job on a GTask worker (`WorkerTask.run`), one job at a time in the order asked,
/// on one connection; each completion runs on the main loop. One at a time is enough: a follow or a batch of
/// seen-marks is one small transaction, a few fsyncs (`FollowStoreTests.testWritesAreQuickEnoughToQueue`
/// prints them), the window asks for a handful per user action, and a single connection is what SQLite's WAL
/// needs to rule out the concurrent-checkpoint bug of 3.40 (research-28 §4). The first job opens the file,
/// runs `quick_check` and the migrations, still on the worker.
///
/// Durability: a write's completion is called only after its COMMIT returned, with WAL and synchronous=FULL,
/// so a kill -9 at any moment loses nothing acknowledged (`FollowStoreCrashTests`). A damaged file is moved
/// aside and replaced with an empty one: the job goes on on the new file and `recoveries` (and
/// `onRecovery`) say so.
@MainActor
public final class FollowStore {
    public static var defaultDirectory: String { FileSystem.userDataDirectory + "/gallery-viewer" }

    /// Damaged files moved aside since the store was made, oldest first: what the window tells the user.
    public private(set) var recoveries: [FollowStoreRecovery] = []
    public var onRecovery: (@MainActor (FollowStoreRecovery) -> Void)?

    private let database: FollowDatabase
    private var waiting: [@MainActor () -> Void] = []
    private var running = false

    public init(directory: String = FollowStore.defaultDirectory) {
        database = FollowDatabase(directory: directory)
    }

    /// The database file's path.
    public var path: String { database.path }

    /// Whether jobs are running or waiting.
    public var isBusy: Bool { running || !waiting.isEmpty }

    // MARK: What the store does

    /// Follows `key`'s gallery from `time`; true when it was not followed yet. `knownItems` are what the window
    /// already shows (newest first): they are never new, and the first of them is where the first check stops.
    public func follow(_ key: FollowedGallery.Key, displayName: String, knownItems: [GalleryItem] = [],
                       at time: Int64 = FollowStore.now(),
                       completion: @escaping @MainActor (Result<Bool, FollowStoreError>) -> Void) {
        let newest = knownItems.first
        let gallery = FollowedGallery(key: key, displayName: displayName, followedAt: time, lastItemID: newest?.id,
                                      lastItemTime: newest?.published.map { Int64($0) * 1000 })
        enqueue({ database in database.perform { connection throws(FollowStoreError) in
            try database.follow(gallery, on: connection)
        } }, completion: completion)
    }

    /// Stops following `key`'s gallery, its seen-marks with it; true when it was followed.
    public func unfollow(_ key: FollowedGallery.Key, completion: @escaping @MainActor (Result<Bool, FollowStoreError>) -> Void) {
        enqueue({ database in database.perform { connection throws(FollowStoreError) in
            try database.unfollow(key, on: connection)
        } }, completion: completion)
    }

    /// Every followed gallery, oldest follow first.
    public func following(completion: @escaping @MainActor (Result<[FollowedGallery], FollowStoreError>) -> Void) {
        enqueue({ database in database.perform { connection throws(FollowStoreError) in
            try database.following(on: connection)
        } }, completion: completion)
    }

    /// Every new item of every followed gallery, newest first (by publication, else by when it was found), at
    /// most `FollowLimits.maxNewItems`.
    public func newItems(completion: @escaping @MainActor (Result<[FollowedItem], FollowStoreError>) -> Void) {
        enqueue({ database in database.perform { connection throws(FollowStoreError) in
            try database.newItems(on: connection)
        } }, completion: completion)
    }

    /// `newItems`, made by `transform` into what the caller needs while still on the store's worker: the New
    /// view's 20,000 rows are then neither built into its items nor freed on the main loop.
    public func newItems<Output: Sendable>(_ transform: @escaping @Sendable ([FollowedItem]) -> Output,
                                           completion: @escaping @MainActor (Result<Output, FollowStoreError>) -> Void) {
        enqueue({ database in
            let (rows, recovery) = database.perform { connection throws(FollowStoreError) in
                try database.newItems(on: connection)
            }
            return (rows.map(transform), recovery)
        }, completion: completion)
    }

    public func newItemCount(completion: @escaping @MainActor (Result<Int, FollowStoreError>) -> Void) {
        enqueue({ database in database.perform { connection throws(FollowStoreError) in
            try database.newItemCount(on: connection)
        } }, completion: completion)
    }

    /// Every new item becomes seen; how many there were.
    public func markAllSeen(at time: Int64 = FollowStore.now(),
                            completion: @escaping @MainActor (Result<Int, FollowStoreError>) -> Void) {
        enqueue({ database in database.perform { connection throws(FollowStoreError) in
            try database.markAllSeen(at: time, on: connection)
        } }, completion: completion)
    }

    /// Writes one gallery's check (the checker's): the new items kept, or nil when it is no longer followed.
    func record(_ check: FollowCheckRecord,
                completion: @escaping @MainActor (Result<[FollowedItem]?, FollowStoreError>) -> Void) {
        enqueue({ database in database.perform { connection throws(FollowStoreError) in
            try database.record(check, on: connection)
        } }, completion: completion)
    }

    /// Marks items of a followed gallery seen (they are new no more); the number newly marked.
    public func markSeen(_ itemIDs: [String], in key: FollowedGallery.Key, at time: Int64 = FollowStore.now(),
                         completion: @escaping @MainActor (Result<Int, FollowStoreError>) -> Void) {
        enqueue({ database in database.perform { connection throws(FollowStoreError) in
            try database.markSeen(itemIDs, in: key, at: time, on: connection)
        } }, completion: completion)
    }

    public func seenItemIDs(in key: FollowedGallery.Key,
                            completion: @escaping @MainActor (Result<Set<String>, FollowStoreError>) -> Void) {
        enqueue({ database in database.perform { connection throws(FollowStoreError) in
            try database.seenItemIDs(in: key, on: connection)
        } }, completion: completion)
    }

    /// Records a check of `key`'s gallery (for the checker): when, the newest item seen (nil keeps the last
    /// one), the problem (nil: none). False when the gallery is not followed.
    public func recordCheck(of key: FollowedGallery.Key, at time: Int64 = FollowStore.now(),
                            newestItem: (id: String, time: Int64?)?, problem: String?,
                            completion: @escaping @MainActor (Result<Bool, FollowStoreError>) -> Void) {
        let item = newestItem.map { FollowItemMark(id: $0.id, time: $0.time) }
        enqueue({ database in database.perform { connection throws(FollowStoreError) in
            try database.recordCheck(of: key, at: time, newestItem: item.map { ($0.id, $0.time) }, problem: problem,
                                     on: connection)
        } }, completion: completion)
    }

    /// Closes the connection once every job asked for before has run (the next job opens it again).
    public func close(completion: @escaping @MainActor () -> Void = {}) {
        enqueue({ database in
            database.close()
            return (.success(()), nil)
        }, completion: { (_: Result<Void, FollowStoreError>) in completion() })
    }

    /// Now, in the store's unit: milliseconds since 1970.
    public nonisolated static func now() -> Int64 { Int64(g_get_real_time() / 1000) }

    // MARK: The queue

    private func enqueue<Output: Sendable>(
        _ work: @escaping @Sendable (FollowDatabase) -> (Result<Output, FollowStoreError>, FollowStoreRecovery?),
        completion: @escaping @MainActor (Result<Output, FollowStoreError>) -> Void
    ) {
        let database = database
        waiting.append { [weak self] in
            WorkerTask.run({ JobOutput(work(database)) }) { output in
                if let recovery = output.recovery {
                    self?.recoveries.append(recovery)
                    self?.onRecovery?(recovery)
                }
                self?.running = false
                self?.startNext()
                completion(output.result)
            }
        }
        startNext()
    }

    private func startNext() {
        guard !running, !waiting.isEmpty else { return }
        running = true
        waiting.removeFirst()()
    }
}

/// A job's result and any recovery, as one Sendable value from the worker.
private struct JobOutput<Output: Sendable>: Sendable {
    let result: Result<Output, FollowStoreError>
    let recovery: FollowStoreRecovery?
    init(_ pair: (Result<Output, FollowStoreError>, FollowStoreRecovery?)) {
        result = pair.0
        recovery = pair.1
    }
}
