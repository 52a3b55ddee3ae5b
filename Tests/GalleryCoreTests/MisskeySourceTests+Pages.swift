import GObjectBindings
import TestSupport
import XCTest
@testable import GalleryCore

/// MisskeySource on replies written from Misskey's schemas (data/fixtures/misskey): users/show, two pages of
/// users/notes, error codes and hostile bodies.
extension MisskeySourceTests {
    static let media = "https://media.misskey.io/files"

    // MARK: - users/show

    func testUsersShowAsksWithANullHostForTheServersOwnUser() throws {
        let request = try alice().firstRequest()
        XCTAssertEqual(request.url, "https://misskey.io/api/users/show")
        XCTAssertEqual(request.method, "POST")
        XCTAssertEqual(request.body, #"{"host":null,"username":"alice"}"#)
        XCTAssertEqual(request.headers["Content-Type"], "application/json")
        XCTAssertEqual(request.stage, MisskeySource.Stage.show)
        // A remote user asked of another server names their host; an override does not change who is local.
        let remote = try MisskeySource(account: "bob@mastodon.social", endpointOverride: nil, server: "misskey.io")
        XCTAssertEqual(remote.firstRequest().body, #"{"host":"mastodon.social","username":"bob"}"#)
        XCTAssertEqual(remote.firstRequest().url, "https://misskey.io/api/users/show")
        let overridden = try alice(override: "http://127.0.0.1:8080")
        XCTAssertEqual(overridden.firstRequest().url, "http://127.0.0.1:8080/api/users/show")
        XCTAssertEqual(overridden.firstRequest().body, #"{"host":null,"username":"alice"}"#)
    }

    func testTheUserLeadsToTheirNotesWithFiles() throws {
        let source = try alice()
        let result = try source.parse(response(Self.fixture("users-show.json")), of: source.firstRequest())
        XCTAssertEqual(result.items, [])
        let next = try XCTUnwrap(result.next)
        XCTAssertEqual(next.url, "https://misskey.io/api/users/notes")
        XCTAssertEqual(next.method, "POST")
        XCTAssertEqual(next.body, #"{"limit":40,"userId":"9tjzq2vq7o","withFiles":true,"withRenotes":false}"#)
        XCTAssertEqual(next.stage, MisskeySource.Stage.notes)
    }

    func testAUserWhoHidesNotesFromVisitorsSaysSo() throws {
        let source = try MisskeySource(account: "carol@misskey.io", endpointOverride: nil)
        XCTAssertThrowsError(try source.parse(response(Self.fixture("users-show-require-signin.json")), of: source.firstRequest())) {
            XCTAssertEqual($0 as? GalleryError, .onlyForSignedInViewers(service: "Misskey", username: "carol@misskey.io"))
        }
    }

    func testUserIdsThatAreNotIdsAreMalformed() throws {
        let source = try alice()
        for id in ["", "../admin", "9tj\"}", String(repeating: "a", count: 65)] {
            assertMalformed(try source.parse(response(#"{"id":"\#(id.replacingOccurrences(of: "\"", with: "\\\""))"}"#),
                                             of: source.firstRequest()), id)
        }
        assertMalformed(try source.parse(response(#"{"id":42}"#), of: source.firstRequest()))
    }

    // MARK: - users/notes

    func testTheFirstPageHasOneItemPerFile() throws {
        let result = try alice().parse(response(Self.fixture("users-notes-page1.json")), of: notesRequest())
        let items = result.items
        XCTAssertEqual(items.map(\.title), [
            "Harbour sketches, day two 🌊 (1/2)", "Harbour sketches, day two 🌊 (2/2)", "Nudity (figure drawing)",
            "Post by @alice@misskey.io, 2024-05-01", "Drew Bob's desk from his photo", "Timelapse of today's drawing",
            "Sketching soundtrack",
        ])
        XCTAssertEqual(items.map(\.kind), [.image, .image, .image, .image, .image, .video, .audio])
        XCTAssertEqual(items.map(\.isSensitive), [false, false, true, true, false, false, false], "a cw, then isSensitive")
        XCTAssertEqual(items.map(\.fileName), ["harbour-boats.jpg", "harbour-pier.png", "figure.jpg", "IMG_2041.JPG",
                                               "desk-sketch.webp", "timelapse.mp4", "harbour-ambience.mp3"])
        let first = items[0]
        XCTAssertEqual(first.id, "9tjzq9aa02")
        XCTAssertEqual(first.pageURL, "https://misskey.io/notes/9tjzq9aa01")
        XCTAssertEqual(first.altText, "Ink drawing of fishing boats at low tide")
        XCTAssertEqual(first.published, 1_714_641_342, "the note's createdAt, 2024-05-02T09:15:42.118Z")
        XCTAssertEqual(first.author, "alice@misskey.io")
        XCTAssertEqual(first.width, 2048)
        XCTAssertEqual(first.height, 1536)
        XCTAssertTrue(first.fullImageURL?.hasPrefix("\(Self.media)/") == true && first.fullImageURL?.hasSuffix(".jpg") == true)
        XCTAssertTrue(first.thumbnails.first?.url.hasPrefix("\(Self.media)/thumbnail-") == true)
        XCTAssertTrue(first.thumbnails.first?.url.hasSuffix(".webp") == true, "Misskey's thumbnails are WebP")
        XCTAssertEqual(items[4].altText, "Pencil sketch of a cluttered desk", "a quote's own file, not the quoted note's desk.jpg")
        XCTAssertNil(items[5].fullImageURL, "a video opens the note")
        XCTAssertNotNil(items[5].thumbnails.first)
        XCTAssertEqual(items[6].thumbnails, [], "audio has no thumbnail")
        XCTAssertEqual(items[6].pageURL, "https://misskey.io/notes/9tjs00ff01")

        let next = try XCTUnwrap(result.next)
        XCTAssertEqual(next.body, #"{"limit":40,"untilId":"9tjr00gg01","userId":"9tjzq2vq7o","withFiles":true,"withRenotes":false}"#,
                       "from the last note, hidden or not")
    }

    func testLaterPagesEndWithAnEmptyArray() throws {
        let page2 = try alice().parse(response(Self.fixture("users-notes-page2.json")), of: notesRequest(untilID: "9tjr00gg01"))
        XCTAssertEqual(page2.items.map(\.fileName), ["cat.gif", "8f2c1a.jpg"])
        XCTAssertEqual(page2.items[0].title, "Quick cat sketch")
        XCTAssertEqual(page2.next?.body, #"{"limit":40,"untilId":"9tjp00ii01","userId":"9tjzq2vq7o","withFiles":true,"withRenotes":false}"#)
        let end = try alice().parse(response("[]"), of: notesRequest(untilID: "9tjp00ii01"))
        XCTAssertEqual(end.items, [])
        XCTAssertNil(end.next)
    }

    func testPureRenotesAreLeftOutAndHiddenNotesSaySignInIsNeeded() throws {
        let renote = #"[{"id":"9tk1","text":null,"renoteId":"9tj0","files":[],"renote":{"id":"9tj0","files":[{"id":"f","type":"image/png","url":"https://x.example/a.png"}]}}]"#
        let result = try alice().parse(response(renote), of: notesRequest())
        XCTAssertEqual(result.items, [])
        XCTAssertNotNil(result.next, "paging goes on past a page of renotes")
        let hidden = #"[{"id":"9tk1","text":null,"cw":null,"files":[],"isHidden":true,"visibility":"followers"}]"#
        XCTAssertThrowsError(try alice().parse(response(hidden), of: notesRequest())) {
            XCTAssertEqual($0 as? GalleryError, .onlyForSignedInViewers(service: "Misskey", username: "alice@misskey.io"))
        }
    }

    func testARemoteNoteLinksToItsOwnServer() throws {
        let body = #"[{"id":"9tk1","text":"hi","url":"https://mastodon.social/@bob/1","uri":"https://mastodon.social/users/bob/statuses/1","#
            + #""files":[{"id":"f1","type":"image/png","url":"https://x.example/a.png","isSensitive":false}]},"#
            + #"{"id":"9tk2","text":"hi","uri":"javascript:alert(1)","files":[{"id":"f2","type":"image/png","url":"https://x.example/b.png"}]}]"#
        let items = try alice().parse(response(body), of: notesRequest()).items
        XCTAssertEqual(items.map(\.pageURL), ["https://mastodon.social/@bob/1", "https://misskey.io/notes/9tk2"])
    }

    // MARK: - Errors

    func testErrorCodesBecomeMessages() throws {
        let source = try alice()
        let cases: [(String, UInt32, GalleryError)] = [
            (Self.fixture("error-no-such-user.json"), 404, .noSuchUser(service: "Misskey", username: "alice@misskey.io")),
            (Self.fixture("error-no-such-user.json"), 400, .noSuchUser(service: "Misskey", username: "alice@misskey.io")),
            (#"{"error":{"code":"FAILED_TO_RESOLVE_REMOTE_USER","message":"Failed to resolve remote user."}}"#, 500,
             .noSuchUser(service: "Misskey", username: "alice@misskey.io")),
            (Self.fixture("error-credential-required.json"), 401, .signInRequired(service: "Misskey")),
            (#"{"error":{"code":"CONTENT_RESTRICTED_BY_SERVER"}}"#, 403, .signInRequired(service: "Misskey")),
            (#"{"error":{"code":"SIGNIN_REQUIRED","message":"Signin required."}}"#, 400,
             .onlyForSignedInViewers(service: "Misskey", username: "alice@misskey.io")),
            (#"{"error":{"code":"CONTENT_RESTRICTED_BY_USER"}}"#, 403,
             .onlyForSignedInViewers(service: "Misskey", username: "alice@misskey.io")),
            (#"{"error":{"code":"INVALID_PARAM","message":"Invalid param."}}"#, 400, .refused(service: "Misskey", status: 400)),
            ("", 502, .serverError(service: "Misskey", status: 502, reason: "HTTP 502 OK")),
        ]
        for (body, status, expected) in cases {
            for request in [source.firstRequest(), notesRequest()] {
                XCTAssertThrowsError(try source.parse(response(body, status: status), of: request), body) {
                    XCTAssertEqual($0 as? GalleryError, expected)
                }
            }
        }
        XCTAssertThrowsError(try source.parse(response(Self.fixture("error-rate-limit-exceeded.json"), status: 429,
                                                       headers: ["retry-after": "12", "x-ratelimit-reset": "12.000"]),
                                              of: notesRequest())) {
            XCTAssertEqual($0 as? GalleryError, .rateLimited(service: "Misskey", retryAfterSeconds: 12))
        }
        XCTAssertThrowsError(try source.parse(response("<html>Not Found</html>", status: 404), of: source.firstRequest())) {
            guard case .malformedResponse("Misskey", let detail) = $0 as? GalleryError else { return XCTFail("\($0)") }
            XCTAssertTrue(detail.contains("Is this a Misskey server?"), detail)
        }
    }

    // MARK: - Helpers

    func alice(override: String? = nil) throws -> MisskeySource {
        try MisskeySource(account: "alice@misskey.io", endpointOverride: override)
    }

    func notesRequest(userID: String = "9tjzq2vq7o", untilID: String? = nil) -> PageRequest {
        let untilPart = untilID.map { #","untilId":"\#($0)""# } ?? ""
        return PageRequest(url: "https://misskey.io/api/users/notes", stage: MisskeySource.Stage.notes,
                           headers: ["Accept": "application/json", "Content-Type": "application/json"], method: "POST",
                           body: #"{"limit":40\#(untilPart),"userId":"\#(userID)","withFiles":true,"withRenotes":false}"#)
    }

    func response(_ body: String, status: UInt32 = 200, headers: [String: String] = [:],
                  url: String = "https://misskey.io/api/users/notes") -> HTTPResponse {
        HTTPResponse(head: HTTPResponseHead(status: status, reason: "OK", url: url, headers: headers, mediaType: "application/json"),
                     body: Bytes(body))
    }

    static func fixture(_ name: String) -> String { Fixtures.text("misskey/\(name)") }

    func assertMalformed(_ expression: @autoclosure () throws -> PageResult, _ message: String = "",
                         file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try expression(), message, file: file, line: line) { error in
            guard case .malformedResponse("Misskey", _) = error as? GalleryError else {
                return XCTFail("\(message): \(error)", file: file, line: line)
            }
        }
    }
}
