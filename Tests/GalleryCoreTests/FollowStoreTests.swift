import CGLib
import GObjectBindings
import SQLiteBindings
import TestSupport
import XCTest
@testable import GalleryCore
#if canImport(Glibc)
import Glibc
#endif

/// The follow store on real files: schema and migrations, what it keeps, permissions, damaged files moved
/// aside, and its jobs running on a worker while the main loop turns.
final class FollowStoreTests: GLibTestCase {
    func testFollowUnfollowAndListRoundTrip() throws {
        try MainActor.assumeIsolated {
            let folder = TemporaryFolder()
            let store = FollowStore(directory: folder.path + "/gallery-viewer")
            XCTAssertEqual(try answer { store.follow(aurora, displayName: "Aurora B.", at: 1_000, completion: $0) }.get(), true)
            // The service's own rule: DeviantArt's (and the demo's) names ignore case.
            XCTAssertEqual(try answer { store.follow(.init(source: .demo, username: "AURORA"), displayName: "", completion: $0) }.get(), false)
            XCTAssertEqual(try answer { store.follow(.init(source: .mastodon, username: "aurora@demo.test"), displayName: "",
                                                   at: 2_000, completion: $0) }.get(), true)
            XCTAssertEqual(try answer { store.following(completion: $0) }.get(),
                           [FollowedGallery(key: aurora, displayName: "Aurora B.", followedAt: 1_000),
                            FollowedGallery(key: .init(source: .mastodon, username: "aurora@demo.test"),
                                            displayName: "aurora@demo.test", followedAt: 2_000)])
            XCTAssertEqual(try answer { store.unfollow(.init(source: .demo, username: "Aurora"), completion: $0) }.get(), true)
            XCTAssertEqual(try answer { store.unfollow(aurora, completion: $0) }.get(), false)

            // Another store on the same file (a later launch) reads what this one wrote.
            answer { done in store.close { done(()) } }
            let again = FollowStore(directory: folder.path + "/gallery-viewer")
            XCTAssertEqual(try answer { again.following(completion: $0) }.get().map(\.key.username), ["aurora@demo.test"])
            XCTAssertEqual(again.recoveries, [])
        }
    }

    func testSeenMarksBelongToAFollowedGallery() throws {
        try MainActor.assumeIsolated {
            let folder = TemporaryFolder()
            let store = FollowStore(directory: folder.path)
            XCTAssertEqual(answer { store.markSeen(["a"], in: aurora, completion: $0) }, .failure(.notFollowed(aurora)))
            _ = try answer { store.follow(aurora, displayName: "", completion: $0) }.get()
            XCTAssertEqual(try answer { store.markSeen(["a", "b"], in: aurora, completion: $0) }.get(), 2)
            XCTAssertEqual(try answer { store.markSeen(["b", "c"], in: aurora, completion: $0) }.get(), 1)
            XCTAssertEqual(try answer { store.seenItemIDs(in: aurora, completion: $0) }.get(), ["a", "b", "c"])
            let tooLong = String(repeating: "x", count: FollowLimits.maxItemIDBytes + 1)
            guard case .failure(.invalid) = answer({ store.markSeen([tooLong], in: aurora, completion: $0) }) else {
                return XCTFail("an item identity over the limit was kept")
            }
            // Unfollowing forgets the marks: following again starts from nothing seen.
            _ = try answer { store.unfollow(aurora, completion: $0) }.get()
            _ = try answer { store.follow(aurora, displayName: "", completion: $0) }.get()
            XCTAssertEqual(try answer { store.seenItemIDs(in: aurora, completion: $0) }.get(), [])
        }
    }

    func testACheckIsRecordedAndItsProblemCleaned() throws {
        try MainActor.assumeIsolated {
            let store = FollowStore(directory: TemporaryFolder().path)
            XCTAssertEqual(try answer { store.recordCheck(of: aurora, newestItem: nil, problem: nil, completion: $0) }.get(), false)
            _ = try answer { store.follow(aurora, displayName: "", completion: $0) }.get()
            XCTAssertEqual(try answer { store.recordCheck(of: aurora, at: 5_000, newestItem: ("item-9", 4_000),
                                                        problem: nil, completion: $0) }.get(), true)
            XCTAssertEqual(try answer { store.recordCheck(of: aurora, at: 6_000, newestItem: nil,
                                                        problem: "No such user\u{202E}\n", completion: $0) }.get(), true)
            let gallery = try XCTUnwrap(answer { store.following(completion: $0) }.get().first)
            XCTAssertEqual(gallery.lastItemID, "item-9")
            XCTAssertEqual(gallery.lastItemTime, 4_000)
            XCTAssertEqual(gallery.lastCheckedAt, 6_000)
            XCTAssertEqual(gallery.lastProblem, "No such user")
        }
    }

    func testTheFolderAndTheFilesAreTheUsersOnly() throws {
        try MainActor.assumeIsolated {
            let folder = TemporaryFolder()
            let store = FollowStore(directory: folder.path + "/data/gallery-viewer")
            _ = try answer { store.follow(aurora, displayName: "", completion: $0) }.get()
            XCTAssertEqual(mode(of: folder.path + "/data/gallery-viewer"), 0o700)
            XCTAssertEqual(mode(of: store.path), 0o600)
            // The WAL holds the commits until a checkpoint: it is as private as the file.
            XCTAssertEqual(mode(of: store.path + "-wal"), 0o600)
            XCTAssertEqual(mode(of: store.path + "-shm"), 0o600)
        }
    }

    func testANewFileGetsTheSchemaTheMarkAndWAL() throws {
        try MainActor.assumeIsolated {
            let folder = TemporaryFolder()
            // An empty file (version 0) is migrated like a missing one.
            folder.write([], to: "follows.sqlite3")
            let store = FollowStore(directory: folder.path)
            _ = try answer { store.follow(aurora, displayName: "", completion: $0) }.get()
            answer { done in store.close { done(()) } }
            let connection = try SQLiteConnection(path: store.path, create: false)
            XCTAssertEqual(try connection.integer("PRAGMA user_version"), Int64(FollowSchema.version))
            XCTAssertEqual(try connection.integer("PRAGMA application_id"), 0x4756_4657)
            XCTAssertEqual(try connection.rows("PRAGMA journal_mode") { $0.text(0) }, ["wal"])
            XCTAssertEqual(try connection.integer("SELECT count(*) FROM followed_gallery"), 1)
        }
    }

    func testANewerSchemaIsRefusedAndLeftAsItIs() throws {
        try MainActor.assumeIsolated {
            let folder = TemporaryFolder()
            let path = folder.path + "/follows.sqlite3"
            try SQLiteConnection(path: path).execute("CREATE TABLE future (x); PRAGMA user_version = 99")
            let store = FollowStore(directory: folder.path)
            XCTAssertEqual(answer { store.follow(aurora, displayName: "", completion: $0) },
                           .failure(.newerSchema(path: path, found: 99, known: FollowSchema.version)))
            XCTAssertEqual(store.recoveries, [])
            XCTAssertEqual(try SQLiteConnection(path: path, create: false).integer("PRAGMA user_version"), 99)
            XCTAssertTrue(FollowStoreError.newerSchema(path: path, found: 99, known: 1).sentence.contains("newer version"))
        }
    }

    func testAnotherProgramsDatabaseIsLeftAlone() throws {
        try MainActor.assumeIsolated {
            let folder = TemporaryFolder()
            try SQLiteConnection(path: folder.path + "/follows.sqlite3").execute("PRAGMA application_id = 1234")
            let store = FollowStore(directory: folder.path)
            XCTAssertEqual(answer { store.following(completion: $0) }, .failure(.notOurs(path: store.path)))
        }
    }

    func testAFileThatIsNoDatabaseIsMovedAsideAndStartedAgain() throws {
        try MainActor.assumeIsolated {
            let folder = TemporaryFolder()
            let garbage = Array(repeating: Array("not a database at all\n".utf8), count: 200).flatMap { $0 }
            folder.write(garbage, to: "follows.sqlite3")
            let store = FollowStore(directory: folder.path)
            var told: [FollowStoreRecovery] = []
            store.onRecovery = { told.append($0) }
            XCTAssertEqual(try answer { store.follow(aurora, displayName: "", completion: $0) }.get(), true)
            let recovery = try XCTUnwrap(store.recoveries.first)
            XCTAssertEqual(told, store.recoveries)
            XCTAssertTrue(recovery.movedTo.hasPrefix(store.path + ".damaged-"), recovery.movedTo)
            XCTAssertEqual(folder.contents(FileSystem.baseName(of: recovery.movedTo)), garbage)
            XCTAssertTrue(recovery.sentence.contains(recovery.movedTo))
            XCTAssertEqual(try answer { store.following(completion: $0) }.get().map(\.key), [aurora])
        }
    }

    func testADatabaseCutMidPageIsMovedAside() throws {
        try MainActor.assumeIsolated {
            let folder = TemporaryFolder()
            let store = FollowStore(directory: folder.path)
            for number in 0..<300 {
                store.follow(.init(source: .demo, username: "user-\(number)-" + String(repeating: "n", count: 100)),
                             displayName: "", completion: { _ in })
            }
            answer { done in store.close { done(()) } }
            // Closed, the WAL is checkpointed into the file: cut it mid-page (pages are 4096 bytes).
            var info = stat()
            XCTAssertEqual(stat(store.path, &info), 0)
            XCTAssertGreaterThan(info.st_size, 8 * 4096)
            XCTAssertEqual(truncate(store.path, info.st_size / 2 + 1000), 0)
            let again = FollowStore(directory: folder.path)
            XCTAssertEqual(try answer { again.following(completion: $0) }.get(), [])
            XCTAssertEqual(again.recoveries.count, 1, "the cut file was not noticed")
        }
    }

    /// The mechanism, not a timing: another connection holds the write lock, so the store's write waits on its
    /// worker inside SQLite's busy handler while the main loop goes on turning; it is acknowledged only once
    /// the lock is let go and its COMMIT returned.
    func testTheMainLoopTurnsWhileAWriteWaitsForTheDisk() throws {
        try MainActor.assumeIsolated {
            let folder = TemporaryFolder()
            let store = FollowStore(directory: folder.path)
            _ = try answer { store.follow(aurora, displayName: "", completion: $0) }.get()
            let other = try SQLiteConnection(path: store.path, create: false)
            try other.execute("BEGIN IMMEDIATE")
            var acknowledged: Result<Bool, FollowStoreError>?
            store.follow(.init(source: .demo, username: "atlas"), displayName: "") { acknowledged = $0 }
            var ticks = 0
            let probe = MainLoopSource.every(milliseconds: 5) {
                ticks += 1
                return true
            }
            defer { probe.cancel() }
            XCTAssertTrue(iterateMainLoop(until: { ticks >= 10 }), "the main loop stopped turning")
            XCTAssertNil(acknowledged, "acknowledged while another connection held the write lock")
            try other.execute("COMMIT")
            XCTAssertTrue(iterateMainLoop(until: { acknowledged != nil }))
            XCTAssertEqual(try acknowledged?.get(), true)
        }
    }

    /// Jobs run one at a time in the order asked. Also prints what a write costs here (synchronous=FULL: a
    /// WAL fsync per commit), the number FollowStore's note on threading rests on.
    func testWritesAreQuickEnoughToQueue() throws {
        try MainActor.assumeIsolated {
            let store = FollowStore(directory: TemporaryFolder().path)
            _ = try answer { store.following(completion: $0) }.get()
            var order: [Int] = []
            var longestGap = 0
            var last = g_get_monotonic_time()
            let probe = MainLoopSource.every(milliseconds: 1) {
                let now = g_get_monotonic_time()
                longestGap = max(longestGap, now - last)
                last = now
                return true
            }
            defer { probe.cancel() }
            let start = g_get_monotonic_time()
            for number in 0..<100 {
                store.follow(.init(source: .demo, username: "user-\(number)"), displayName: "") { result in
                    if case .success(true) = result { order.append(number) }
                }
            }
            XCTAssertTrue(iterateMainLoop(until: { !store.isBusy }, timeout: 60))
            let perWrite = Double(g_get_monotonic_time() - start) / 100 / 1000
            XCTAssertEqual(order, Array(0..<100))
            let marks = (0..<1000).map { "item-\($0)" }
            let batchStart = g_get_monotonic_time()
            XCTAssertEqual(try answer { store.markSeen(marks, in: .init(source: .demo, username: "user-0"), completion: $0) }.get(), 1000)
            let batch = Double(g_get_monotonic_time() - batchStart) / 1000
            print("FollowStore: \(String(format: "%.2f", perWrite)) ms per follow (100 queued), 1,000 seen-marks in "
                  + "\(String(format: "%.1f", batch)) ms, longest main-loop gap \(longestGap / 1000) ms")
        }
    }

}

private let aurora = FollowedGallery.Key(source: .demo, username: "aurora")

private func mode(of path: String) -> mode_t {
    var info = stat()
    XCTAssertEqual(stat(path, &info), 0, path)
    return info.st_mode & 0o777
}

/// Runs the main loop until `start`'s completion is called; its value.
@MainActor
func answer<Value>(_ start: (@escaping @MainActor (Value) -> Void) -> Void) -> Value {
    var value: Value?
    start { value = $0 }
    XCTAssertTrue(iterateMainLoop(until: { value != nil }, timeout: 30), "the store never answered")
    return value!
}
