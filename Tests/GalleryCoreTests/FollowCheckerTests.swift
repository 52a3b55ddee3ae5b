import GObjectBindings
import GalleryDemoServer
import TestSupport
import XCTest
@testable import GalleryCore

/// The follow checker against the demo server (whose galleries grow on demand) and a test server that
/// answers validators: the first check is the baseline, growth is found, paging stops at the last known item,
/// 304 costs one request, hosts are not asked more than twice at a time, a failure is recorded while the rest
/// are checked, and offline records nothing.
final class FollowCheckerTests: GLibTestCase {
    /// Checks every time it is asked (the 15-minute skip has a test of its own).
    private static let always = FollowChecker.Limits(minimumInterval: 0, feed: fastFeedLimits)

    func testTheFirstCheckIsTheBaselineAndGrowthIsFoundInEveryFormat() throws {
        try MainActor.assumeIsolated {
            let server = try startDemoServer()
            let store = FollowStore(directory: TemporaryFolder().path)
            let keys = SourceKind.allCases.map { FollowedGallery.Key(source: $0, username: $0.descriptor.demoUsername("aurora")) }
            for key in keys { _ = try answer { store.follow(key, displayName: "", completion: $0) }.get() }
            let checker = FollowChecker(store: store, client: HTTPClient(), limits: Self.always,
                                        endpointOverride: { _ in server.baseURL })

            let baseline = answer { checker.check(completion: $0) }
            XCTAssertEqual(baseline.checked, keys.count, "\(baseline.failures.map(\.sentence))")
            XCTAssertEqual(baseline.newItems.count, 0, "everything there when followed is the baseline")
            XCTAssertEqual(try answer { store.newItemCount(completion: $0) }.get(), 0)
            // The services whose replies name the account (Mastodon, Bluesky, Misskey) give it its name and picture.
            let profiled = try answer { store.following(completion: $0) }.get()
                .filter { [.mastodon, .bluesky, .misskey].contains($0.key.source) }
            XCTAssertEqual(profiled.count, 3)
            for gallery in profiled {
                XCTAssertEqual(gallery.displayName, "Aurora", "\(gallery.key)")
                XCTAssertEqual(gallery.avatarURL?.hasPrefix(server.baseURL + "/avatars/"), true, "\(gallery.key): \(String(describing: gallery.avatarURL))")
            }

            server.grow()
            let grown = answer { checker.check(completion: $0) }
            XCTAssertEqual(grown.failures.map(\.sentence), [])
            XCTAssertEqual(Set(grown.newItems.map(\.gallery)), Set(keys), "one new upload in each format")
            XCTAssertEqual(grown.newItems.count, keys.count)
            XCTAssertTrue(grown.newItems.allSatisfy { ($0.item.fullImageURL ?? "").contains("/grown-00001-") },
                          "the grown upload: \(grown.newItems.map(\.item.fullImageURL))")
            XCTAssertEqual(try answer { store.following(completion: $0) }.get().map(\.newCount), keys.map { _ in 1 })

            let commonsRequests = server.requestLog.filter { $0.hasPrefix("/w/api.php") }
            XCTAssertFalse(commonsRequests.isEmpty)
            XCTAssertTrue(commonsRequests.allSatisfy { $0.contains("maxlag=5") }, "a background task to Wikimedia: \(commonsRequests)")

            let again = answer { checker.check(completion: $0) }
            XCTAssertEqual(again.newItems.count, 0, "found once, new once")
            XCTAssertEqual(try answer { store.newItemCount(completion: $0) }.get(), keys.count)
        }
    }

    func testPagingStopsAtTheLastKnownItemOrThePageCap() throws {
        try MainActor.assumeIsolated {
            let server = try startDemoServer()
            let store = FollowStore(directory: TemporaryFolder().path)
            let aurora = FollowedGallery.Key(source: .demo, username: "aurora")
            let atlas = FollowedGallery.Key(source: .demo, username: "atlas")
            for key in [aurora, atlas] { _ = try answer { store.follow(key, displayName: "", completion: $0) }.get() }
            let checker = FollowChecker(store: store, client: HTTPClient(), limits: Self.always,
                                        endpointOverride: { _ in server.baseURL })
            _ = answer { checker.check(completion: $0) }
            // The first page's query is percent-encoded, the next links the feed gives are not.
            let feedRequests = { (user: String) in
                server.requestLog.filter { $0.contains("gallery%3A\(user)") || $0.contains("gallery:\(user)") }.count
            }
            XCTAssertEqual(feedRequests("aurora"), 1, "a first check reads the first page only")

            // More uploads than a page holds: the second page has the last known item.
            for _ in 0..<(DemoFeed.pageSize + 6) { server.grow() }
            let found = answer { checker.check(completion: $0) }
            XCTAssertEqual(feedRequests("aurora"), 3, "pages 1 and 2, not page 3")
            XCTAssertEqual(found.newItems.filter { $0.gallery == aurora }.count, DemoFeed.pageSize + 6)

            // With a cap of one page, the rest of the growth is never asked for.
            for _ in 0..<(DemoFeed.pageSize + 6) { server.grow() }
            var oneLimits = Self.always
            oneLimits.maxPagesPerGallery = 1
            let capped = FollowChecker(store: store, client: HTTPClient(), limits: oneLimits,
                                       endpointOverride: { _ in server.baseURL })
            let partial = answer { capped.check(completion: $0) }
            XCTAssertEqual(feedRequests("atlas"), 4, "one more page, the cap")
            XCTAssertEqual(partial.newItems.filter { $0.gallery == atlas }.count, DemoFeed.pageSize)
        }
    }

    /// Undated items: only the last known item can say where the new ones end.
    func testPagingStopsAtTheLastKnownItemWithoutDates() throws {
        try MainActor.assumeIsolated {
            let server = try TestHTTPServer()
            server.route("/rss.xml") { request in
                let offset = Int(request.query["offset"] ?? "0") ?? 0
                return .text(undatedPage(offset: offset, of: 6, perPage: 2), contentType: "application/rss+xml")
            }
            let store = FollowStore(directory: TemporaryFolder().path)
            let key = FollowedGallery.Key(source: .deviantArt, username: "undated")
            let shown = GalleryItem(id: undatedLink(4), title: "", fullImageURL: nil)
            _ = try answer { store.follow(key, displayName: "", knownItems: [shown], completion: $0) }.get()
            let checker = FollowChecker(store: store, client: HTTPClient(), limits: Self.always,
                                        endpointOverride: { _ in server.baseURL })
            let report = answer { checker.check(completion: $0) }
            XCTAssertEqual(server.requestCount, 2, "the page with item 4 is the last one asked for")
            XCTAssertEqual(report.newItems.map(\.item.id).sorted(), [1, 2, 3].map(undatedLink))
        }
    }

    func testAnUnchangedFeedCostsOneConditionalRequest() throws {
        try MainActor.assumeIsolated {
            let server = try TestHTTPServer()
            let page = Fixtures.bytes("deviantart/gallery-page1.xml")
            var conditionalHeaders: [String?] = []
            server.route("/rss.xml") { request in
                conditionalHeaders.append(request.header("If-None-Match"))
                if request.header("If-None-Match") == #"W/"page-1""# { return .status(304) }
                return TestResponse.bytes(page, contentType: "application/rss+xml").header("ETag", #"W/"page-1""#)
            }
            let store = FollowStore(directory: TemporaryFolder().path)
            let key = FollowedGallery.Key(source: .deviantArt, username: "inkwell")
            _ = try answer { store.follow(key, displayName: "", completion: $0) }.get()
            let checker = FollowChecker(store: store, client: HTTPClient(), limits: Self.always,
                                        endpointOverride: { _ in server.baseURL })
            let first = answer { checker.check(completion: $0) }
            XCTAssertEqual([first.checked, first.notModified], [1, 0])
            let stored = try XCTUnwrap(try answer { store.following(completion: $0) }.get().first?.validators)
            XCTAssertEqual(stored.etag, #"W/"page-1""#)

            let second = answer { checker.check(completion: $0) }
            XCTAssertEqual([second.checked, second.notModified], [1, 1])
            XCTAssertEqual(conditionalHeaders, [nil, #"W/"page-1""#], "one plain request, then one conditional one")
            XCTAssertEqual(try answer { store.following(completion: $0) }.get().first?.validators, stored,
                           "a 304 keeps the validators")
        }
    }

    func testNoHostIsAskedMoreThanTwiceAtATime() throws {
        try MainActor.assumeIsolated {
            let server = try startDemoServer()
            let store = FollowStore(directory: TemporaryFolder().path)
            for name in ["aurora", "atlas", "huge-10", "huge-20", "huge-30"] {
                _ = try answer { store.follow(.init(source: .demo, username: name), displayName: "", completion: $0) }.get()
            }
            let client = HTTPClient()
            let checker = FollowChecker(store: store, client: client, limits: Self.always,
                                        endpointOverride: { _ in server.baseURL })
            // Every answer waits for the test: while one is held, the checker has started all it would.
            server.holdsResponse = { _ in true }
            var report: FollowCheckReport?
            var mostAtOnce = 0
            checker.check { report = $0 }
            while report == nil {
                XCTAssertTrue(iterateMainLoop(until: { server.heldResponseCount > 0 || report != nil }, timeout: 60))
                mostAtOnce = max(mostAtOnce, client.fetchesInFlight)
                server.releaseHeldResponses()
            }
            XCTAssertEqual(mostAtOnce, 2, "two galleries of the one demo host at a time")
            XCTAssertEqual(report?.checked, 5)
        }
    }

    /// Each endpoint gets a client of its own in a run: a feed tells its client where its endpoint is, which
    /// decides whether private addresses may be reached, so galleries of two endpoints must not share one.
    func testEachEndpointIsCheckedThroughAClientOfItsOwn() throws {
        try MainActor.assumeIsolated {
            let demo = try startDemoServer()
            let other = try startDemoServer()
            let store = FollowStore(directory: TemporaryFolder().path)
            let keys = [FollowedGallery.Key(source: .demo, username: "aurora"), FollowedGallery.Key(source: .demo, username: "atlas"),
                        FollowedGallery.Key(source: .deviantArt, username: "aurora")]
            for key in keys { _ = try answer { store.follow(key, displayName: "", completion: $0) }.get() }
            var made = 0
            let checker = FollowChecker(store: store, makeClient: { made += 1; return HTTPClient() }, limits: Self.always,
                                        endpointOverride: { $0 == .demo ? demo.baseURL : other.baseURL })
            let report = answer { checker.check(completion: $0) }
            XCTAssertEqual(report.checked, 3, "\(report.failures.map(\.sentence))")
            XCTAssertEqual(made, 2, "one client for the demo server's two galleries, one for the other server")
            XCTAssertEqual(other.requestLog.filter { $0.hasPrefix("/rss.xml") }.count, 1)
            _ = answer { checker.check(completion: $0) }
            XCTAssertEqual(made, 4, "a run's clients go with it")
        }
    }

    func testAFailureIsRecordedAndTheOthersAreStillChecked() throws {
        try MainActor.assumeIsolated {
            let server = try startDemoServer()
            let store = FollowStore(directory: TemporaryFolder().path)
            let nobody = FollowedGallery.Key(source: .demo, username: "nobody")
            for key in [nobody, .init(source: .demo, username: "aurora")] {
                _ = try answer { store.follow(key, displayName: "", completion: $0) }.get()
            }
            var checked: [FollowedGallery] = []
            let checker = FollowChecker(store: store, client: HTTPClient(), limits: Self.always,
                                        endpointOverride: { _ in server.baseURL })
            checker.onGalleryChecked = { checked.append($0) }
            let report = answer { checker.check(completion: $0) }
            XCTAssertEqual(report.failures, [FollowCheckFailure(key: nobody, error: .noSuchUser(service: "Demo", username: "nobody"))])
            XCTAssertEqual(report.checked, 1)
            XCTAssertFalse(report.offline)
            let galleries = try answer { store.following(completion: $0) }.get()
            XCTAssertEqual(galleries.map(\.lastProblem), ["No such user: nobody", nil])
            XCTAssertEqual(Set(checked.map(\.key.username)), ["nobody", "aurora"])
            XCTAssertEqual(checked.first { $0.key == nobody }?.lastProblem, "No such user: nobody")
        }
    }

    func testOfflineRecordsNothing() throws {
        try MainActor.assumeIsolated {
            let gone = try TestHTTPServer()
            let address = gone.baseURL
            gone.stop()
            let store = FollowStore(directory: TemporaryFolder().path)
            _ = try answer { store.follow(.init(source: .demo, username: "aurora"), displayName: "", completion: $0) }.get()
            let checker = FollowChecker(store: store, client: HTTPClient(), limits: Self.always, endpointOverride: { _ in address })
            let report = answer { checker.check(completion: $0) }
            XCTAssertTrue(report.offline)
            XCTAssertEqual(report.checked, 0)
            let gallery = try XCTUnwrap(try answer { store.following(completion: $0) }.get().first)
            XCTAssertNil(gallery.lastProblem)
            XCTAssertNil(gallery.lastCheckedAt, "not checked: the next check tries again")
        }
    }

    func testARecentlyCheckedGalleryIsSkippedAndACallJoinsTheRunningCheck() throws {
        try MainActor.assumeIsolated {
            let server = try startDemoServer()
            let store = FollowStore(directory: TemporaryFolder().path)
            _ = try answer { store.follow(.init(source: .demo, username: "aurora"), displayName: "", completion: $0) }.get()
            let checker = FollowChecker(store: store, client: HTTPClient(), limits: .init(feed: fastFeedLimits),
                                        endpointOverride: { _ in server.baseURL })
            var reports: [FollowCheckReport] = []
            checker.check { reports.append($0) }
            XCTAssertTrue(checker.isChecking)
            checker.check { reports.append($0) }
            XCTAssertTrue(iterateMainLoop(until: { reports.count == 2 }, timeout: 60))
            XCTAssertEqual(reports.map(\.checked), [1, 1], "the second call joined the first")
            let requests = server.requestCount
            let soon = answer { checker.check(completion: $0) }
            XCTAssertEqual([soon.checked, soon.skipped], [0, 1])
            XCTAssertEqual(server.requestCount, requests, "nothing asked")
        }
    }
}

private func undatedLink(_ index: Int) -> String { "https://www.deviantart.com/undated/art/item-\(index)" }

/// A DeviantArt RSS page of items `offset + 1 …` (newest first) that carry no dates.
private func undatedPage(offset: Int, of count: Int, perPage: Int) -> String {
    let next = offset + perPage < count
        ? #"<atom:link rel="next" href="https://backend.deviantart.com/rss.xml?type=deviation&amp;q=gallery%3Aundated&amp;offset=\#(offset + perPage)"/>"#
        : ""
    let items = (offset + 1...min(count, offset + perPage)).map { index in
        #"<item><title>Item \#(index)</title><link>\#(undatedLink(index))</link><guid isPermaLink="true">\#(undatedLink(index))</guid>"#
            + #"<media:content url="https://images.example/item-\#(index).jpg" width="300" height="200" medium="image"/></item>"#
    }
    return #"<?xml version="1.0" encoding="UTF-8"?><rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/" "#
        + #"xmlns:atom="http://www.w3.org/2005/Atom"><channel><title>undated</title>\#(next)\#(items.joined())</channel></rss>"#
}
