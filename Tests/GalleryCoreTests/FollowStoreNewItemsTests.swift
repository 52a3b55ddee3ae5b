import SQLiteBindings
import TestSupport
import XCTest
@testable import GalleryCore

/// Schema 2 of the follow store: what a check found new, kept per gallery, read back newest first, made seen
/// by marks; and a version-1 file migrated with its follows and marks kept.
final class FollowStoreNewItemsTests: GLibTestCase {
    func testAVersionOneFileMigratesAndKeepsItsFollowsAndMarks() throws {
        try MainActor.assumeIsolated {
            let folder = TemporaryFolder()
            // Made as the first release made it: migration 1 only.
            do {
                let old = try SQLiteConnection(path: folder.path + "/follows.sqlite3")
                try FollowSchema.migrate(old, fromVersion: 0, toVersion: 1)
                _ = try old.run("INSERT INTO followed_gallery (source, username, identity, display_name, followed_at, "
                                + "last_item_id) VALUES ('demo', 'aurora', 'aurora', 'Aurora', 1000, 'a1')")
                _ = try old.run("INSERT INTO seen_item (gallery_id, item_id, seen_at) VALUES (1, 'seen', 2000)")
                XCTAssertEqual(try old.integer("PRAGMA user_version"), 1)
            }
            let store = FollowStore(directory: folder.path)
            let following = try answer { store.following(completion: $0) }.get()
            XCTAssertEqual(following, [FollowedGallery(key: aurora, displayName: "Aurora", followedAt: 1000, lastItemID: "a1")])
            XCTAssertEqual(try answer { store.seenItemIDs(in: aurora, completion: $0) }.get(), ["seen"])
            XCTAssertEqual(try answer { store.newItemCount(completion: $0) }.get(), 0)
            answer { done in store.close { done(()) } }
            let connection = try SQLiteConnection(path: store.path, create: false)
            XCTAssertEqual(try connection.integer("PRAGMA user_version"), Int64(FollowSchema.version))
            XCTAssertEqual(store.recoveries, [])
        }
    }

    func testKnownItemsAreTheFirstStoppingPoint() throws {
        try MainActor.assumeIsolated {
            let store = FollowStore(directory: TemporaryFolder().path)
            let shown = [item("b", published: 200), item("a", published: 100)]
            _ = try answer { store.follow(aurora, displayName: "", knownItems: shown, at: 5_000, completion: $0) }.get()
            let gallery = try XCTUnwrap(try answer { store.following(completion: $0) }.get().first)
            XCTAssertEqual(gallery.lastItemID, "b")
            XCTAssertEqual(gallery.lastItemTime, 200_000)
        }
    }

    func testNewItemsAreKeptNewestFirstAndCounted() throws {
        try MainActor.assumeIsolated {
            let store = FollowStore(directory: TemporaryFolder().path)
            let atlas = FollowedGallery.Key(source: .demo, username: "atlas")
            _ = try answer { store.follow(aurora, displayName: "Aurora", completion: $0) }.get()
            _ = try answer { store.follow(atlas, displayName: "Atlas", completion: $0) }.get()
            let found = try answer { store.record(checkRecord(aurora, at: 10_000, [item("a2", published: 300), item("a1", published: 100)]),
                                                  completion: $0) }.get()
            XCTAssertEqual(found?.map(\.item.id), ["a2", "a1"])
            // Undated: ordered by when it was found (50 s, between a1's 100 s and a2's 300 s).
            _ = try answer { store.record(checkRecord(atlas, at: 50_000, [item("t1", published: nil)]), completion: $0) }.get()
            let items = try answer { store.newItems(completion: $0) }.get()
            XCTAssertEqual(items.map(\.item.id), ["a2", "a1", "t1"])
            XCTAssertEqual(items.map(\.galleryName), ["Aurora", "Aurora", "Atlas"])
            XCTAssertEqual(items.first?.item, item("a2", published: 300), "the item comes back as it was")
            XCTAssertEqual(items.first?.foundAt, 10_000)
            XCTAssertEqual(try answer { store.following(completion: $0) }.get().map(\.newCount), [2, 1])
            XCTAssertEqual(try answer { store.newItemCount(completion: $0) }.get(), 3)

            // Found again by a later check: not new a second time.
            let again = try answer { store.record(checkRecord(aurora, at: 20_000, [item("a3", published: 400), item("a2", published: 300)]),
                                                  completion: $0) }.get()
            XCTAssertEqual(again?.map(\.item.id), ["a3"])
        }
    }

    func testSeenItemsAreNeverNewAndMarkingMakesThemSeen() throws {
        try MainActor.assumeIsolated {
            let store = FollowStore(directory: TemporaryFolder().path)
            _ = try answer { store.follow(aurora, displayName: "", completion: $0) }.get()
            _ = try answer { store.markSeen(["s"], in: aurora, completion: $0) }.get()
            let found = try answer { store.record(checkRecord(aurora, at: 1, [item("s", published: 9), item("n", published: 8), item("m", published: 7)]),
                                                  completion: $0) }.get()
            XCTAssertEqual(found?.map(\.item.id), ["n", "m"], "a seen item is not new")
            XCTAssertEqual(try answer { store.markSeen(["n"], in: aurora, completion: $0) }.get(), 1)
            XCTAssertEqual(try answer { store.newItems(completion: $0) }.get().map(\.item.id), ["m"], "opened: new no more")
            XCTAssertEqual(try answer { store.markAllSeen(completion: $0) }.get(), 1)
            XCTAssertEqual(try answer { store.newItemCount(completion: $0) }.get(), 0)
            XCTAssertEqual(try answer { store.seenItemIDs(in: aurora, completion: $0) }.get(), ["s", "n", "m"])
            let later = try answer { store.record(checkRecord(aurora, at: 2, [item("m", published: 7)]), completion: $0) }.get()
            XCTAssertEqual(later?.count, 0, "marked seen all at once: not new again")
        }
    }

    func testAFloodingGalleryKeepsItsNewestItemsOnly() throws {
        try MainActor.assumeIsolated {
            let store = FollowStore(directory: TemporaryFolder().path)
            _ = try answer { store.follow(aurora, displayName: "", completion: $0) }.get()
            let limit = FollowLimits.maxNewItemsPerGallery
            let first = (0..<limit).map { item("old\($0)", published: 1_000 + $0) }
            _ = try answer { store.record(checkRecord(aurora, at: 1, first), completion: $0) }.get()
            let newer = (0..<10).map { item("new\($0)", published: 900_000 + $0) }
            let kept = try answer { store.record(checkRecord(aurora, at: 2, newer), completion: $0) }.get()
            XCTAssertEqual(kept?.count, 10)
            let items = try answer { store.newItems(completion: $0) }.get()
            XCTAssertEqual(items.count, limit)
            XCTAssertEqual(items.first?.item.id, "new9")
            XCTAssertFalse(items.contains { $0.item.id == "old0" }, "the oldest went")
            // A check that alone finds more than the cap keeps the cap's worth.
            let flood = (0..<(limit + 200)).map { item("flood\($0)", published: 2_000_000 - $0) }
            _ = try answer { store.record(checkRecord(aurora, at: 3, flood), completion: $0) }.get()
            XCTAssertEqual(try answer { store.newItemCount(completion: $0) }.get(), limit)
        }
    }

    func testAFailedCheckRecordsItsProblemOnly() throws {
        try MainActor.assumeIsolated {
            let store = FollowStore(directory: TemporaryFolder().path)
            _ = try answer { store.follow(aurora, displayName: "", completion: $0) }.get()
            let validators = HTTPValidators(url: "https://example.com/feed", etag: "W/\"1\"", lastModified: nil)
            _ = try answer { store.record(FollowCheckRecord(key: aurora, time: 1, problem: nil, newestItem: FollowItemMark(id: "x", time: 5),
                                                            validators: validators, keepsValidators: false, displayName: "Aurora B.",
                                                            avatarURL: "https://example.com/a.png", newItems: []), completion: $0) }.get()
            _ = try answer { store.record(FollowCheckRecord(key: aurora, time: 2, problem: "No such user: aurora", newestItem: nil,
                                                            validators: nil, keepsValidators: false, displayName: nil, avatarURL: nil,
                                                            newItems: [item("n", published: 9)]), completion: $0) }.get()
            let gallery = try XCTUnwrap(try answer { store.following(completion: $0) }.get().first)
            XCTAssertEqual(gallery.lastProblem, "No such user: aurora")
            XCTAssertEqual(gallery.lastCheckedAt, 2)
            XCTAssertEqual(gallery.lastItemID, "x", "the failed check's findings are ignored")
            XCTAssertEqual(gallery.validators, validators)
            XCTAssertEqual(gallery.displayName, "Aurora B.")
            XCTAssertEqual(gallery.avatarURL, "https://example.com/a.png")
            XCTAssertEqual(gallery.newCount, 0)
        }
    }

}

/// A good check of `key` at `time` that found `items` (newest first) as candidates.
private func checkRecord(_ key: FollowedGallery.Key, at time: Int64, _ items: [GalleryItem]) -> FollowCheckRecord {
    FollowCheckRecord(key: key, time: time, problem: nil, newestItem: items.first.map { FollowItemMark(id: $0.id, time: nil) },
                      validators: nil, keepsValidators: false, displayName: nil, avatarURL: nil, newItems: items)
}

private let aurora = FollowedGallery.Key(source: .demo, username: "aurora")

private func item(_ id: String, published: Int?) -> GalleryItem {
    GalleryItem(id: id, title: "Title \(id)", thumbnails: [.init(url: "https://example.com/\(id)-150.jpg", width: 150, height: 100)],
                fullImageURL: "https://example.com/\(id).jpg", pageURL: "https://example.com/art/\(id)", author: "aurora",
                published: published)
}
