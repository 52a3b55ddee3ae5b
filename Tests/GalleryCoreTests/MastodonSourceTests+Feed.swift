import GObjectBindings
import TestSupport
import XCTest
@testable import GalleryCore

/// MastodonSource driven by GalleryFeed over real HTTP (libsoup client ↔ TestHTTPServer on 127.0.0.1),
/// with the API answers built from the fixtures.
extension MastodonSourceTests {
    private static let page2MaxID = "112345600000000000000"
    private static let page3MaxID = "112299999999999999999"

    func testFeedPagesThroughThreePagesWaitingOutARateLimit() throws {
        try MainActor.assumeIsolated {
            let server = try TestHTTPServer()
            let base = server.baseURL  // Routes capture the address, not the server that owns them.
            let statuses = Self.statusesPath
            let (account, page1, page2, page3) = (Self.fixture("account.json"), Self.fixture("statuses-page1.json"),
                                                  Self.fixture("statuses-page2.json"), Self.fixture("statuses-page3.json"))
            var acceptHeaders: Set<String> = []
            var rateLimited = false
            server.route("/api/v1/accounts/lookup") { request in
                acceptHeaders.insert(request.header("accept") ?? "-")
                return request.query["acct"] == "alice" ? Self.json(account) : .status(404)
            }
            server.route(statuses) { request in
                acceptHeaders.insert(request.header("accept") ?? "-")
                let own = base + statuses + "?limit=40&only_media=true&exclude_replies=true"
                let canonical = "https://mastodon.social\(statuses)?limit=40&only_media=true&exclude_replies=true"
                switch request.query["max_id"] {
                case nil:
                    // The link names the real instance: it must be rebased onto the test server. Prev comes first.
                    return Self.json(page1)
                        .header("Link", "<\(canonical)&min_id=1>; rel=\"prev\", <\(canonical)&max_id=\(Self.page2MaxID)>; rel=\"next\"")
                case Self.page2MaxID where !rateLimited:
                    rateLimited = true
                    return TestResponse.text(#"{"error":"Too many requests"}"#, status: 429, contentType: "application/json")
                        .header("Retry-After", "1")
                case Self.page2MaxID:
                    return Self.json(page2)
                        .header("Link", "<\(own)&max_id=\(Self.page3MaxID)>; rel=next, <\(own)&min_id=2>; rel=prev")
                case Self.page3MaxID:
                    return Self.json(page3).header("Link", "<\(own)&min_id=3>; rel=\"prev\"")
                default:
                    return .status(400)
                }
            }

            let run = loadEveryPage(try MastodonSource(account: "@alice@mastodon.social", endpointOverride: server.baseURL))
            XCTAssertEqual(run.feed.state, .finished)
            XCTAssertEqual(run.pages.map(\.count), [3, 4, 1])
            XCTAssertEqual(run.feed.pagesLoaded, 3)
            XCTAssertTrue(run.states.contains(.waiting(page: 2, seconds: 1)), "\(run.states)")
            XCTAssertGreaterThanOrEqual(run.seconds, 0.9, "the Retry-After wait was sat out")
            XCTAssertEqual(server.requestLog.map { $0.split(separator: "?")[0] },
                           ["/api/v1/accounts/lookup"] + Array(repeating: Substring(statuses), count: 4))
            XCTAssertEqual(server.requestLog.compactMap { URLText.queryValue("max_id", in: "http://x" + $0) },
                           [Self.page2MaxID, Self.page2MaxID, Self.page3MaxID])
            XCTAssertEqual(acceptHeaders, ["application/json"])
        }
    }

    func testFeedStopsANextLinkLoopAndAnEndlessFeed() throws {
        try MainActor.assumeIsolated {
            let server = try TestHTTPServer()
            let base = server.baseURL
            let page = Self.fixture("statuses-page3.json")
            server.route("/api/v1/accounts/lookup") { _ in Self.json(#"{"id":"7"}"#) }
            // Page 2 names itself as the next page.
            server.route("/api/v1/accounts/7/statuses") { _ in
                Self.json(page)
                    .header("Link", "<\(base)/api/v1/accounts/7/statuses?max_id=5>; rel=\"next\"")
            }
            let looping = loadEveryPage(try MastodonSource(account: "alice@mastodon.social", endpointOverride: server.baseURL))
            XCTAssertEqual(looping.feed.state, .failed(.pagingLoop(service: "Mastodon")))
            XCTAssertEqual(looping.pages.count, 2)
            XCTAssertEqual(server.requestCount, 3)

            // Always a new next link, never an item: stopped after a few empty replies with its own message
            // (it once ran into the 1,000-request limit and called that a loop).
            server.route("/api/v1/accounts/8/statuses") { request in
                let next = (Int(request.query["max_id"] ?? "1000") ?? 1000) - 1
                return Self.json("[]").header("Link", "<\(base)/api/v1/accounts/8/statuses?max_id=\(next)>; rel=next")
            }
            server.route("/api/v1/accounts/lookup") { _ in Self.json(#"{"id":"8"}"#) }
            server.resetCounters()
            let endless = loadEveryPage(try MastodonSource(account: "bob@mastodon.social", endpointOverride: server.baseURL))
            XCTAssertEqual(endless.feed.state, .failed(.emptyPages(service: "Mastodon", count: 5)))
            XCTAssertEqual(endless.pages.count, 0)
            XCTAssertEqual(server.requestCount, 5, "the lookup and four empty pages")
        }
    }

    func testFeedReportsMissingEmptyAndSignInOnlyAccounts() throws {
        try MainActor.assumeIsolated {
            let server = try TestHTTPServer()
            server.route("/api/v1/accounts/lookup") { request in
                switch request.query["acct"] {
                case "empty": Self.json(#"{"id":"1"}"#)
                case "private": Self.json(#"{"id":"2"}"#)
                default: TestResponse.text(#"{"error":"Record not found"}"#, status: 404, contentType: "application/json")
                }
            }
            server.route("/api/v1/accounts/1/statuses") { _ in Self.json("[]") }
            server.route("/api/v1/accounts/2/statuses") { _ in
                TestResponse.text(#"{"error":"This method requires an authenticated user"}"#, status: 401,
                                  contentType: "application/json")
            }
            let base = server.baseURL
            @MainActor func state(_ account: String) throws -> GalleryFeed.State {
                loadEveryPage(try MastodonSource(account: account, endpointOverride: base)).feed.state
            }
            XCTAssertEqual(try state("nobody@mastodon.social"),
                           .failed(.noSuchUser(service: "Mastodon", username: "nobody@mastodon.social")))
            XCTAssertEqual(try state("empty@mastodon.social"), .failed(.emptyGallery(username: "empty@mastodon.social")))
            XCTAssertEqual(try state("private@mastodon.social"), .failed(.signInRequired(service: "Mastodon")))
        }
    }

    // MARK: - Helpers

    private static func json(_ text: String) -> TestResponse {
        .text(text, contentType: "application/json; charset=utf-8")
    }
}
