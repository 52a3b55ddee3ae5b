import CGLib
import Foundation
import GObjectBindings
import GalleryDemoServer
import GalleryHostileServer
import Synchronization
import TestSupport
import XCTest
@testable import GalleryCore

/// Feeds from the hostile server through GalleryFeed and the real parsers: each ends in items or a message,
/// stopped by the parser's limits (depth, items, bytes, entries decoded), which the tests check by what was
/// kept and counted rather than by a clock.
final class HostileFeedTests: GLibTestCase {
    @MainActor
    private static func run(_ feed: HostileFeed, on server: HostileServer) throws -> FeedRun {
        // Bounded for a run that hangs; the limits end a working one long before.
        loadEveryPage(try SourceKind.demo.makeSource(username: feed.rawValue, endpointOverride: server.baseURL), timeout: 120)
    }

    @MainActor
    private static func detail(_ run: FeedRun) -> String? {
        if case .failed(.malformedResponse(_, let detail)) = run.feed.state { detail } else { nil }
    }

    func testBrokenDocumentsEndInAMessage() throws {
        try MainActor.assumeIsolated {
            let server = HostileServer()
            try server.start()
            let expected: [(HostileFeed, String)] = [
                (.billionLaughs, "The feed is not valid XML"),
                (.truncated, "The feed is not valid XML"),
                (.deepNesting, "The feed is not valid XML: The feed is nested too deeply"),
                (.html, "The feed is not valid XML"),
                (.hugeTitle, "The page is too large."),
            ]
            for (feed, prefix) in expected {
                let before = server.requestCount
                let run = try Self.run(feed, on: server)
                XCTAssertTrue(Self.detail(run)?.hasPrefix(prefix) ?? false, "\(feed): \(run.feed.state)")
                XCTAssertEqual(server.requestCount - before, 1, "\(feed): refused on the first reply, not retried")
            }
        }
    }

    func testPagingThatNeverEndsIsStoppedWithAnHonestMessage() throws {
        try MainActor.assumeIsolated {
            let server = HostileServer()
            try server.start()
            let loop = try Self.run(.selfLoop, on: server)
            XCTAssertEqual(loop.feed.state, .failed(.pagingLoop(service: "Demo")))
            XCTAssertEqual(loop.pages.count, 1, "the page itself is kept")

            let before = server.requestCount
            let empty = try Self.run(.emptyPages, on: server)
            XCTAssertEqual(empty.feed.state, .failed(.emptyPages(service: "Demo", count: 5)))
            XCTAssertEqual(server.requestCount - before, 5, "five empty pages, not a thousand")
            XCTAssertEqual(GalleryError.emptyPages(service: "Demo", count: 5).title, "Demo sent only empty pages")
        }
    }

    /// At the edge: a next link of `maxLinkBytes` is followed, one a byte longer ends the feed with a message.
    func testANextPageLinkLongerThanTheLimitEndsTheFeed() throws {
        try MainActor.assumeIsolated {
            XCTAssertEqual(HostileFeed.longNextLinkBytes, PagingGuard.maxLinkBytes)
            let server = HostileServer()
            try server.start()
            let run = try Self.run(.longNextLink, on: server)
            XCTAssertEqual(run.pages.count, 2, "the page behind the link at the limit was read")
            XCTAssertEqual(Self.detail(run), "The next page’s address is longer than 8 KB.")
            XCTAssertEqual(server.requestCount, 2, "the over-long link was not requested")
        }
    }

    func testRateLimitsAreRetriedABoundedNumberOfTimesWithBackoff() throws {
        try MainActor.assumeIsolated {
            let server = HostileServer()
            try server.start()
            for feed in [HostileFeed.rateLimited, .rateLimitedBare] {
                let before = server.requestCount
                let run = try Self.run(feed, on: server)
                XCTAssertEqual(run.feed.state, .failed(.rateLimited(service: "Demo", retryAfterSeconds: nil)), "\(feed)")
                XCTAssertEqual(server.requestCount - before, 6, "\(feed): the first request and five retries")
                XCTAssertEqual(run.states.filter { if case .waiting = $0 { true } else { false } }.count, 5)
            }
            // Without the test's short backoff, `Retry-After: 0` still waits: 1–2 s, then 2–4 s, …
            let feed = GalleryFeed(source: try SourceKind.demo.makeSource(username: "rate-limited", endpointOverride: server.baseURL),
                                   client: HTTPClient())
            feed.loadNextPage { _ in }
            XCTAssertTrue(iterateMainLoop(until: { if case .waiting = feed.state { true } else { false } }, timeout: 60))
            guard case .waiting(_, let seconds) = feed.state else { return XCTFail("\(feed.state)") }
            XCTAssertTrue((1...2).contains(seconds), "waits \(seconds) s after Retry-After: 0")
            feed.cancel()
        }
    }

    func testHugeRepliesAreCutToWhatARealPageHolds() throws {
        try MainActor.assumeIsolated {
            let server = HostileServer()
            try server.start()
            let many = try Self.run(.manyItems, on: server)
            XCTAssertEqual(many.feed.state, .finished)
            XCTAssertEqual(many.pages.joined().count, MediaRSSParser.maxItems, "100,000 items in a reply; the first 1000 kept")
            XCTAssertTrue(many.pages.allSatisfy { $0.count <= fastFeedLimits.maxItemsPerDelivery },
                          "handed over a slice per main-loop turn: \(many.pages.map(\.count))")
            XCTAssertTrue(many.pages.joined().allSatisfy { $0.thumbnails.first?.url.hasPrefix(server.baseURL) == true },
                          "relative thumbnail URLs are resolved against the feed")

            let long = try Self.run(.longTitle, on: server)
            XCTAssertEqual(long.pages.joined().count, 1)
            XCTAssertLessThanOrEqual(long.pages.joined().first?.title.count ?? .max, 1001)
        }
    }

    func testAMastodonReplyOfMillionsOfZerosIsDecodedInBoundedWork() throws {
        try MainActor.assumeIsolated {
            let server = HostileServer()
            try server.start()
            let run = loadEveryPage(try MastodonSource(account: "zeros@hostile.example", endpointOverride: server.baseURL),
                                    timeout: 120)
            guard case .failed(.malformedResponse("Mastodon", let detail)) = run.feed.state else {
                return XCTFail("\(run.feed.state)")
            }
            XCTAssertTrue(detail.hasPrefix("No post on the page could be read."), detail)

            // The work is bounded by count, not by time: of a list of any length, only the first entries are decoded.
            let post = { (id: String) in
                #"{"id":"\#(id)","media_attachments":[{"id":"\#(id)","type":"image","url":"https://f.example/\#(id).png"}]}"#
            }
            let mixed = "[" + post("first") + "," + Array(repeating: "0", count: 10_000).joined(separator: ",") + ","
                + post("last") + "]"
            let capped = try MastodonSource.items(from: Bytes(mixed), fallbackAuthor: "x")
            XCTAssertEqual(capped.items.map(\.id), ["first"], "entries past the first \(CappedList<Int>.limit) are not decoded")
            XCTAssertEqual(capped.skipped.count, MastodonSource.maxSkippedReasons, "the reasons kept are bounded")
            XCTAssertEqual(capped.skippedCount, CappedList<Int>.limit - 1 + 1, "each broken entry counted, and the rest as one")
        }
    }

    func testPagesAreParsedOffTheMainLoop() throws {
        try MainActor.assumeIsolated {
            let server = try TestHTTPServer()
            server.route("/page") { _ in .text("page") }
            let probe = ParseProbe(mainThread: pthread_self())
            // Answers the parse from the main loop, only once the parse has begun: an answer while it runs
            // shows the main loop kept turning during the parse.
            let watcher = MainLoopSource.every(milliseconds: 5) {
                guard probe.parsing.isSet else { return true }
                probe.answered.set()
                return false
            }
            defer { watcher.cancel() }
            let run = loadEveryPage(WaitingSource(url: server.url("/page"), probe: probe), timeout: 120)
            XCTAssertEqual(probe.parsedOnMainThread.isSet, false, "the parse ran on the main thread")
            XCTAssertEqual(run.pages.first?.first?.title, "main loop ran meanwhile")
        }
    }

    func testTitlesLoseControlCharactersAndLinksLoseOtherSchemes() throws {
        try MainActor.assumeIsolated {
            let server = HostileServer()
            try server.start()
            let titles = try Self.run(.controlCharacters, on: server).pages.joined().map(\.title)
            XCTAssertEqual(titles, ["Bell and [31mred [0m and ]0;title", "Tab here new line and CSI and gpj.exe"])

            let items = try Self.run(.gallery, on: server).pages.joined()
            for item in items {
                let urls = [item.fullImageURL, item.pageURL].compactMap { $0 } + item.thumbnails.map(\.url)
                XCTAssertTrue(urls.allSatisfy(URLText.isWebAddress), "\(item.title): \(urls)")
            }
            let odd = Dictionary(uniqueKeysWithValues: items.filter { $0.title.hasPrefix("Odd URL: ") }
                .map { (String($0.title.dropFirst("Odd URL: ".count)), $0) })
            XCTAssertEqual(odd["Relative path"]?.thumbnails.first?.url, server.baseURL + "/img/valid?odd=relative")
            XCTAssertEqual(odd["Protocol-relative"]?.thumbnails.first?.url, server.baseURL + "/img/valid?odd=protocol-relative")
            for name in ["Data URL", "JavaScript URL", "FTP URL", "Malformed URL", "File URL"] {
                XCTAssertEqual(odd[name]?.mediaURLRejected, true, name)
                XCTAssertEqual(odd[name]?.thumbnails, [], name)
            }
            XCTAssertTrue(odd.values.allSatisfy { $0.pageURL == nil }, "file:, smb: and javascript: links are dropped")
        }
    }
}

private final class Flag: Sendable {
    private let value = Atomic<Bool>(false)
    func set() { value.store(true, ordering: .sequentiallyConsistent) }
    var isSet: Bool { value.load(ordering: .sequentiallyConsistent) }
}

/// What a `WaitingSource`'s parse saw.
private final class ParseProbe: Sendable {
    let mainThread: pthread_t
    /// Set by the parse when it begins.
    let parsing = Flag()
    /// Set by the main loop when it sees the parse running.
    let answered = Flag()
    let parsedOnMainThread = Flag()

    init(mainThread: pthread_t) { self.mainThread = mainThread }
}

/// A source whose parse records its thread, then waits for the main loop to answer while it runs, and says
/// whether the answer came.
private struct WaitingSource: GallerySource {
    let url: String
    let probe: ParseProbe
    var kind: SourceKind { .demo }
    var username: String { "waiting" }
    var endpoint: Endpoint { Endpoint(canonical: "http://127.0.0.1") }
    func firstRequest() -> PageRequest { PageRequest(url: url) }

    func parse(_ response: HTTPResponse, of request: PageRequest) throws(GalleryError) -> PageResult {
        if pthread_equal(pthread_self(), probe.mainThread) != 0 { probe.parsedOnMainThread.set() }
        probe.parsing.set()
        // On the main thread no answer can come while this waits: do not sit out the bound for nothing.
        if !probe.parsedOnMainThread.isSet {
            // Bounded only for a failing run (the main loop blocked meanwhile); a working one answers in a turn.
            let deadline = g_get_monotonic_time() + 120_000_000
            while !probe.answered.isSet && g_get_monotonic_time() < deadline { g_usleep(1000) }
        }
        let title = probe.answered.isSet ? "main loop ran meanwhile" : "main loop was blocked"
        return PageResult(items: [GalleryItem(id: "1", title: title, fullImageURL: url)], next: nil)
    }
}
