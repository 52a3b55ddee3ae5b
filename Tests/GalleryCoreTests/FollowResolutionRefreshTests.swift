import GObjectBindings
import GalleryDemoServer
import SQLiteBindings
import TestSupport
import XCTest
@testable import GalleryCore

/// A check starts from a remembered lookup only while it can be trusted: made by the server the check asks,
/// less than `maxResolutionAge` ago, and (Bluesky) complete with the account's PDS. Otherwise the account is
/// looked up again, and what that lookup gives (the resolution, the name and avatar) is kept.
final class FollowResolutionRefreshTests: GLibTestCase {
    private static let limits = FollowChecker.Limits(feed: fastFeedLimits)
    private static let day: Int64 = 24 * 60 * 60 * 1000
    private static let lookupMarkers = ["/accounts/lookup", "actor.getProfile", "/did:plc:", "/api/users/show"]
    private static let keys: [FollowedGallery.Key] = [.mastodon, .bluesky, .misskey].map {
        .init(source: $0, username: $0.descriptor.demoUsername("aurora"))
    }

    func testAnOldResolutionIsMadeAgainWithTheProfile() throws {
        try MainActor.assumeIsolated {
            let server = try startDemoServer()
            let folder = TemporaryFolder()
            let store = try Self.follow(Self.keys, in: folder)
            let client = HTTPClient()
            var requests: [String] = []
            client.onRequestStarted = { requests.append($0) }
            let checker = FollowChecker(store: store, client: client, limits: Self.limits, endpointOverride: { _ in server.baseURL })
            _ = answer { checker.check(completion: $0) }
            let first = try answer { store.following(completion: $0) }.get()
            XCTAssertEqual(first.compactMap(\.resolvedOrigin), Self.keys.map { _ in server.baseURL })

            // Six days on, the lookup still stands: one request each.
            try Self.update(store, "resolved_at = resolved_at - ?, last_checked_at = last_checked_at - ?",
                            [.integer(6 * Self.day), .integer(6 * Self.day)])
            requests = []
            _ = answer { checker.check(completion: $0) }
            XCTAssertEqual(requests.count, Self.keys.count, "\(requests)")

            // Eight days on it is made again, and the name and picture come from it, not from a week ago.
            try Self.update(store, "display_name = 'Old', avatar_url = 'https://old.example/a.png', "
                            + "resolved_at = resolved_at - ?, last_checked_at = last_checked_at - ?",
                            [.integer(2 * Self.day), .integer(2 * Self.day)])
            requests = []
            let before = FollowStore.now()
            let report = answer { checker.check(completion: $0) }
            XCTAssertEqual(report.failures.map(\.sentence), [])
            XCTAssertEqual(requests.filter { url in Self.lookupMarkers.contains { url.contains($0) } }.count, 4,
                           "one lookup each (Bluesky's profile and DID document): \(requests)")
            for gallery in try answer({ store.following(completion: $0) }).get() {
                XCTAssertEqual(gallery.displayName, "Aurora", "\(gallery.key)")
                XCTAssertEqual(gallery.avatarURL?.hasPrefix(server.baseURL + "/avatars/"), true, "\(gallery.key)")
                XCTAssertGreaterThanOrEqual(gallery.resolvedAt ?? 0, before, "\(gallery.key): made now")
                XCTAssertNotNil(gallery.resolution)
            }
        }
    }

    func testAResolutionFromAnotherServerIsNotSentThere() throws {
        try MainActor.assumeIsolated {
            let first = try startDemoServer()
            let mirror = try startDemoServer()
            let folder = TemporaryFolder()
            let store = try Self.follow(Self.keys, in: folder)
            let client = HTTPClient()
            var requests: [String] = []
            client.onRequestStarted = { requests.append($0) }
            let checker = FollowChecker(store: store, client: client, limits: Self.limits, endpointOverride: { _ in first.baseURL })
            _ = answer { checker.check(completion: $0) }
            // On the mirror the first server's id is another account's: Mastodon would answer its posts.
            try Self.update(store, "resolved_account = ?, last_checked_at = last_checked_at - ? WHERE source = 'mastodon'",
                            [.text(DemoMastodon.accountID(of: "atlas")), .integer(Self.day)])
            try Self.update(store, "last_checked_at = last_checked_at - ?", [.integer(Self.day)])

            requests = []
            let mirrorChecker = FollowChecker(store: store, client: client, limits: Self.limits,
                                              endpointOverride: { _ in mirror.baseURL })
            let report = answer { mirrorChecker.check(completion: $0) }
            XCTAssertEqual(report.failures.map(\.sentence), [])
            XCTAssertEqual(report.newItems.count, 0, "atlas's posts are not aurora's new ones")
            XCTAssertTrue(requests.allSatisfy { $0.hasPrefix(mirror.baseURL) }, "\(requests)")
            XCTAssertEqual(requests.filter { url in Self.lookupMarkers.contains { url.contains($0) } }.count, 4,
                           "the mirror is asked who the account is: \(requests)")
            let now = try answer { store.following(completion: $0) }.get()
            XCTAssertEqual(now.map(\.resolvedOrigin), Self.keys.map { _ in mirror.baseURL })
            let mastodon = try XCTUnwrap(now.first { $0.key.source == .mastodon })
            XCTAssertEqual(mastodon.resolution?.accountID, DemoMastodon.accountID(of: "aurora"))
        }
    }

    func testABlueskyLookupWhoseDIDDocumentDidNotAnswerIsMadeAgainAtTheNextCheck() throws {
        try MainActor.assumeIsolated {
            let server = try startDemoServer()
            let bluesky = [Self.keys[1]]
            let folder = TemporaryFolder()
            let store = try Self.follow(bluesky, in: folder)
            let client = HTTPClient()
            var requests: [String] = []
            client.onRequestStarted = { requests.append($0) }
            var impatient = Self.limits
            impatient.feed.optionalAnswerMilliseconds = 100
            // The DID document is not answered in time: the feed goes on without the PDS.
            server.holdsResponse = { $0.hasPrefix("/did:plc:") }
            let first = FollowChecker(store: store, client: client, limits: impatient, endpointOverride: { _ in server.baseURL })
            XCTAssertEqual(answer { first.check(completion: $0) }.checked, 1)
            server.holdsResponse = nil
            server.releaseHeldResponses()
            let checker = FollowChecker(store: store, client: client, limits: Self.limits, endpointOverride: { _ in server.baseURL })
            let partial = try XCTUnwrap(try answer { store.following(completion: $0) }.get().first?.resolution)
            XCTAssertEqual(partial, SourceResolution(accountID: DemoBluesky.did(of: "aurora")), "the DID only")

            try Self.update(store, "last_checked_at = last_checked_at - ?", [.integer(Self.day)])
            requests = []
            XCTAssertEqual(answer { checker.check(completion: $0) }.checked, 1)
            XCTAssertEqual(requests.filter { url in Self.lookupMarkers.contains { url.contains($0) } }.count, 2,
                           "looked up again, the DID document with it: \(requests)")
            let resolution = try answer { store.following(completion: $0) }.get().first?.resolution
            XCTAssertEqual(resolution?.context, server.baseURL, "the PDS now known")

            try Self.update(store, "last_checked_at = last_checked_at - ?", [.integer(Self.day)])
            requests = []
            _ = answer { checker.check(completion: $0) }
            XCTAssertEqual(requests.count, 1, "complete now: one request \(requests)")
        }
    }

    @MainActor
    private static func follow(_ keys: [FollowedGallery.Key], in folder: TemporaryFolder) throws -> FollowStore {
        let store = FollowStore(directory: folder.path)
        for key in keys { _ = try answer { store.follow(key, displayName: "", completion: $0) }.get() }
        return store
    }

    /// `UPDATE followed_gallery SET …` behind the store's back: time moved on, a server's other answer.
    @MainActor
    private static func update(_ store: FollowStore, _ assignments: String, _ values: [SQLiteValue]) throws {
        let connection = try SQLiteConnection(path: store.path, create: false)
        try connection.execute("PRAGMA busy_timeout = 5000")
        _ = try connection.run("UPDATE followed_gallery SET " + assignments, values)
    }
}
