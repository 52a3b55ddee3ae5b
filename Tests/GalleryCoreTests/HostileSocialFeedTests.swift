import GObjectBindings
import GalleryHostileServer
import TestSupport
import XCTest
@testable import GalleryCore

/// The Bluesky and Misskey parsers against the hostile server (`HostileSocialFeed`), through GalleryFeed and
/// a real client: huge feeds, deep nesting, odd schemes, endless and repeated cursors, huge texts, 429
/// forever and web pages each end in rows or a message, stopped by the parsers' limits (checked by what was
/// decoded and kept, not by a clock), and never with a URL that is not http(s).
final class HostileSocialFeedTests: GLibTestCase {
    @MainActor
    private static func runBoth(_ feed: HostileSocialFeed, on server: HostileServer) throws -> [(source: String, run: FeedRun)] {
        // Bounded for a run that hangs; the limits end a working one long before.
        [("Bluesky", loadEveryPage(try BlueskySource(actor: feed.blueskyHandle, endpointOverride: server.baseURL), timeout: 120)),
         ("Misskey", loadEveryPage(try MisskeySource(account: feed.misskeyAccount, endpointOverride: server.baseURL), timeout: 120))]
    }

    /// The hostile server's first reply for `feed`, as each source asks for it.
    @MainActor
    private static func replies(_ feed: HostileSocialFeed, on server: HostileServer) throws -> (bluesky: Bytes, misskey: Bytes) {
        let bluesky = fetch(server.baseURL + "/xrpc/app.bsky.feed.getAuthorFeed?actor=" + feed.blueskyHandle, with: HTTPClient(),
                            timeout: 120)
        let userID = "9h" + feed.rawValue.filter(\.isLetter)
        let misskey = fetch(server.baseURL + "/api/users/notes", with: HTTPClient(), method: "POST",
                            body: #"{"userId":"\#(userID)"}"#, timeout: 120)
        return (try XCTUnwrap(bluesky?.get()).body, try XCTUnwrap(misskey?.get()).body)
    }

    private static func assertWebURLsOnly(_ items: some Sequence<GalleryItem>, file: StaticString = #filePath, line: UInt = #line) {
        for item in items {
            for url in [item.fullImageURL, item.pageURL].compactMap({ $0 }) + item.thumbnails.map(\.url) {
                XCTAssertTrue(URLText.isWebAddress(url), "\(item.title): \(url)", file: file, line: line)
            }
        }
    }

    func testHugeFeedsAndTextsAreCutToWhatARealPageHolds() throws {
        try MainActor.assumeIsolated {
            let server = HostileServer()
            try server.start()
            for (source, run) in try Self.runBoth(.manyPosts, on: server) {
                XCTAssertEqual(run.feed.state, .finished, source)
                XCTAssertEqual(run.pages.joined().count, 1000, "\(source): 40,000 images in a reply; the first 1000 kept")
                XCTAssertTrue(run.pages.allSatisfy { $0.count <= fastFeedLimits.maxItemsPerDelivery }, source)
            }
            // The work is bounded by count: of the reply's 10,000 posts of 4 images only the first `limit` are
            // decoded at all. The first 250 fill the page; each decoded post after them is skipped on its own,
            // and the undecoded rest is counted as one.
            let limit = CappedList<Int>.limit
            let replies = try Self.replies(.manyPosts, on: server)
            let bluesky = try BlueskyItems.page(from: replies.bluesky, did: "", username: "many", baseURL: server.baseURL)
            XCTAssertEqual(bluesky.postCount, 10_000)
            XCTAssertEqual(bluesky.items.count, BlueskyItems.maxItemsPerPage)
            XCTAssertEqual(bluesky.content.skippedCount, limit - BlueskyItems.maxItemsPerPage / 4 + 1)
            let context = MisskeyItems.Context(username: "many", user: "many", server: "hostile.test", baseURL: server.baseURL)
            let misskey = try MisskeyItems.page(from: replies.misskey, context: context)
            XCTAssertEqual(misskey.content.items.count, MisskeyItems.maxItemsPerPage)
            XCTAssertEqual(misskey.content.skippedCount, limit - MisskeyItems.maxItemsPerPage / 4 + 1)
            for (source, run) in try Self.runBoth(.hugeText, on: server) {
                let items = Array(run.pages.joined())
                XCTAssertEqual(items.count, 1, source)
                XCTAssertLessThanOrEqual(items.first?.title.count ?? .max, 81, source)
                XCTAssertLessThanOrEqual(items.first?.altText?.count ?? .max, 1501, source)
            }
        }
    }

    func testDeepNestingWebPagesAndEndlessRateLimitsEndInAMessage() throws {
        try MainActor.assumeIsolated {
            let server = HostileServer()
            try server.start()
            for (source, run) in try Self.runBoth(.deepNesting, on: server) {
                guard case .failed(.malformedResponse(source, let detail)) = run.feed.state else {
                    return XCTFail("\(source): \(run.feed.state)")
                }
                // Refused by the JSON reader's depth limit, before anything is decoded.
                XCTAssertTrue(detail.contains("nested too deeply"), "\(source): \(detail)")
            }
            for (source, run) in try Self.runBoth(.html, on: server) {
                guard case .failed(.malformedResponse(source, let detail)) = run.feed.state else {
                    return XCTFail("\(source): \(run.feed.state)")
                }
                XCTAssertTrue(detail.contains("the server sent a web page. Is this a"), detail)
            }
            for (source, run) in try Self.runBoth(.rateLimited, on: server) {
                XCTAssertEqual(run.feed.state, .failed(.rateLimited(service: source, retryAfterSeconds: nil)), source)
                XCTAssertEqual(run.states.filter { if case .waiting = $0 { true } else { false } }.count, 5, source)
            }
        }
    }

    func testEndlessAndRepeatedCursorsStop() throws {
        try MainActor.assumeIsolated {
            let server = HostileServer()
            try server.start()
            for (source, run) in try Self.runBoth(.endlessCursor, on: server) {
                XCTAssertEqual(run.feed.state, .failed(.emptyPages(service: source, count: 5)), source)
            }
            for (source, run) in try Self.runBoth(.sameCursor, on: server) {
                XCTAssertEqual(run.feed.state, .failed(.pagingLoop(service: source)), source)
                XCTAssertEqual(run.pages.map(\.count), [1, 1], "\(source): the page before the loop is kept")
            }
        }
    }

    func testOddSchemesAreDroppedAndRelativeOnesResolved() throws {
        try MainActor.assumeIsolated {
            let server = HostileServer()
            try server.start()
            for (source, run) in try Self.runBoth(.oddSchemes, on: server) {
                XCTAssertEqual(run.feed.state, .finished, source)
                let items = Array(run.pages.joined())
                XCTAssertEqual(items.count, 7, source)
                Self.assertWebURLsOnly(items)
                XCTAssertEqual(items[0].thumbnails.first?.url, server.baseURL + "/img/valid?odd=relative", source)
                XCTAssertEqual(items[1].fullImageURL, server.baseURL + "/img/valid?odd=protocol-relative-full", source)
                XCTAssertEqual(items.filter(\.mediaURLRejected).count, 4, "\(source): the rows say “Not a web address”")
            }
            for (source, run) in try Self.runBoth(.manyPosts, on: server) { Self.assertWebURLsOnly(run.pages.joined()); _ = source }
        }
    }
}
