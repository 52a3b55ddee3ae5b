import CGLib
import FoundationEssentials
import GObjectBindings
import TestSupport
import XCTest
@testable import GalleryCore

/// MastodonSource without a network: account names, the requests built from them, status codes and hostile
/// bodies. Pages built from the fixtures are in MastodonSourceTests+Pages.swift, the feed against a real
/// server in MastodonSourceTests+Feed.swift.
final class MastodonSourceTests: GLibTestCase {
    static let accountID = "109876543210987654321"
    static let statusesPath = "/api/v1/accounts/\(accountID)/statuses"

    // MARK: - Account names

    func testFullAddressBuildsLookupOnTheInstance() throws {
        let source = try MastodonSource(account: "alice@mastodon.social", endpointOverride: nil)
        XCTAssertEqual(source.username, "alice@mastodon.social")
        XCTAssertEqual(source.endpoint.origin, "https://mastodon.social")
        let request = source.firstRequest()
        XCTAssertEqual(request.url, "https://mastodon.social/api/v1/accounts/lookup?acct=alice")
        XCTAssertEqual(request.stage, MastodonSource.Stage.lookup)
        XCTAssertEqual(request.headers, ["Accept": "application/json"])
    }

    func testLeadingAtSpacesAndCaseAreTolerated() throws {
        let source = try MastodonSource(account: "  @Alice_B@Mastodon.Social \n", endpointOverride: nil)
        XCTAssertEqual(source.user, "Alice_B")
        XCTAssertEqual(source.instance, "mastodon.social")
        XCTAssertEqual(source.username, "Alice_B@mastodon.social")
    }

    func testBareNameAsksForTheInstance() {
        for name in ["alice", "@alice", " alice "] {
            XCTAssertThrowsError(try MastodonSource(account: name, endpointOverride: nil), name) { error in
                guard case .invalidUsername(let reason) = error as? GalleryError else { return XCTFail("\(error)") }
                XCTAssertTrue(reason.contains("Type the full address, like alice@mastodon.social"), reason)
            }
        }
    }

    func testRemoteStyleNamesAreAccepted() throws {
        for name in ["first.last@host.example", "a-b@host.example", "_x_@h.example", "a@b.c", "Z9@xn--mstodon-5ya.example"] {
            XCTAssertNoThrow(try MastodonSource(account: name, endpointOverride: nil), name)
        }
    }

    func testHostileOrBrokenNamesAreRefused() {
        let names = [
            "", "@", "@@", "alice@", "@host.example", "a&q=x@host.example", "../x@host.example", "x/../y@host.example",
            ".alice@host.example", "alice.@host.example", "al ice@host.example", "ålice@host.example", "ali%63e@host.example",
            "alice@evil.com/x", "alice@evil.com?x=1", "alice@evil.com#x", "alice@evil.com@other.com", "alice@host example",
            "alice@höst.example", "alice@host", "alice@.example", "alice@host..example", "alice@-bad.example",
            "alice@bad-.example", "alice@[::1]", "alice@host.example:", "alice@host.example:0", "alice@host.example:65536",
            "alice@host.example:80:80", "alice@host.example:８０", "alice@user:pass@host.example", "alice@host.example\\x",
            String(repeating: "a", count: 65) + "@host.example", "alice@" + String(repeating: "a", count: 64) + ".example",
        ]
        for name in names {
            XCTAssertThrowsError(try MastodonSource(account: name, endpointOverride: nil), name) { error in
                guard case .invalidUsername = error as? GalleryError else { return XCTFail("\(name): \(error)") }
            }
        }
    }

    func testPortIsKeptExceptTheDefaultOne() throws {
        XCTAssertEqual(try MastodonSource(account: "a@host.example:8443", endpointOverride: nil).endpoint.origin,
                       "https://host.example:8443")
        // Links from the server say "https://host.example/…": ":443" kept would make them look foreign.
        XCTAssertEqual(try MastodonSource(account: "a@host.example:443", endpointOverride: nil).endpoint.origin,
                       "https://host.example")
    }

    func testBuiltURLsNeverGainAParameterOrChangeHost() throws {
        for name in ["alice@mastodon.social", "@a.b-c_d@host.example:8443", "x@127.0.0.1"] {
            let source = try MastodonSource(account: name, endpointOverride: nil)
            let lookup = source.firstRequest().url
            XCTAssertEqual(URLText.origin(of: lookup), source.endpoint.origin)
            let components = try XCTUnwrap(URLComponents(string: lookup))
            XCTAssertEqual(components.path, "/api/v1/accounts/lookup")
            XCTAssertEqual(components.queryItems, [URLQueryItem(name: "acct", value: source.user)])

            let statuses = try XCTUnwrap(try source.parse(response(#"{"id":"42"}"#), of: source.firstRequest()).next)
            let statusComponents = try XCTUnwrap(URLComponents(string: statuses.url))
            XCTAssertEqual(URLText.origin(of: statuses.url), source.endpoint.origin)
            XCTAssertEqual(statusComponents.path, "/api/v1/accounts/42/statuses")
            XCTAssertEqual(statusComponents.queryItems?.map(\.name), ["only_media", "exclude_replies", "limit"])
        }
    }

    func testOverrideReplacesTheOrigin() throws {
        let source = try MastodonSource(account: "alice@mastodon.social", endpointOverride: "http://127.0.0.1:8080/x")
        XCTAssertEqual(source.firstRequest().url, "http://127.0.0.1:8080/api/v1/accounts/lookup?acct=alice")
        XCTAssertEqual(source.endpoint.canonicalOrigin, "https://mastodon.social")
    }

    func testSourceKindBuildsTheMastodonSource() throws {
        let source = try SourceKind.mastodon.makeSource(username: "@alice@mastodon.social", endpointOverride: nil)
        XCTAssertTrue(source is MastodonSource)
        XCTAssertEqual(source.kind, .mastodon)
        XCTAssertThrowsError(try SourceKind.mastodon.makeSource(username: "alice", endpointOverride: nil))
    }

    // MARK: - Lookup

    func testLookupLeadsToTheStatusesWithoutItems() throws {
        let source = try alice()
        let result = try source.parse(response(Self.fixture("account.json")), of: source.firstRequest())
        XCTAssertEqual(result.items, [])
        let next = try XCTUnwrap(result.next)
        // The id is longer than any integer type: kept digit for digit as text.
        XCTAssertEqual(next.url, "https://mastodon.social\(Self.statusesPath)?only_media=true&exclude_replies=true&limit=40")
        XCTAssertEqual(next.stage, MastodonSource.Stage.statuses)
        XCTAssertEqual(next.headers, ["Accept": "application/json"])
    }

    func testLookupIdsThatAreNotTextOrNotSafeAreMalformed() throws {
        let source = try alice()
        let bodies = [#"{"id":109876543210987654321}"#, #"{"id":null}"#, #"{"acct":"alice"}"#, #"{"id":""}"#,
                      #"{"id":".."}"#, #"{"id":"1/../../admin"}"#, #"{"id":"1?x=y"}"#, #"{"id":"1%2F2"}"#, #"[{"id":"1"}]"#]
        for body in bodies {
            assertMalformed(try source.parse(response(body), of: source.firstRequest()), body)
        }
    }

    // MARK: - Status codes

    func testStatusCodesMapToMessages() throws {
        let source = try alice()
        let lookup = source.firstRequest()
        let statuses = statusesRequest()
        for request in [lookup, statuses] {
            for status: UInt32 in [404, 410] {
                XCTAssertThrowsError(try source.parse(response(#"{"error":"Record not found"}"#, status: status), of: request)) {
                    XCTAssertEqual($0 as? GalleryError, .noSuchUser(service: "Mastodon", username: "alice@mastodon.social"))
                }
            }
            for status: UInt32 in [401, 403] {
                XCTAssertThrowsError(try source.parse(response(#"{"error":"This API requires an authenticated user"}"#, status: status), of: request)) {
                    XCTAssertEqual($0 as? GalleryError, .signInRequired(service: "Mastodon"))
                    XCTAssertTrue(($0 as? GalleryError)?.explanation.contains("requires sign-in to view profiles") == true)
                }
            }
            XCTAssertThrowsError(try source.parse(response("", status: 503, reason: "Service Unavailable"), of: request)) {
                XCTAssertEqual($0 as? GalleryError, .serverError(service: "Mastodon", status: 503, reason: "HTTP 503 Service Unavailable"))
            }
            XCTAssertThrowsError(try source.parse(response("", status: 418), of: request)) {
                XCTAssertEqual($0 as? GalleryError, .refused(service: "Mastodon", status: 418))
            }
        }
    }

    func testRateLimitCarriesTheWait() throws {
        let source = try alice()
        let request = statusesRequest()
        XCTAssertThrowsError(try source.parse(response("", status: 429, headers: ["retry-after": "7"]), of: request)) {
            XCTAssertEqual($0 as? GalleryError, .rateLimited(service: "Mastodon", retryAfterSeconds: 7))
        }
        // Mastodon itself sends X-RateLimit-Reset, an ISO 8601 time.
        let reset = try XCTUnwrap(Self.iso8601(secondsFromNow: 120))
        XCTAssertThrowsError(try source.parse(response("", status: 429, headers: ["x-ratelimit-reset": reset]), of: request)) {
            guard case .rateLimited("Mastodon", let seconds?) = $0 as? GalleryError else { return XCTFail("\($0)") }
            XCTAssertTrue((110...121).contains(seconds), "\(seconds)")
        }
        XCTAssertThrowsError(try source.parse(response("", status: 429), of: source.firstRequest())) {
            XCTAssertEqual($0 as? GalleryError, .rateLimited(service: "Mastodon", retryAfterSeconds: nil))
        }
    }

    // MARK: - Hostile bodies

    func testBrokenBodiesAreMalformedWithAReadableDetail() throws {
        let source = try alice()
        let cases: [(body: String, request: PageRequest, detail: String)] = [
            ("", source.firstRequest(), "empty response"),
            ("  \n", statusesRequest(), "empty response"),
            ("<!DOCTYPE html><html><body>Welcome to nginx!</body></html>", source.firstRequest(), "web page"),
            (String(Self.fixture("statuses-page1.json").dropLast(200)), statusesRequest(), "not valid JSON"),
            (#"{"id":"1""#, source.firstRequest(), "not valid JSON"),
            (#"{"error":"nope"}"#, statusesRequest(), "wrong shape (expected a list)"),
            ("[1, 2, 3]", statusesRequest(), "No post on the page could be read"),
            (#"[{"id":"1","media_attachments":{}}]"#, statusesRequest(), "“[0].media_attachments”"),
            (#"[{"id":"1","sensitive":"yes","media_attachments":[]}]"#, statusesRequest(), "“[0].sensitive”"),
            ("\"just a string\"", source.firstRequest(), "wrong shape"),
        ]
        for (body, request, detail) in cases {
            XCTAssertThrowsError(try source.parse(response(body), of: request), body.prefix(40).description) { error in
                guard case .malformedResponse("Mastodon", let text) = error as? GalleryError else { return XCTFail("\(error)") }
                XCTAssertTrue(text.contains(detail), "\(text) lacks \(detail)")
                XCTAssertLessThan(text.count, 300)
            }
        }
    }

    /// Nesting is refused at a fixed depth, however deep the reply goes: the JSON reader stops there, so the
    /// work is bounded by the limit, not by the reply.
    func testDeeplyNestedJSONFailsQuickly() throws {
        let source = try alice()
        let nesting = { (depth: Int) in String(repeating: "[", count: depth) + String(repeating: "]", count: depth) }
        for depth in [600, 20_000] {
            let nested = nesting(depth)
            assertMalformed(try source.parse(response(#"{"id":"1","x":"# + nested + "}"), of: source.firstRequest()))
            assertMalformed(try source.parse(response(#"[{"id":"1","media_attachments":"# + nested + "}]"), of: statusesRequest()))
            assertMalformed(try source.parse(response(String(repeating: "{\"a\":", count: depth)), of: statusesRequest()))
            XCTAssertTrue(isRefusedJSON { try source.parse(self.response(#"{"id":"1","x":"# + nested + "}"), of: source.firstRequest()) },
                          "depth \(depth)")
            XCTAssertTrue(isRefusedJSON {
                try source.parse(self.response(#"[{"id":"1","media_attachments":"# + nested + "}]"), of: self.statusesRequest())
            }, "depth \(depth)")
        }
        XCTAssertFalse(isRefusedJSON {
            try source.parse(self.response(#"[{"id":"1","media_attachments":"# + nesting(400) + "}]"), of: self.statusesRequest())
        }, "nesting under the limit is read, and refused for its shape")
    }

    func testHugeStringsAreCut() throws {
        let huge = String(repeating: "🐟 very long words ", count: 100_000)
        let body = #"[{"id":"1","sensitive":false,"content":"<p>\#(huge)</p>","media_attachments":[{"id":"2","type":"image","#
            + #""url":"https://files.example/a.png","description":"\#(huge)"}]}]"#
        let items = try alice().parse(response(body), of: statusesRequest()).items
        XCTAssertEqual(items.count, 1)
        XCTAssertLessThanOrEqual(items[0].title.count, 81)
        XCTAssertEqual(items[0].altText?.count, MastodonSource.maxAltTextLength)
    }

    func testOnePageNeverYieldsMoreThanTheItemLimit() throws {
        let attachment = #"{"id":"7","type":"image","url":"https://files.example/a.png"}"#
        let post = "{\"id\":\"1\",\"media_attachments\":[" + Array(repeating: attachment, count: 500).joined(separator: ",") + "]}"
        let body = "[" + Array(repeating: post, count: 3).joined(separator: ",") + "]"
        let items = try alice().parse(response(body), of: statusesRequest()).items
        XCTAssertEqual(items.count, MastodonSource.maxItemsPerPage)
    }

    // MARK: - Helpers

    func alice(override: String? = nil) throws -> MastodonSource {
        try MastodonSource(account: "alice@mastodon.social", endpointOverride: override)
    }

    func statusesRequest(origin: String = "https://mastodon.social", query: String = "only_media=true&exclude_replies=true&limit=40") -> PageRequest {
        PageRequest(url: "\(origin)\(Self.statusesPath)?\(query)", stage: MastodonSource.Stage.statuses,
                    headers: ["Accept": "application/json"])
    }

    func response(_ body: String, status: UInt32 = 200, reason: String = "OK", headers: [String: String] = [:],
                  url: String = "https://mastodon.social/api/v1/accounts/lookup?acct=alice") -> HTTPResponse {
        HTTPResponse(head: HTTPResponseHead(status: status, reason: reason, url: url, headers: headers,
                                            mediaType: "application/json"),
                     body: Bytes(body))
    }

    static func fixture(_ name: String) -> String { Fixtures.text("mastodon/\(name)") }

    func assertMalformed(_ expression: @autoclosure () throws -> PageResult, _ message: String = "",
                         file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try expression(), message, file: file, line: line) { error in
            guard case .malformedResponse("Mastodon", _) = error as? GalleryError else {
                return XCTFail("\(message): \(error)", file: file, line: line)
            }
        }
    }

    static func iso8601(secondsFromNow seconds: Double) -> String? {
        guard let now = g_date_time_new_now_utc() else { return nil }
        defer { g_date_time_unref(now) }
        guard let later = g_date_time_add_seconds(now, seconds) else { return nil }
        defer { g_date_time_unref(later) }
        guard let text = g_date_time_format_iso8601(later) else { return nil }
        defer { g_free(text) }
        return String(cString: text)
    }
}
