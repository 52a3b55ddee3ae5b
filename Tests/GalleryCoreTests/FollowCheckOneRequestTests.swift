import GObjectBindings
import GalleryDemoServer
import SQLiteBindings
import TestSupport
import XCTest
@testable import GalleryCore

/// Issue 28's "sends one request per gallery when nothing is new", end to end against the demo server in every
/// format: after the first check, a check starts from the account its lookup resolved (no lookup), Mastodon's
/// and Bluesky's unchanged pages come back 304, and growth is still found; a remembered account that is gone
/// or whose handle moved is looked up again, once, and the new resolution kept.
final class FollowCheckOneRequestTests: GLibTestCase {
    /// The checker's own 15-minute skip; time is moved on by aging the stored checks (`moveChecksBack`).
    private static let limits = FollowChecker.Limits(feed: fastFeedLimits)
    private static let lookupMarkers = ["/accounts/lookup", "actor.getProfile", "/did:plc:", "/api/users/show"]

    func testNothingNewCostsOneRequestPerGalleryAnd304sWhereTheServiceAnswersThem() throws {
        try MainActor.assumeIsolated {
            let server = try startDemoServer()
            let folder = TemporaryFolder()
            let store = FollowStore(directory: folder.path)
            let keys = SourceKind.allCases.map { FollowedGallery.Key(source: $0, username: $0.descriptor.demoUsername("aurora")) }
            for key in keys { _ = try answer { store.follow(key, displayName: "", completion: $0) }.get() }
            let client = HTTPClient()
            var requests: [String] = []
            client.onRequestStarted = { requests.append($0) }
            let checker = FollowChecker(store: store, client: client, limits: Self.limits, endpointOverride: { _ in server.baseURL })

            let baseline = answer { checker.check(completion: $0) }
            XCTAssertEqual(baseline.checked, keys.count, "\(baseline.failures.map(\.sentence))")
            let resolved = try answer { store.following(completion: $0) }.get().filter { $0.resolution != nil }.map(\.key.source)
            XCTAssertEqual(Set(resolved), [.mastodon, .bluesky, .misskey], "the services with a lookup")

            requests = []
            let soon = answer { checker.check(completion: $0) }
            XCTAssertEqual([soon.skipped, requests.count], [keys.count, 0], "within 15 minutes: left alone")

            try Self.moveChecksBack(in: store, minutes: 16)
            requests = []
            let quiet = answer { checker.check(completion: $0) }
            XCTAssertEqual(quiet.checked, keys.count, "\(quiet.failures.map(\.sentence))")
            XCTAssertEqual(quiet.newItems.count, 0)
            XCTAssertEqual(requests.count, keys.count, "one request per gallery: \(requests)")
            XCTAssertFalse(requests.contains { url in Self.lookupMarkers.contains { url.contains($0) } }, "no lookup: \(requests)")
            XCTAssertEqual(quiet.notModified, 2, "Mastodon's and Bluesky's first pages answered 304")

            server.grow()
            try Self.moveChecksBack(in: store, minutes: 16)
            requests = []
            let grown = answer { checker.check(completion: $0) }
            XCTAssertEqual(grown.failures.map(\.sentence), [])
            XCTAssertEqual(grown.notModified, 0, "every page changed")
            XCTAssertEqual(Set(grown.newItems.map(\.gallery)), Set(keys), "the new upload found in each format")
            XCTAssertTrue(grown.newItems.allSatisfy { ($0.item.fullImageURL ?? "").contains("/grown-00001-") })
            XCTAssertEqual(requests.count, keys.count, "the upload is on the first page: one request each")
        }
    }

    func testAGoneOrMovedAccountIsLookedUpAgainOnceAndItsNewResolutionKept() throws {
        try MainActor.assumeIsolated {
            let server = try startDemoServer()
            let store = FollowStore(directory: TemporaryFolder().path)
            let keys: [FollowedGallery.Key] = [.mastodon, .bluesky, .misskey].map {
                .init(source: $0, username: $0.descriptor.demoUsername("aurora"))
            }
            for key in keys { _ = try answer { store.follow(key, displayName: "", completion: $0) }.get() }
            let client = HTTPClient()
            var requests: [String] = []
            client.onRequestStarted = { requests.append($0) }
            let checker = FollowChecker(store: store, client: client, limits: Self.limits, endpointOverride: { _ in server.baseURL })
            _ = answer { checker.check(completion: $0) }
            let good = try Dictionary(uniqueKeysWithValues: answer { store.following(completion: $0) }.get().map { ($0.key, $0.resolution) })

            // Mastodon's id no longer exists (404), Misskey's neither (NO_SUCH_USER), and the Bluesky DID is now
            // another account's handle (atlas's posts).
            let connection = try SQLiteConnection(path: store.path, create: false)
            try connection.execute("PRAGMA busy_timeout = 5000")
            _ = try connection.run("UPDATE followed_gallery SET resolved_account = '10999' WHERE source = 'mastodon'")
            _ = try connection.run("UPDATE followed_gallery SET resolved_account = '9dnobody00' WHERE source = 'misskey'")
            _ = try connection.run("UPDATE followed_gallery SET resolved_account = ? WHERE source = 'bluesky'",
                                   [.text(DemoBluesky.did(of: "atlas"))])
            try Self.moveChecksBack(in: store, minutes: 16)
            requests = []
            let report = answer { checker.check(completion: $0) }
            XCTAssertEqual(report.failures.map(\.sentence), [])
            XCTAssertEqual(report.checked, keys.count)
            XCTAssertEqual(report.newItems.count, 0, "atlas's posts are not aurora's new ones")
            XCTAssertEqual(requests.filter { url in Self.lookupMarkers.contains { url.contains($0) } }.count, 4,
                           "one lookup each (Bluesky's profile and DID document): \(requests)")
            let now = try answer { store.following(completion: $0) }.get()
            for gallery in now { XCTAssertEqual(gallery.resolution, good[gallery.key] ?? nil, "\(gallery.key)") }

            try Self.moveChecksBack(in: store, minutes: 16)
            requests = []
            _ = answer { checker.check(completion: $0) }
            XCTAssertEqual(requests.count, keys.count, "one request each again: \(requests)")
        }
    }

    /// As if `minutes` had passed since each gallery's last check: the checker's skip goes by the stored time.
    @MainActor
    private static func moveChecksBack(in store: FollowStore, minutes: Int64) throws {
        let connection = try SQLiteConnection(path: store.path, create: false)
        try connection.execute("PRAGMA busy_timeout = 5000")
        _ = try connection.run("UPDATE followed_gallery SET last_checked_at = last_checked_at - ?", [.integer(minutes * 60_000)])
    }
}
