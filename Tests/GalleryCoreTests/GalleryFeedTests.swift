import XCTest
import GObjectBindings
import GalleryDemoServer
import TestSupport
@testable import GalleryCore

/// Paging through the demo server's feeds with the DeviantArt parser, as the Demo source does.
final class GalleryFeedTests: GLibTestCase {
    @MainActor
    private static func loadAll(_ user: String, server: DemoServer) throws -> (feed: GalleryFeed, pages: [[GalleryItem]]) {
        let run = loadEveryPage(try DeviantArtSource(username: user, endpointOverride: server.baseURL, kind: .demo))
        return (run.feed, run.pages)
    }

    func testPagesOf24UntilTheEnd() throws {
        try MainActor.assumeIsolated {
            let server = try startDemoServer()
            let (feed, pages) = try Self.loadAll("aurora", server: server)
            XCTAssertEqual(feed.state, .finished)
            XCTAssertEqual(pages.map(\.count), [24, 24, 12])
            XCTAssertEqual(feed.pagesLoaded, 3)
            let catalog = server.catalog.user(named: "aurora")!.items
            XCTAssertEqual(pages.joined().map(\.title), catalog.map(\.title))
            XCTAssertEqual(pages[0][5].thumbnailURL(covering: 96), server.baseURL + catalog[5].imagePath(thumbnailLongSide: 150))
        }
    }

    func testSeveralHundredImages() throws {
        try MainActor.assumeIsolated {
            let server = try startDemoServer()
            let (feed, pages) = try Self.loadAll("atlas", server: server)
            XCTAssertEqual(feed.state, .finished)
            XCTAssertEqual(pages.joined().count, 360)
            XCTAssertEqual(pages.count, 15)
        }
    }

    /// `end` comes after the last page's items, not between the feed's last state change and them: a caller
    /// that acts on `end` (`--download` naming its files) must have every item by then.
    func testLoadAllPagesEndsAfterTheLastPagesItems() throws {
        try MainActor.assumeIsolated {
            let server = try startDemoServer()
            let feed = GalleryFeed(source: try DeviantArtSource(username: "aurora", endpointOverride: server.baseURL, kind: .demo),
                                   client: HTTPClient())
            var events: [String] = []
            feed.loadAllPages(page: { events.append("page \($0.count)") }, end: { _ in events.append("end") })
            XCTAssertTrue(iterateMainLoop(until: { events.last == "end" }, timeout: 10))
            XCTAssertEqual(events, ["page 24", "page 24", "page 12", "end"])
        }
    }

    func testMissingEmptyAndBrokenGalleriesGetTheirMessage() throws {
        try MainActor.assumeIsolated {
            let server = try startDemoServer()
            XCTAssertEqual(try Self.loadAll("nobody-here", server: server).feed.state,
                           .failed(.noSuchUser(service: "Demo", username: "nobody-here")))
            XCTAssertEqual(try Self.loadAll("empty", server: server).feed.state, .failed(.emptyGallery(username: "empty")))
            guard case .failed(.malformedResponse(let service, _)) = try Self.loadAll("brokenfeed", server: server).feed.state else {
                return XCTFail("brokenfeed should be malformed")
            }
            XCTAssertEqual(service, "Demo")
        }
    }

    func testAnUnreachableServerIsANetworkError() throws {
        try MainActor.assumeIsolated {
            let server = try startDemoServer()
            let address = server.baseURL
            server.stop()
            let source = try DeviantArtSource(username: "aurora", endpointOverride: address, kind: .demo)
            let feed = GalleryFeed(source: source, client: HTTPClient())
            feed.loadNextPage { _ in XCTFail("no items expected") }
            iterateMainLoop(until: { if case .failed = feed.state { true } else { false } }, timeout: 10)
            guard case .failed(.network(let service, let detail)) = feed.state else {
                return XCTFail("\(feed.state)")
            }
            XCTAssertEqual(service, "Demo")
            XCTAssertFalse(detail.isEmpty)
        }
    }

    // MARK: DeviantArt's refusals

    /// A DeviantArt feed on a local server whose first `refusals` answers are 403 (then the demo page).
    @MainActor
    private static func refusingServer(refusals: Int) throws -> (server: TestHTTPServer, requests: () -> Int) {
        let server = try TestHTTPServer()
        let page = Fixtures.text("deviantart/gallery-page1.xml")
            .replacingOccurrences(of: #"<atom:link rel="next""#, with: #"<atom:link rel="last""#)  // one page only
        var count = 0
        server.route("/rss.xml") { _ in
            count += 1
            return count <= refusals ? .html("<h1>403 ERROR</h1><p>Request blocked.</p>", status: 403)
                : .text(page, contentType: "application/rss+xml")
        }
        return (server, { count })
    }

    func testDeviantArtsForbiddenIsWaitedOutLikeARateLimit() throws {
        try MainActor.assumeIsolated {
            let (server, requests) = try Self.refusingServer(refusals: 2)
            let run = loadEveryPage(try DeviantArtSource(username: "inkwell", endpointOverride: server.baseURL))
            XCTAssertEqual(requests(), 3, "two refusals waited out, then the page")
            XCTAssertEqual(run.states.filter { if case .waiting = $0 { true } else { false } }.count, 2)
            XCTAssertEqual(run.pages.joined().count, 4, "the gallery, not an error")
            XCTAssertEqual(run.feed.state, .finished)
        }
    }

    func testARefusalThatLastsEndsWithTryAgainLaterNeverNoGallery() throws {
        try MainActor.assumeIsolated {
            let (server, requests) = try Self.refusingServer(refusals: .max)
            let source = try DeviantArtSource(username: "inkwell", endpointOverride: server.baseURL)
            let feed = GalleryFeed(source: source, client: HTTPClient(), limits: fastFeedLimits)
            var reasons: [GalleryError] = []
            feed.onStateChange = { [weak feed] in if let reason = feed?.waitReason { reasons.append(reason) } }
            var ended = false
            feed.loadAllPages(page: { _ in XCTFail("no items") }, end: { _ in ended = true })
            XCTAssertTrue(iterateMainLoop(until: { ended }, timeout: 20))
            XCTAssertEqual(requests(), 6, "the first request and five retries, backing off")
            XCTAssertEqual(reasons.count, 5)
            guard case .refusingForNow("DeviantArt", let seconds?) = reasons.first else { return XCTFail("\(reasons)") }
            XCTAssertEqual(reasons.first?.title, "DeviantArt is refusing requests for now")
            XCTAssertEqual(reasons.first?.explanation,
                           "Try again later; trying again by itself in \(GalleryError.duration(seconds)).")
            let failure = GalleryError.refusingForNow(service: "DeviantArt", retryAfterSeconds: nil)
            XCTAssertEqual(feed.state, .failed(failure))
            XCTAssertEqual(failure.sentence, "DeviantArt is refusing requests for now. Try again later.")
        }
    }

    func testARefusalsRetryAfterIsHonoured() throws {
        try MainActor.assumeIsolated {
            let server = try TestHTTPServer()
            server.route("/rss.xml") { _ in TestResponse.status(403).header("Retry-After", "7") }
            let source = try DeviantArtSource(username: "inkwell", endpointOverride: server.baseURL)
            let feed = GalleryFeed(source: source, client: HTTPClient(), limits: fastFeedLimits)
            feed.loadNextPage { _ in }
            XCTAssertTrue(iterateMainLoop(until: { feed.waitReason != nil }, timeout: 5))
            XCTAssertEqual(feed.waitReason, .refusingForNow(service: "DeviantArt", retryAfterSeconds: 7))
            feed.cancel()
        }
    }
}
