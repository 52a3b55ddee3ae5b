import CGLib
import GObjectBindings
import SQLiteBindings
#if canImport(Glibc)
import Glibc
#endif

/// The store's one connection and everything done with it, on a worker thread.
///
/// `@unchecked Sendable`: `FollowStore` hands it to one worker job at a time, each started on the main loop
/// after the previous one's result came back there (GTask's hand-off orders their memory), so no two threads
/// ever touch it at once.
final class FollowDatabase: @unchecked Sendable {
    static let fileName = "follows.sqlite3"
    /// "GVFW" at header offset 68: the file is Gallery Viewer's follow store, not some other database.
    static let applicationID: Int64 = 0x4756_4657
    /// How long a statement waits for another process's write (`--follow` beside the window) before failing.
    static let busyTimeoutMilliseconds = 5_000

    let directory: String
    var path: String { directory + "/" + Self.fileName }
    private var connection: SQLiteConnection?
    /// A damaged file moved aside by the last `perform`, for the store to report.
    private var recovery: FollowStoreRecovery?

    init(directory: String) { self.directory = directory }

    /// Runs `body` on the open connection (opening it first). A damaged database (found at open, or by a
    /// statement) is closed, moved aside and replaced with an empty one, and `body` runs again on that.
    func perform<Output>(_ body: (SQLiteConnection) throws(FollowStoreError) -> Output)
        -> (Result<Output, FollowStoreError>, FollowStoreRecovery?) {
        defer { recovery = nil }
        for attempt in 0..<2 {
            do throws(FollowStoreError) {
                let open = try openConnection()
                return (.success(try body(open)), recovery)
            } catch {
                guard attempt == 0, case .failed = error, let damage = lastCorruption else { return (.failure(error), recovery) }
                lastCorruption = nil
                moveAside(reason: damage)
            }
        }
        return (.failure(.failed(detail: "unreachable")), recovery)
    }

    /// Closes the connection (it is opened again by the next `perform`): the last connection's close
    /// checkpoints the WAL into the database file.
    func close() { connection = nil }

    // MARK: Opening

    /// SQLite's message for the corruption a statement just met, so `perform` knows to move the file aside.
    private var lastCorruption: String?

    /// Runs a statement, remembering a corruption error before it becomes a `FollowStoreError`.
    func attempt<Output>(_ work: () throws -> Output) throws(FollowStoreError) -> Output {
        do {
            return try work()
        } catch let error as SQLiteError {
            if error.isCorruption { lastCorruption = error.message }
            throw .from(error)
        } catch let error as FollowStoreError {
            throw error
        } catch {
            throw .failed(detail: "\(error)")
        }
    }

    private func openConnection() throws(FollowStoreError) -> SQLiteConnection {
        if let connection { return connection }
        guard FileSystem.makePrivateDirectory(directory) else {
            throw .unusable(path: directory, detail: tr("the folder could not be made private to you"))
        }
        narrowPermissions()
        let opened: SQLiteConnection
        do throws(SQLiteError) {
            opened = try SQLiteConnection(path: path)
        } catch {
            throw .unusable(path: path, detail: error.description)
        }
        try attempt { try opened.execute("PRAGMA busy_timeout = \(Self.busyTimeoutMilliseconds)") }
        // Read before anything is written: a file that is not a database fails here (SQLITE_NOTADB).
        let owner = try attempt { try opened.integer("PRAGMA application_id") ?? 0 }
        let version = try attempt { try opened.integer("PRAGMA user_version") ?? 0 }
        if owner != 0 && owner != Self.applicationID { throw .notOurs(path: path) }
        if version > Int64(FollowSchema.migrations.count) {
            throw .newerSchema(path: path, found: Int(version), known: FollowSchema.migrations.count)
        }
        // O(size) but skips index checks: at open only, on this worker (FollowStore's note on threading).
        let check = try attempt { try opened.rows("PRAGMA quick_check(1)") { $0.text(0) ?? "" } }
        if check != ["ok"] {
            lastCorruption = check.first ?? "quick_check failed"
            throw .failed(detail: lastCorruption ?? "")
        }
        try attempt {
            // WAL survives kill -9 with any synchronous setting; FULL also syncs the WAL at each commit, so an
            // acknowledged write survives a power loss too (research-28 §4).
            try opened.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON")
        }
        try attempt { try FollowSchema.migrate(opened, from: Int(version)) }
        connection = opened
        return opened
    }

    /// The file (and its -wal, -shm, which SQLite makes with the file's own mode) readable by its owner only,
    /// made so before SQLite creates it with 0644.
    private func narrowPermissions() {
        let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        if fd >= 0 { Glibc.close(fd) }
        for name in [path, path + "-wal", path + "-shm"] { _ = chmod(name, 0o600) }
    }

    /// Renames the database and its -wal and -shm to `NAME.damaged-TIME` (each keeping its suffix, so SQLite
    /// could still open the copy), with no connection open: renaming an open database is undefined.
    private func moveAside(reason: String) {
        connection = nil
        let now = g_date_time_new_now_utc()
        defer { g_date_time_unref(now) }
        let stamp = takeString(g_date_time_format(now, "%Y%m%d-%H%M%S")) ?? "unknown"
        var target = path + ".damaged-" + stamp
        var suffix = 2
        while access(target, F_OK) == 0 {
            target = path + ".damaged-" + stamp + "-\(suffix)"
            suffix += 1
        }
        for extra in ["-wal", "-shm"] where access(path + extra, F_OK) == 0 {
            FileSystem.rename(path + extra, to: target + extra)
        }
        FileSystem.rename(path, to: target)
        recovery = FollowStoreRecovery(movedTo: target, reason: DisplayText.clean(reason, limit: 200))
    }
}
