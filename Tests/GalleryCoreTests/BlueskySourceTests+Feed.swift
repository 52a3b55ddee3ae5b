import GObjectBindings
import TestSupport
import XCTest
@testable import GalleryCore

/// BlueskySource driven by GalleryFeed over real HTTP (TestHTTPServer on 127.0.0.1) with the fixtures, and on
/// hostile bodies.
extension BlueskySourceTests {
    func testFeedPagesByCursorWaitingOutARateLimit() throws {
        try MainActor.assumeIsolated {
            let server = try TestHTTPServer()
            let (profile, page1, page2) = (Self.fixture("profile.json"), Self.fixture("author-feed-page1.json"),
                                           Self.fixture("author-feed-page2.json"))
            var limited = false
            server.route("/xrpc/app.bsky.actor.getProfile") { request in
                request.query["actor"] == "alice.bsky.social" ? Self.json(profile)
                    : Self.json(Self.fixture("error-profile-not-found.json"), status: 400)
            }
            server.route("/xrpc/app.bsky.feed.getAuthorFeed") { request in
                guard request.query["actor"] == Self.did, request.query["filter"] == "posts_with_media" else { return .status(400) }
                switch request.query["cursor"] {
                case nil: return Self.json(page1)
                case "2024-04-26T09:00:00.000Z" where !limited:
                    limited = true
                    // Bluesky's own answer: 429 with the RateLimit-* headers, the reset a Unix time.
                    return Self.json(#"{"error":"RateLimitExceeded","message":"Rate Limit Exceeded"}"#, status: 429)
                        .header("RateLimit-Limit", "3000").header("RateLimit-Remaining", "0")
                        .header("RateLimit-Reset", String(Int(DateText.now()) + 1)).header("RateLimit-Policy", "3000;w=300")
                case "2024-04-26T09:00:00.000Z": return Self.json(page2)
                default: return .status(400)
                }
            }
            // The DID document names this server as the PDS (the override stands for plc.directory too).
            server.route("/\(Self.did)") { _ in
                Self.json(Self.fixture("did-plc.json").replacingOccurrences(of: "https://morel.us-east.host.bsky.network", with: server.baseURL))
            }
            let run = loadEveryPage(try BlueskySource(actor: "@alice.bsky.social", endpointOverride: server.baseURL))
            XCTAssertEqual(run.feed.state, .finished)
            XCTAssertEqual(run.pages.map(\.count), [9, 2])
            XCTAssertTrue(run.states.contains { if case .waiting(page: 2, _) = $0 { true } else { false } }, "\(run.states)")
            XCTAssertEqual(server.requestLog.map { $0.split(separator: "?")[0] },
                           ["/xrpc/app.bsky.actor.getProfile", "/\(Self.did)"] + Array(repeating: "/xrpc/app.bsky.feed.getAuthorFeed", count: 3))
            XCTAssertEqual(run.pages.joined().first { $0.kind == .video }?.media?.url,
                           server.url("/xrpc/com.atproto.sync.getBlob?did=did%3Aplc%3Agmoqedkttnau72v3gujfn4b6&cid=bafkreigxhlre56sfxx5sx3rt5f54fqroq4htkpfgbhwpwjvwjnph5ngax6"))

            let missing = loadEveryPage(try BlueskySource(actor: "nobody.bsky.social", endpointOverride: server.baseURL))
            XCTAssertEqual(missing.feed.state, .failed(.noSuchUser(service: "Bluesky", username: "nobody.bsky.social")))
        }
    }

    /// The DID document is a lookup the gallery does without: a connection that breaks, or a server that
    /// never answers (given up after `optionalAnswerMilliseconds`), leaves the videos opening the post.
    func testTheGalleryGoesOnWhenTheDIDDocumentFailsOrNeverComes() throws {
        try MainActor.assumeIsolated {
            let server = try TestHTTPServer()
            server.route("/xrpc/app.bsky.actor.getProfile") { _ in Self.json(Self.fixture("profile.json")) }
            server.route("/xrpc/app.bsky.feed.getAuthorFeed") { request in
                Self.json(Self.fixture(request.query["cursor"] == nil ? "author-feed-page1.json" : "author-feed-page2.json"))
            }
            for (answer, fault) in [(Self.json(Self.fixture("did-plc.json")).truncated(afterBytes: 40), "cut off"),
                                    (Self.json(Self.fixture("did-plc.json")).stalled(afterBytes: 0), "never answered")] {
                server.route("/\(Self.did)") { _ in answer }
                let source = try BlueskySource(actor: "alice.bsky.social", endpointOverride: server.baseURL)
                // The wait for an optional answer is short here so the test is quick; the feed's end is what is
                // waited for (loadEveryPage's generous timeout), not a time.
                // Without that wait the stalled answer would hold the feed for good: the client gives up on a
                // silent server only after an hour here, and loadEveryPage after two minutes.
                let patient = HTTPClient(configuration: .init(ioTimeoutSeconds: 3600, throughputWindowSeconds: 3600))
                let run = loadEveryPage(source, limits: GalleryFeed.Limits(backoffMilliseconds: 10, optionalAnswerMilliseconds: 200),
                                        client: patient)
                XCTAssertEqual(run.feed.state, .finished, fault)
                XCTAssertEqual(run.pages.map(\.count), [9, 2], fault)
                let video = run.pages.joined().first { $0.kind == .video }
                XCTAssertNotNil(video?.pageURL, fault)
                XCTAssertNil(video?.media, fault)
            }
        }
    }

    func testAnEndlessCursorStopsAndARepeatedOneIsALoop() throws {
        try MainActor.assumeIsolated {
            let server = try TestHTTPServer()
            server.route("/xrpc/app.bsky.actor.getProfile") { _ in Self.json(Self.fixture("profile.json")) }
            // Every page empty of the author's media but naming a new cursor: stopped after a few.
            server.route("/xrpc/app.bsky.feed.getAuthorFeed") { request in
                let next = (Int(request.query["cursor"] ?? "0") ?? 0) + 1
                return Self.json(#"{"feed":[{"post":{"uri":"at://did:plc:x/app.bsky.feed.post/1","author":{"did":"did:plc:x","handle":"x.test"}}}],"cursor":"\#(next)"}"#)
            }
            let endless = loadEveryPage(try BlueskySource(actor: "alice.bsky.social", endpointOverride: server.baseURL))
            XCTAssertEqual(endless.feed.state, .failed(.emptyPages(service: "Bluesky", count: 5)))

            server.route("/xrpc/app.bsky.feed.getAuthorFeed") { _ in
                Self.json(Self.fixture("author-feed-page2.json").replacingOccurrences(of: "\n}\n", with: #","cursor":"same"}"#))
            }
            let looping = loadEveryPage(try BlueskySource(actor: "alice.bsky.social", endpointOverride: server.baseURL))
            XCTAssertEqual(looping.feed.state, .failed(.pagingLoop(service: "Bluesky")))
            XCTAssertEqual(looping.pages.map(\.count), [2, 2])
        }
    }

    // MARK: - Hostile bodies

    func testOddSchemesAreDroppedAndRelativeURLsResolved() throws {
        func post(_ thumb: String, _ full: String) -> String {
            #"{"feed":[{"post":{"uri":"at://\#(Self.did)/app.bsky.feed.post/3kx","author":{"did":"\#(Self.did)","handle":"alice.bsky.social"},"#
                + #""record":{"text":"odd"},"embed":{"$type":"app.bsky.embed.images#view","images":[{"thumb":"\#(thumb)","fullsize":"\#(full)","alt":""}]}}}]}"#
        }
        let rejected = try feedPage(body: post("javascript:alert(1)", "data:image/png;base64,AAAA")).items
        XCTAssertEqual(rejected.count, 1)
        XCTAssertNil(rejected[0].fullImageURL)
        XCTAssertEqual(rejected[0].thumbnails, [])
        XCTAssertTrue(rejected[0].mediaURLRejected, "the row says “Not a web address”")
        let relative = try alice().parse(response(post("/img/t@jpeg", "//cdn.example/f@png"),
                                                  url: "https://public.api.bsky.app/xrpc/x"), of: feedRequest()).items
        XCTAssertEqual(relative[0].thumbnails.first?.url, "https://public.api.bsky.app/img/t@jpeg")
        XCTAssertEqual(relative[0].fullImageURL, "https://cdn.example/f@png")
        XCTAssertEqual(relative[0].fileName, "3kx.png")
        // A post URI that is not at:// gets no page rather than a made-up one.
        let noPage = try feedPage(body: post("https://a.example/t", "https://a.example/f").replacingOccurrences(
            of: "at://\(Self.did)/app.bsky.feed.post/3kx", with: "https://evil.example/../x")).items
        XCTAssertNil(noPage[0].pageURL)
    }

    func testHugeFeedsDeepNestingAndLongTextsStayBounded() throws {
        let image = #"{"thumb":"https://cdn.example/t@jpeg","fullsize":"https://cdn.example/f@jpeg","alt":"a"}"#
        let post = #"{"post":{"uri":"at://\#(Self.did)/app.bsky.feed.post/3kx","author":{"did":"\#(Self.did)","handle":"alice.bsky.social"},"#
            + #""embed":{"$type":"app.bsky.embed.gallery#view","items":["#
            + Array(repeating: image.replacingOccurrences(of: "{", with: #"{"$type":"app.bsky.embed.gallery#viewImage","#), count: 40)
                .joined(separator: ",") + "]}}}"
        let hugeBody = #"{"feed":["# + Array(repeating: post, count: 2000).joined(separator: ",") + "]}"
        let huge = try feedPage(body: hugeBody)
        XCTAssertEqual(huge.items.count, BlueskyItems.maxItemsPerPage)
        // Bounded by count, not by the reply: only the first `limit` posts are decoded at all. The first 25 (of 40
        // images) fill the page; each decoded post after them is skipped on its own, the undecoded rest counted as one.
        let limit = CappedList<Int>.limit
        let hugePage = try BlueskyItems.page(from: Bytes(hugeBody), did: Self.did, username: "alice", baseURL: nil)
        XCTAssertEqual(hugePage.postCount, 2000)
        XCTAssertEqual(hugePage.content.skippedCount, limit - BlueskyItems.maxItemsPerPage / 40 + 1)

        // Nesting is refused at a fixed depth, however deep the reply goes: the reader stops there.
        for depth in [600, 20_000] {
            let nested = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            assertMalformed(try feedPage(body: #"{"feed":"# + nested + "}"))
            assertMalformed(try alice().parse(response(#"{"did":"did:plc:x","labels":"# + nested + "}"), of: alice().firstRequest()))
            XCTAssertTrue(isRefusedJSON { try self.feedPage(body: #"{"feed":"# + nested + "}") }, "depth \(depth)")
        }
        let shallow = String(repeating: "[", count: 400) + String(repeating: "]", count: 400)
        XCTAssertFalse(isRefusedJSON { try self.feedPage(body: #"{"feed":"# + shallow + "}") },
                       "nesting under the limit is read, and refused for its shape")
        // Embeds inside embeds are not followed.
        let nestedEmbed = #"{"feed":[{"post":{"uri":"at://\#(Self.did)/app.bsky.feed.post/3kx","author":{"did":"\#(Self.did)"},"#
            + #""embed":{"$type":"app.bsky.embed.recordWithMedia#view","media":{"$type":"app.bsky.embed.recordWithMedia#view","media":{"$type":"app.bsky.embed.images#view","images":[\#(image)]}}}}}]}"#
        XCTAssertEqual(try feedPage(body: nestedEmbed).items, [])

        let text = String(repeating: "🐟 very long words ", count: 100_000)
        let long = #"{"feed":[{"post":{"uri":"at://\#(Self.did)/app.bsky.feed.post/3kx","author":{"did":"\#(Self.did)","handle":"alice.bsky.social"},"#
            + #""record":{"text":"\#(text)"},"embed":{"$type":"app.bsky.embed.images#view","images":[{"thumb":"https://c.example/t","fullsize":"https://c.example/f","alt":"\#(text)"}]}}}]}"#
        let item = try XCTUnwrap(feedPage(body: long).items.first)
        XCTAssertLessThanOrEqual(item.title.count, 81)
        XCTAssertLessThanOrEqual(item.altText?.count ?? 0, 1501)

        let longCursor = #"{"feed":[\#(post)],"cursor":"\#(String(repeating: "c", count: 5000))"}"#
        assertMalformed(try feedPage(body: longCursor))
    }

    func testBrokenBodiesAreMalformedWithAReadableDetail() throws {
        let source = try alice()
        let cases: [(body: String, request: PageRequest, detail: String)] = [
            ("", source.firstRequest(), "empty response"),
            ("<!DOCTYPE html><html><body>Welcome to nginx!</body></html>", source.firstRequest(), "Is this a Bluesky AppView?"),
            (String(Self.fixture("author-feed-page1.json").dropLast(300)), feedRequest(), "not valid JSON"),
            ("[]", feedRequest(), "wrong shape"),
            (#"{"cursor":"x"}"#, feedRequest(), "“feed” is missing"),
            (#"{"feed":[1,2,3]}"#, feedRequest(), "No post on the page could be read"),
            (#"{"feed":[{"post":{"uri":"at://x","author":{"did":"did:plc:x"},"embed":{"$type":"app.bsky.embed.images#view","images":{}}}}]}"#,
             feedRequest(), "No post on the page could be read"),
        ]
        for (body, request, detail) in cases {
            XCTAssertThrowsError(try source.parse(response(body), of: request), String(body.prefix(40))) { error in
                guard case .malformedResponse("Bluesky", let text) = error as? GalleryError else { return XCTFail("\(error)") }
                XCTAssertTrue(text.contains(detail), "\(text) lacks \(detail)")
                XCTAssertLessThan(text.count, 300)
            }
        }
    }

    private static func json(_ text: String, status: UInt32 = 200) -> TestResponse {
        .text(text, status: status, contentType: "application/json; charset=utf-8")
    }
}
