import GObjectBindings
import TestSupport
import XCTest
@testable import GalleryCore

/// BlueskySource on replies written from the lexicons (data/fixtures/bluesky): the profile, two pages of
/// the author feed, statuses and errors, and hostile bodies.
extension BlueskySourceTests {
    static let did = "did:plc:gmoqedkttnau72v3gujfn4b6"
    static let cdn = "https://cdn.bsky.app/img"

    // MARK: - Profile

    func testTheProfileLeadsToTheDIDDocumentThenTheFeedByDIDWithoutItems() throws {
        let source = try alice()
        let result = try source.parse(response(Self.fixture("profile.json")), of: source.firstRequest())
        XCTAssertEqual(result.items, [])
        let identity = try XCTUnwrap(result.next)
        XCTAssertEqual(identity.url, "https://plc.directory/did:plc:gmoqedkttnau72v3gujfn4b6")
        XCTAssertEqual(identity.stage, BlueskyIdentity.stage)
        XCTAssertEqual(identity.context, Self.did)
        // Without the document (it failed, or was slow) the feed goes on all the same.
        let next = try XCTUnwrap(identity.fallback?.request)
        XCTAssertEqual(next.url, "https://public.api.bsky.app/xrpc/app.bsky.feed.getAuthorFeed?actor=did%3Aplc%3Agmoqedkttnau72v3gujfn4b6&filter=posts_with_media&limit=50")
        XCTAssertEqual(next.stage, BlueskySource.Stage.feed)
        XCTAssertEqual(next.method, "GET")
        XCTAssertNil(next.body)
        XCTAssertNil(next.context, "no PDS known")
    }

    func testAnAccountHiddenFromLoggedOutViewersSaysSo() throws {
        let source = try BlueskySource(actor: "carol.bsky.social", endpointOverride: nil)
        XCTAssertThrowsError(try source.parse(response(Self.fixture("profile-no-unauthenticated.json")), of: source.firstRequest())) {
            let error = $0 as? GalleryError
            XCTAssertEqual(error, .onlyForSignedInViewers(service: "Bluesky", username: "carol.bsky.social"))
            XCTAssertEqual(error?.title, "carol.bsky.social shows posts to signed-in people only")
            XCTAssertTrue(error?.explanation.contains("not to show their posts to people who are not signed in") == true)
        }
        // Taken back by a negation: shown.
        let negated = Self.fixture("profile-no-unauthenticated.json").replacingOccurrences(
            of: #""val": "!no-unauthenticated","#, with: #""val": "!no-unauthenticated", "neg": true,"#)
        XCTAssertNotNil(try source.parse(response(negated), of: source.firstRequest()).next)
    }

    func testProfileDIDsThatAreNotDIDsAreMalformed() throws {
        let source = try alice()
        for did in ["", "alice.bsky.social", "did:plc:../../admin", "did:plc:x?y=1", "did:evil:abc"] {
            assertMalformed(try source.parse(response(#"{"did":"\#(did)","handle":"alice.bsky.social"}"#), of: source.firstRequest()), did)
        }
        assertMalformed(try source.parse(response(#"{"handle":"alice.bsky.social"}"#), of: source.firstRequest()))
    }

    // MARK: - Feed pages

    func testTheFirstPageHasTheAuthorsOwnImagesAndVideo() throws {
        let page = try feedPage("author-feed-page1.json")
        let items = page.items
        XCTAssertEqual(items.map(\.title), [
            "Harbour study, two takes 🌊 (1/2)", "Harbour study, two takes 🌊 (2/2)",
            "Timelapse of the harbour drawing", "Drew Bob's desk from his photo", "Figure study (life drawing class)",
            "Tile one", "Tile two", "Post by @alice.bsky.social, 2024-04-28 (3/3)", "Zombie concept art",
        ])
        XCTAssertEqual(page.next?.url, "https://public.api.bsky.app/xrpc/app.bsky.feed.getAuthorFeed?actor=did%3Aplc%3Agmoqedkttnau72v3gujfn4b6&filter=posts_with_media&limit=50&cursor=2024-04-26T09%3A00%3A00.000Z")

        let first = items[0]
        XCTAssertEqual(first.kind, .image)
        XCTAssertEqual(first.pageURL, "https://bsky.app/profile/alice.bsky.social/post/3keb6umbwcnco")
        XCTAssertEqual(first.altText, "Ink drawing of fishing boats at low tide")
        XCTAssertEqual(first.published, 1_714_641_342, "the record's createdAt, 2024-05-02T09:15:42.118Z")
        XCTAssertEqual(first.author, "alice.bsky.social")
        XCTAssertEqual(first.fullImageURL, "\(Self.cdn)/feed_fullsize/plain/\(Self.did)/bafkreiulbc363a4dqupeblw3m35gfmuzobeklapqs6n6nzzmubvnx5ds4m@jpeg")
        XCTAssertEqual(first.thumbnails, [.init(url: "\(Self.cdn)/feed_thumbnail/plain/\(Self.did)/bafkreiulbc363a4dqupeblw3m35gfmuzobeklapqs6n6nzzmubvnx5ds4m@jpeg")])
        XCTAssertEqual(first.fileName, "3keb6umbwcnco-1.jpg")
        XCTAssertEqual(items[1].fileName, "3keb6umbwcnco-2.jpg")
        XCTAssertNil(items[1].altText, "an empty alt text is none")
        XCTAssertFalse(first.isSensitive)

        let video = items[2]
        XCTAssertEqual(video.kind, .video)
        XCTAssertNil(video.fullImageURL, "a video opens the post in the browser")
        XCTAssertEqual(video.pageURL, "https://bsky.app/profile/alice.bsky.social/post/3kbmrhngj2no5")
        XCTAssertEqual(video.thumbnails.first?.url, "https://video.bsky.app/watch/did%3Aplc%3Agmoqedkttnau72v3gujfn4b6/bafkreigxhlre56sfxx5sx3rt5f54fqroq4htkpfgbhwpwjvwjnph5ngax6/thumbnail.jpg")
        XCTAssertEqual(video.altText, "A drawing appears stroke by stroke")

        XCTAssertEqual(items[3].altText, "Pencil sketch of a cluttered desk", "a quote's own media, not the quoted post's")
        XCTAssertTrue(items[4].isSensitive, "self-labelled nudity")
        XCTAssertTrue(items[8].isSensitive, "graphic-media from a moderation service")
        XCTAssertEqual(items[5].fileName, "3kopuy6o4evr4-1.webp", "the gallery's CDN URLs name webp")
        XCTAssertEqual(items[5].kind, .image)
        XCTAssertEqual(Set(items.map(\.id)).count, items.count)
        for item in items {
            XCTAssertTrue(item.pageURL?.hasPrefix("https://bsky.app/profile/alice.bsky.social/post/") == true, item.title)
        }
    }

    func testRepostsQuotesAndLinkCardsAreLeftOutWithReasons() throws {
        let page = try BlueskyItems.page(from: Fixtures.bytes("bluesky/author-feed-page1.json"), did: Self.did,
                                         username: "alice.bsky.social", baseURL: nil)
        XCTAssertEqual(page.postCount, 9)
        XCTAssertEqual(page.content.skippedCount, 3)
        XCTAssertTrue(page.content.skipped[0].hasSuffix("a repost"), page.content.skipped[0])
        XCTAssertTrue(page.content.skipped[1].hasSuffix("a quote without media of its own"), page.content.skipped[1])
        XCTAssertTrue(page.content.skipped[2].hasSuffix("a link card, no media"), page.content.skipped[2])
        XCTAssertFalse(page.items.contains { $0.title.contains("Sunset") || $0.title.contains("desk!") })
    }

    func testTheLastPageHasNoCursorAndANegatedLabelIsNone() throws {
        let page = try feedPage("author-feed-page2.json")
        XCTAssertNil(page.next)
        XCTAssertEqual(page.items.map(\.title), ["Here is mine!", "Beach at dawn"])
        XCTAssertEqual(page.items.map(\.isSensitive), [false, false], "the sexual label was negated")
    }

    func testAnEmptyFeedEndsTheGalleryEvenWithACursor() throws {
        let page = try feedPage(body: #"{"feed":[],"cursor":"2024-01-01T00:00:00.000Z"}"#)
        XCTAssertEqual(page.items, [])
        XCTAssertNil(page.next)
    }

    func testAccountLabelsMakeEveryPostSensitive() throws {
        let body = Self.fixture("author-feed-page2.json").replacingOccurrences(
            of: #""labels": [],"#, with: #""labels": [{"src":"did:plc:ar7c4by46qjdydhdevvrndac","uri":"at://x","val":"porn","cts":"2024-01-01T00:00:00Z"}],"#)
        XCTAssertEqual(try feedPage(body: body).items.map(\.isSensitive), [true, true])
    }

    func testPostsByAnotherAccountAreNotTheGallerys() throws {
        let page = try feedPage("author-feed-page2.json", did: "did:plc:aaaaaaaaaaaaaaaaaaaaaaaa")
        XCTAssertEqual(page.items, [])
        XCTAssertNil(page.next)
    }

    // MARK: - Statuses and errors

    func testXRPCErrorsBecomeMessages() throws {
        let source = try alice()
        let cases: [(String, UInt32, GalleryError)] = [
            (Self.fixture("error-profile-not-found.json"), 400, .noSuchUser(service: "Bluesky", username: "alice.bsky.social")),
            (Self.fixture("error-account-deactivated.json"), 400,
             .accountUnavailable(service: "Bluesky", username: "alice.bsky.social", reason: "The account is deactivated.")),
            (#"{"error":"AccountTakedown","message":"Account has been suspended"}"#, 400,
             .accountUnavailable(service: "Bluesky", username: "alice.bsky.social", reason: "The account is suspended.")),
            (#"{"error":"AuthMissing","message":"Authentication Required"}"#, 401, .signInRequired(service: "Bluesky")),
            (#"{"error":"InvalidRequest","message":"Error: limit must be <= 100"}"#, 400, .refused(service: "Bluesky", status: 400)),
            ("", 503, .serverError(service: "Bluesky", status: 503, reason: "HTTP 503 OK")),
        ]
        for (body, status, expected) in cases {
            for request in [source.firstRequest(), feedRequest()] {
                XCTAssertThrowsError(try source.parse(response(body, status: status), of: request), body) {
                    XCTAssertEqual($0 as? GalleryError, expected)
                }
            }
        }
        XCTAssertThrowsError(try source.parse(response(#"{"error":"MethodNotImplemented"}"#, status: 404), of: source.firstRequest())) {
            guard case .malformedResponse("Bluesky", let detail) = $0 as? GalleryError else { return XCTFail("\($0)") }
            XCTAssertTrue(detail.contains("Is this a Bluesky AppView?"), detail)
        }
    }

    func testRateLimitsCarryTheirWait() throws {
        let source = try alice()
        XCTAssertThrowsError(try source.parse(response("", status: 429, headers: ["retry-after": "7"]), of: feedRequest())) {
            XCTAssertEqual($0 as? GalleryError, .rateLimited(service: "Bluesky", retryAfterSeconds: 7))
        }
        // Bluesky's RateLimit-Reset is a Unix time.
        let reset = Int(DateText.now()) + 90
        XCTAssertThrowsError(try source.parse(response("", status: 429, headers: ["ratelimit-reset": "\(reset)", "ratelimit-remaining": "0"]),
                                              of: feedRequest())) {
            guard case .rateLimited("Bluesky", let seconds?) = $0 as? GalleryError else { return XCTFail("\($0)") }
            XCTAssertTrue((85...91).contains(seconds), "\(seconds)")
        }
    }

    // MARK: - Helpers

    func alice(override: String? = nil) throws -> BlueskySource {
        try BlueskySource(actor: "alice.bsky.social", endpointOverride: override)
    }

    func feedRequest(did: String = BlueskySourceTests.did, cursor: String? = nil) -> PageRequest {
        let query = "actor=\(URLText.encodeComponent(did))&filter=posts_with_media&limit=50"
            + (cursor.map { "&cursor=\(URLText.encodeComponent($0))" } ?? "")
        return PageRequest(url: "https://public.api.bsky.app/xrpc/app.bsky.feed.getAuthorFeed?\(query)",
                           stage: BlueskySource.Stage.feed, headers: ["Accept": "application/json"])
    }

    func feedPage(_ fixture: String? = nil, body: String? = nil, did: String = BlueskySourceTests.did) throws -> PageResult {
        try alice().parse(response(body ?? Self.fixture(fixture!)), of: feedRequest(did: did))
    }

    func response(_ body: String, status: UInt32 = 200, headers: [String: String] = [:],
                  url: String = "https://public.api.bsky.app/xrpc/app.bsky.actor.getProfile?actor=alice.bsky.social") -> HTTPResponse {
        HTTPResponse(head: HTTPResponseHead(status: status, reason: "OK", url: url, headers: headers, mediaType: "application/json"),
                     body: Bytes(body))
    }

    static func fixture(_ name: String) -> String { Fixtures.text("bluesky/\(name)") }

    func assertMalformed(_ expression: @autoclosure () throws -> PageResult, _ message: String = "",
                         file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try expression(), message, file: file, line: line) { error in
            guard case .malformedResponse("Bluesky", _) = error as? GalleryError else {
                return XCTFail("\(message): \(error)", file: file, line: line)
            }
        }
    }
}
