import SQLiteBindings
import TestSupport
import XCTest
@testable import GalleryCore

/// Schema 3 of the follow store: what the last lookup of a followed account resolved, kept until a lookup runs
/// again, and a version-2 file migrated with its follows, validators, new items and marks kept.
final class FollowStoreResolutionTests: GLibTestCase {
    func testAVersionTwoFileMigratesAndKeepsWhatItHad() throws {
        try MainActor.assumeIsolated {
            let folder = TemporaryFolder()
            // Made as the release with schema 2 made it: migrations 1 and 2 only.
            do {
                let old = try SQLiteConnection(path: folder.path + "/follows.sqlite3")
                try FollowSchema.migrate(old, fromVersion: 0, toVersion: 2)
                _ = try old.run("INSERT INTO followed_gallery (source, username, identity, display_name, followed_at, last_item_id, "
                                + "etag, validated_url, avatar_url) VALUES ('mastodon', 'aurora@demo.test', 'aurora@demo.test', "
                                + "'Aurora', 1000, 'a1', '\"e1\"', 'https://demo.test/feed', 'https://demo.test/a.png')")
                _ = try old.run("INSERT INTO seen_item (gallery_id, item_id, seen_at) VALUES (1, 'seen', 2000)")
                _ = try old.run("INSERT INTO new_item (gallery_id, item_id, found_at, published, sort_time, item) VALUES "
                                + "(1, 'n1', 3000, NULL, 3000, ?)", [.blob(FollowItemCoding.encode(GalleryItem(id: "n1", title: "N",
                                                                                                                  fullImageURL: nil)))])
                XCTAssertEqual(try old.integer("PRAGMA user_version"), 2)
            }
            let store = FollowStore(directory: folder.path)
            let following = try answer { store.following(completion: $0) }.get()
            XCTAssertEqual(following, [FollowedGallery(
                key: mastodonAurora, displayName: "Aurora", followedAt: 1000, lastItemID: "a1", newCount: 1,
                avatarURL: "https://demo.test/a.png",
                validators: HTTPValidators(url: "https://demo.test/feed", etag: "\"e1\"", lastModified: nil))],
                           "no resolution yet: the next check looks the account up")
            XCTAssertEqual(try answer { store.seenItemIDs(in: mastodonAurora, completion: $0) }.get(), ["seen"])
            XCTAssertEqual(try answer { store.newItems(completion: $0) }.get().map(\.item.id), ["n1"])
            answer { done in store.close { done(()) } }
            let connection = try SQLiteConnection(path: store.path, create: false)
            XCTAssertEqual(try connection.integer("PRAGMA user_version"), 3)
            XCTAssertEqual(store.recoveries, [])
        }
    }

    func testAResolutionIsKeptUntilALookupGivesAnother() throws {
        try MainActor.assumeIsolated {
            let store = FollowStore(directory: TemporaryFolder().path)
            _ = try answer { store.follow(mastodonAurora, displayName: "", completion: $0) }.get()
            let first = SourceResolution(accountID: "109")
            _ = try answer { store.record(check(at: 1, resolution: first, profile: "Aurora"), completion: $0) }.get()
            XCTAssertEqual(try Self.stored(store).resolution, first)
            // A check without a lookup (started from the resolution) keeps it, and the profile the lookup gave.
            _ = try answer { store.record(check(at: 2, resolution: nil, profile: nil), completion: $0) }.get()
            XCTAssertEqual(try Self.stored(store).resolution, first)
            XCTAssertEqual(try Self.stored(store).displayName, "Aurora")
            let moved = SourceResolution(accountID: "did:plc:ewvi7nxzyoun6zhxrhs64oiz", context: "https://pds.example")
            _ = try answer { store.record(check(at: 3, resolution: moved, profile: nil), completion: $0) }.get()
            XCTAssertEqual(try Self.stored(store).resolution, moved)
            // A resolution too long to keep is not kept: the one before stays.
            let huge = SourceResolution(accountID: String(repeating: "x", count: FollowLimits.maxResolutionBytes + 1))
            _ = try answer { store.record(check(at: 4, resolution: huge, profile: nil), completion: $0) }.get()
            XCTAssertEqual(try Self.stored(store).resolution, moved)
        }
    }

    func testAResolutionKeepsItsServerAndTimeAndIsUsedOnlyThereAndWhileYoung() throws {
        try MainActor.assumeIsolated {
            let store = FollowStore(directory: TemporaryFolder().path)
            _ = try answer { store.follow(mastodonAurora, displayName: "", completion: $0) }.get()
            var record = check(at: 5_000, resolution: SourceResolution(accountID: "109"), profile: nil)
            record.resolvedOrigin = "https://mirror.example:8443"
            _ = try answer { store.record(record, completion: $0) }.get()
            let gallery = try Self.stored(store)
            XCTAssertEqual([gallery.resolvedOrigin, gallery.resolvedAt.map(String.init)], ["https://mirror.example:8443", "5000"])
            // A check without a lookup keeps when and where the lookup was.
            _ = try answer { store.record(check(at: 9_000, resolution: nil, profile: nil), completion: $0) }.get()
            XCTAssertEqual(try Self.stored(store).resolvedAt, 5_000)

            let day: Int64 = 86_400_000
            let use = { (origin: String, now: Int64) in gallery.usableResolution(origin: origin, at: now, maxAge: 7 * day) }
            XCTAssertEqual(use("https://mirror.example:8443", 5_000 + 7 * day - 1), SourceResolution(accountID: "109"))
            XCTAssertNil(use("https://mirror.example:8443", 5_000 + 7 * day), "a week old: looked up again")
            XCTAssertNil(use("https://mirror.example:8443", 4_000), "made after now: the clock went back")
            XCTAssertNil(use("https://mastodon.example", 6_000), "another server's id")
            var unknown = gallery
            unknown.resolvedOrigin = nil
            XCTAssertNil(unknown.usableResolution(origin: "https://mirror.example:8443", at: 6_000, maxAge: 7 * day))

            // An origin edited into something else is not read back as one.
            let connection = try SQLiteConnection(path: store.path, create: false)
            try connection.execute("PRAGMA busy_timeout = 5000")
            _ = try connection.run("UPDATE followed_gallery SET resolved_origin = 'https://mirror.example:8443/api'")
            XCTAssertNil(try Self.stored(store).resolvedOrigin)
        }
    }

    @MainActor
    private static func stored(_ store: FollowStore) throws -> FollowedGallery {
        try XCTUnwrap(try answer { store.following(completion: $0) }.get().first)
    }
}

private let mastodonAurora = FollowedGallery.Key(source: .mastodon, username: "aurora@demo.test")

private func check(at time: Int64, resolution: SourceResolution?, profile: String?) -> FollowCheckRecord {
    FollowCheckRecord(key: mastodonAurora, time: time, problem: nil, newestItem: nil, validators: nil, keepsValidators: true,
                      displayName: profile, avatarURL: nil, newItems: [], resolution: resolution)
}
