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
            XCTAssertTrue(iterateMainLoop(until: { events.last == "end" }, timeout: 60))
            XCTAssertEqual(events, ["page 24", "page 24", "page 12", "end"])
        }
    }

    /// `end` comes while the main loop still has work at the default priority, as it has while `--download`'s
    /// images arrive: at idle priority it would wait for all of them, and the renames that follow it with it.
    /// The busy source below is always ready, so a source of lower priority would never run at all.
    func testLoadAllPagesEndsWhileTheMainLoopIsBusy() throws {
        try MainActor.assumeIsolated {
            let server = try startDemoServer()
            let feed = GalleryFeed(source: try DeviantArtSource(username: "aurora", endpointOverride: server.baseURL, kind: .demo),
                                   client: HTTPClient())
            var ended = false
            var items = 0
            let busy = MainLoopSource.whileIdle(priority: MainLoopSource.Priority.default) { !ended }
            defer { busy.cancel() }
            feed.loadAllPages(page: { items += $0.count }, end: { _ in ended = true })
            XCTAssertTrue(iterateMainLoop(until: { ended }, timeout: 60), "the feed's end waited for the busy main loop")
            XCTAssertEqual(items, 60)
        }
    }

    // MARK: Reading ahead

    /// Loading every page (`--list`, `--download`), the next page is asked for as soon as a reply names it in
    /// its heading, while the reply is parsed on a worker; each page is still asked for once, and the items
    /// come in the gallery's order.
    func testLoadingEveryPageAsksForTheNextWhileTheLastIsParsed() throws {
        try MainActor.assumeIsolated {
            let server = try startDemoServer()
            let (feed, pages) = try Self.loadAll("atlas", server: server)
            XCTAssertEqual(feed.state, .finished)
            XCTAssertEqual(pages.joined().map(\.title), server.catalog.user(named: "atlas")!.items.map(\.title))
            XCTAssertEqual(feed.pagesAskedAhead, 14, "every page after the first")
            XCTAssertEqual(server.requestLog.filter { $0.hasPrefix("/rss.xml") }.count, 15, "each page once")
        }
    }

    /// The window loads a page when the user scrolls to the end: nothing is asked for ahead of that.
    func testLoadingPageByPageAsksForNothingAhead() throws {
        try MainActor.assumeIsolated {
            let server = try startDemoServer()
            let client = HTTPClient()
            let feed = GalleryFeed(source: try DeviantArtSource(username: "atlas", endpointOverride: server.baseURL, kind: .demo),
                                   client: client)
            var delivered = 0
            feed.loadNextPage { delivered += $0.count }
            XCTAssertTrue(iterateMainLoop(until: { feed.state == .idle && delivered == 24 }, timeout: 60))
            // A page is asked for ahead when its reply comes, before the parse: counted by now, and nothing in
            // flight that could still reach the server.
            XCTAssertEqual(client.fetchesInFlight, 0)
            XCTAssertEqual(feed.pagesAskedAhead, 0)
            XCTAssertEqual(server.requestLog.filter { $0.hasPrefix("/rss.xml") }.count, 1, "the next page waits for a scroll")
        }
    }

    /// A heading that names one page and a parse that names another (a second next link after the items, which
    /// the parse takes): the page asked for ahead is given up, the feed goes on with the parse's, and it
    /// guesses no more, so such a feed costs one needless request, not one a page.
    func testAPageAskedAheadThatTheParseDoesNotNameIsGivenUp() throws {
        try MainActor.assumeIsolated {
            let server = try TestHTTPServer()
            let fixture = Fixtures.text("deviantart/gallery-page1.xml")
            let link = try XCTUnwrap(fixture.split(separator: "\n").first { $0.contains(#"rel="next""#) })
            // A page whose heading names `guess` and whose end names `next` (or nothing).
            let page = { (guess: String, next: String?) in
                fixture.replacingOccurrences(of: link, with: #"<atom:link rel="next" href="\#(server.baseURL)/rss.xml?offset=\#(guess)"/>"#)
                    .replacingOccurrences(of: "</channel>", with: next.map {
                        #"<atom:link rel="next" href="\#(server.baseURL)/rss.xml?offset=\#($0)"/></channel>"#
                    } ?? "</channel>")
            }
            let guessed = fixture.replacingOccurrences(of: link + "\n", with: "")
                .replacingOccurrences(of: "Rock &amp;amp; Roll", with: "Not this page")
            server.route("/rss.xml") { request in
                switch request.query["offset"] {
                case "guess", "guess2": .text(guessed, contentType: "application/rss+xml")
                case "real": .text(page("guess2", "last"), contentType: "application/rss+xml")
                case "last": .text(fixture.replacingOccurrences(of: link + "\n", with: ""), contentType: "application/rss+xml")
                default: .text(page("guess", "real"), contentType: "application/rss+xml")
                }
            }
            let run = loadEveryPage(try DeviantArtSource(username: "inkwell", endpointOverride: server.baseURL))
            XCTAssertEqual(run.feed.state, .finished)
            XCTAssertEqual(run.pages.map(\.count), [4, 4, 4])
            XCTAssertFalse(run.pages.joined().contains { $0.title == "Not this page" }, "the guessed page's items")
            XCTAssertEqual(run.feed.pagesAskedAhead, 1, "no guess after a wrong one")
            XCTAssertEqual(server.requestLog.filter { $0.contains("offset=guess2") }, [])
            XCTAssertEqual(server.requestLog.filter { $0.contains("offset=real") || $0.contains("offset=last") }.count, 2)
        }
    }

    /// A feed cancelled (a new search, `--download` stopped) while a page asked for ahead is on its way hands
    /// nothing more over, and keeps neither itself nor its client alive for that answer.
    func testCancellingWhileAPageIsAskedForAheadDropsIt() throws {
        try MainActor.assumeIsolated {
            let server = try startDemoServer()
            server.holdsResponse = { $0.contains("offset=24") }
            weak var weakFeed: GalleryFeed?
            weak var weakClient: HTTPClient?
            var pages = 0
            do {
                let client = HTTPClient()
                let feed = GalleryFeed(source: try DeviantArtSource(username: "atlas", endpointOverride: server.baseURL, kind: .demo),
                                       client: client)
                weakFeed = feed
                weakClient = client
                feed.loadAllPages(page: { _ in pages += 1 }, end: { _ in XCTFail("the feed was cancelled") })
                XCTAssertTrue(iterateMainLoop(until: { server.heldResponseCount > 0 && pages == 1 }, timeout: 60))
                XCTAssertEqual(feed.pagesAskedAhead, 1, "page 2 was asked for ahead")
                feed.cancel()
            }
            server.releaseHeldResponses()
            XCTAssertTrue(iterateMainLoop(until: { weakFeed == nil && weakClient == nil }, timeout: 60),
                          "nothing keeps the feed or its client for the answer given up")
            // The released answer ends at the server; with the feed and its client gone no one can take it.
            XCTAssertTrue(iterateMainLoop(until: { server.responsesInFlight == 0 }, timeout: 60))
            drainMainLoop()
            XCTAssertEqual(pages, 1, "nothing handed over after the cancel")
        }
    }

    /// A feed let go without `cancel()` (a gallery replaced while the client lives on) stops what it has in
    /// flight: the page it asked for ahead ends at once, while the server still holds its answer, instead of
    /// running on for nobody.
    func testAFeedLetGoStopsItsRequests() throws {
        try MainActor.assumeIsolated {
            let server = try startDemoServer()
            server.holdsResponse = { $0.contains("offset=24") }
            let client = HTTPClient()
            var pages = 0
            do {
                let feed = GalleryFeed(source: try DeviantArtSource(username: "atlas", endpointOverride: server.baseURL, kind: .demo),
                                       client: client)
                feed.loadAllPages(page: { _ in pages += 1 }, end: { _ in XCTFail("the feed was let go") })
                XCTAssertTrue(iterateMainLoop(until: { server.heldResponseCount > 0 && pages == 1 }, timeout: 60))
                XCTAssertEqual(feed.pagesAskedAhead, 1, "page 2 was asked for ahead")
                XCTAssertEqual(client.fetchesInFlight, 1)
            }
            XCTAssertTrue(iterateMainLoop(until: { client.fetchesInFlight == 0 }, timeout: 60),
                          "the page asked for ahead is still wanted by a feed that is gone")
            server.releaseHeldResponses()
            // The released answer ends at the server with no fetch of the client's left to take it.
            XCTAssertTrue(iterateMainLoop(until: { server.responsesInFlight == 0 }, timeout: 60))
            drainMainLoop()
            XCTAssertEqual(client.fetchesInFlight, 0)
            XCTAssertEqual(pages, 1)
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
            iterateMainLoop(until: { if case .failed = feed.state { true } else { false } }, timeout: 60)
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
            XCTAssertTrue(iterateMainLoop(until: { ended }, timeout: 60))
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
            XCTAssertTrue(iterateMainLoop(until: { feed.waitReason != nil }, timeout: 60))
            XCTAssertEqual(feed.waitReason, .refusingForNow(service: "DeviantArt", retryAfterSeconds: 7))
            feed.cancel()
        }
    }
}
