import GObjectBindings
import TestSupport
import XCTest
@testable import GalleryCore

/// MisskeySource driven by GalleryFeed over real HTTP (POSTs with JSON bodies to TestHTTPServer), the saved
/// first page keyed by body, and hostile bodies.
extension MisskeySourceTests {
    /// A Misskey API answering users/show for alice and users/notes from the fixtures; every request's
    /// method, content type and body are kept.
    @MainActor
    final class MisskeyServer {
        let server: TestHTTPServer
        var requests: [TestRequest] = []
        var rateLimitOnce = false

        init() throws {
            server = try TestHTTPServer()
            let (user, page1, page2) = (MisskeySourceTests.fixture("users-show.json"),
                                        MisskeySourceTests.fixture("users-notes-page1.json"),
                                        MisskeySourceTests.fixture("users-notes-page2.json"))
            server.route("/api/users/show") { [unowned self] request in
                requests.append(request)
                guard request.method == "POST" else { return .status(405) }
                return request.body == #"{"host":null,"username":"alice"}"#
                    ? Self.json(user) : Self.json(MisskeySourceTests.fixture("error-no-such-user.json"), status: 404)
            }
            server.route("/api/users/notes") { [unowned self] request in
                requests.append(request)
                let untilID = JSONDecoding.decodeQuietly(NotesBody.self, from: request.body)?.untilId
                switch untilID {
                case nil: return Self.json(page1)
                case "9tjr00gg01" where rateLimitOnce:
                    rateLimitOnce = false
                    return Self.json(MisskeySourceTests.fixture("error-rate-limit-exceeded.json"), status: 429)
                        .header("Retry-After", "1")
                case "9tjr00gg01": return Self.json(page2)
                default: return Self.json("[]")
                }
            }
        }

        struct NotesBody: Decodable { let untilId: String? }

        static func json(_ text: String, status: UInt32 = 200) -> TestResponse {
            .text(text, status: status, contentType: "application/json; charset=utf-8")
        }
    }

    func testFeedPostsJSONAndPagesByUntilIdUntilAnEmptyArray() throws {
        try MainActor.assumeIsolated {
            let api = try MisskeyServer()
            api.rateLimitOnce = true
            let run = loadEveryPage(try MisskeySource(account: "@alice@misskey.io", endpointOverride: api.server.baseURL))
            XCTAssertEqual(run.feed.state, .finished)
            XCTAssertEqual(run.pages.map(\.count), [7, 2])
            XCTAssertTrue(run.states.contains(.waiting(page: 2, seconds: 1)), "\(run.states)")
            XCTAssertEqual(api.requests.map(\.path), ["/api/users/show"] + Array(repeating: "/api/users/notes", count: 4))
            XCTAssertEqual(Set(api.requests.map(\.method)), ["POST"])
            XCTAssertEqual(Set(api.requests.compactMap { $0.header("content-type") }), ["application/json"])
            XCTAssertEqual(api.requests.map(\.body).suffix(1),
                           [#"{"limit":40,"untilId":"9tjp00ii01","userId":"9tjzq2vq7o","withFiles":true,"withRenotes":false}"#])

            let missing = loadEveryPage(try MisskeySource(account: "nobody@misskey.io", endpointOverride: api.server.baseURL))
            XCTAssertEqual(missing.feed.state, .failed(.noSuchUser(service: "Misskey", username: "nobody@misskey.io")))
        }
    }

    func testARepeatedUntilIdIsALoopAndEndlessIdsStop() throws {
        try MainActor.assumeIsolated {
            let api = try MisskeyServer()
            let page = Self.fixture("users-notes-page2.json")
            // The same page again and again: the same body would be sent again.
            api.server.route("/api/users/notes") { _ in MisskeyServer.json(page) }
            let looping = loadEveryPage(try MisskeySource(account: "alice@misskey.io", endpointOverride: api.server.baseURL))
            XCTAssertEqual(looping.feed.state, .failed(.pagingLoop(service: "Misskey")))
            XCTAssertEqual(looping.pages.map(\.count), [2, 2])

            // New ids forever, never a file of the user's own.
            var counter = 0
            api.server.route("/api/users/notes") { _ in
                counter += 1
                return MisskeyServer.json(#"[{"id":"9x\#(counter)","text":null,"renoteId":"9a","files":[]}]"#)
            }
            let endless = loadEveryPage(try MisskeySource(account: "alice@misskey.io", endpointOverride: api.server.baseURL))
            XCTAssertEqual(endless.feed.state, .failed(.emptyPages(service: "Misskey", count: 5)))
            XCTAssertEqual(counter, 4, "the lookup and four empty pages")
        }
    }

    /// Every Misskey user of a server has the same first URL: the saved first page must be told apart by the
    /// request's body, or bob would be shown alice's gallery offline.
    func testTheSavedFirstPageIsKeyedByTheBody() throws {
        try MainActor.assumeIsolated {
            let api = try MisskeyServer()
            let folder = TemporaryFolder(prefix: "gallery-misskey-snapshot")
            let store = FeedSnapshotStore(path: folder.path + "/last-gallery.json")
            let alice = try MisskeySource(account: "alice@misskey.io", endpointOverride: api.server.baseURL)
            let online = FeedSnapshotTests.saveFirstPage(alice, in: store)
            XCTAssertEqual(online.count, 7)
            api.server.stop()

            let offline = GalleryFeed(source: alice, client: HTTPClient(), snapshots: store)
            XCTAssertEqual(FeedSnapshotTests.firstPage(of: offline).map(\.id), online.map(\.id))
            XCTAssertNotNil(offline.offlineCopy)

            let bob = try MisskeySource(account: "bob@misskey.io", endpointOverride: api.server.baseURL)
            let other = GalleryFeed(source: bob, client: HTTPClient(), snapshots: store)
            XCTAssertEqual(FeedSnapshotTests.firstPage(of: other), [])
            XCTAssertNil(other.offlineCopy, "alice's page is not bob's")
            guard case .failed(.network) = other.state else { return XCTFail("\(other.state)") }
        }
    }

    // MARK: - Hostile bodies

    func testHostileNotesStayBounded() throws {
        let source = try alice()
        let file = #"{"id":"f","type":"image/png","url":"https://x.example/a.png","thumbnailUrl":"https://x.example/t.webp","isSensitive":false}"#
        let note = #"{"id":"9n","text":"many","files":["# + Array(repeating: file, count: 40).joined(separator: ",") + "]}"
        let huge = try source.parse(response("[" + Array(repeating: note, count: 600).joined(separator: ",") + "]"), of: notesRequest())
        XCTAssertEqual(huge.items.count, MisskeyItems.maxItemsPerPage)

        for depth in [600, 20_000] {
            let nested = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            assertMalformed(try source.parse(response(nested), of: notesRequest()))
            // A renote nested ever deeper is never read.
            let deepRenote = #"[{"id":"9n","text":"x","files":[\#(file)],"renote":"# + String(repeating: #"{"renote":"#, count: 100) + "null"
                + String(repeating: "}", count: 100) + "}]"
            XCTAssertEqual(try source.parse(response(deepRenote), of: notesRequest()).items.count, 1)
        }

        let odd = #"[{"id":"9n","text":"odd","uri":"file:///etc/passwd","files":[{"id":"f","type":"image/png","url":"javascript:alert(1)","thumbnailUrl":"data:image/png;base64,AA","name":"../../etc/passwd"}]}]"#
        let item = try XCTUnwrap(source.parse(response(odd), of: notesRequest()).items.first)
        XCTAssertNil(item.fullImageURL)
        XCTAssertEqual(item.thumbnails, [])
        XCTAssertTrue(item.mediaURLRejected)
        XCTAssertEqual(item.pageURL, "https://misskey.io/notes/9n")
        XCTAssertEqual(item.fileName, "f.png", "a name with a path is not a file name")

        let text = String(repeating: "🐟 very long words ", count: 100_000)
        let long = #"[{"id":"9n","text":"\#(text)","files":[{"id":"f","type":"image/png","url":"https://x.example/a.png","comment":"\#(text)"}]}]"#
        let longItem = try XCTUnwrap(source.parse(response(long), of: notesRequest()).items.first)
        XCTAssertLessThanOrEqual(longItem.title.count, 81)
        XCTAssertLessThanOrEqual(longItem.altText?.count ?? 0, 1501)

        // Ids that cannot be sent back end paging instead of being sent.
        let badIDs = #"[{"id":"9n/../x","text":"x","files":[\#(file)]}]"#
        XCTAssertNil(try source.parse(response(badIDs), of: notesRequest()).next)
        // A sensitive flag that is not a boolean leaves the file out rather than show it.
        let notBool = #"[{"id":"9n","text":"x","files":[{"id":"f","type":"image/png","url":"https://x.example/a.png","isSensitive":"yes"}]}]"#
        XCTAssertEqual(try source.parse(response(notBool), of: notesRequest()).items, [])
    }

    func testBrokenBodiesAreMalformedWithAReadableDetail() throws {
        let source = try alice()
        let cases: [(body: String, request: PageRequest, detail: String)] = [
            ("", source.firstRequest(), "empty response"),
            ("<!DOCTYPE html><html><body>Welcome</body></html>", source.firstRequest(), "Is this a Misskey server?"),
            (String(Self.fixture("users-notes-page1.json").dropLast(300)), notesRequest(), "not valid JSON"),
            (#"{"notes":[]}"#, notesRequest(), "wrong shape (expected a list)"),
            ("[1, 2, 3]", notesRequest(), "No post on the page could be read"),
            (#"[{"id":"1","files":{}}]"#, notesRequest(), "No post on the page could be read"),
            (#"[{"username":"alice"}]"#, source.firstRequest(), "wrong shape"),
        ]
        for (body, request, detail) in cases {
            XCTAssertThrowsError(try source.parse(response(body), of: request), String(body.prefix(40))) { error in
                guard case .malformedResponse("Misskey", let text) = error as? GalleryError else { return XCTFail("\(error)") }
                XCTAssertTrue(text.contains(detail), "\(text) lacks \(detail)")
                XCTAssertLessThan(text.count, 300)
            }
        }
    }
}
