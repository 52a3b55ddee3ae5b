import GObjectBindings
import TestSupport
import XCTest

@testable import GalleryCore

/// CommonsSource driven by GalleryFeed over real HTTP (libsoup client ↔ TestHTTPServer on 127.0.0.1), answering
/// the way MediaWiki does: which reply comes next is decided by the continuation the request carries.
extension CommonsSourceTests {
    func testFeedPagesThroughThreeRepliesJoinedByContinue() throws {
        try MainActor.assumeIsolated {
            let server = try TestHTTPServer()
            let replies = ["page1.json", "page2.json", "page3.json"].map { Fixtures.text("commons/\($0)") }
            var requests: [TestRequest] = []
            var maxlagSent = false
            server.route(CommonsSource.apiPath) { request in
                requests.append(request)
                if request.query["iicontinue"] != nil { return Self.json(replies[2]) }
                if request.query["gaicontinue"] != nil {
                    // Replication lag once: the feed waits as told and asks again.
                    guard maxlagSent else {
                        maxlagSent = true
                        return Self.json(Fixtures.text("commons/error-maxlag.json")).header("Retry-After", "1")
                    }
                    return Self.json(replies[1])
                }
                return Self.json(replies[0])
            }

            let run = loadEveryPage(try CommonsSource(username: "müller", endpointOverride: server.baseURL))
            XCTAssertEqual(run.feed.state, .finished)
            XCTAssertEqual(run.pages.map { $0.map(\.id) },
                           [["1001", "1002", "1004", "1003"], ["2004", "2001", "2002"], ["2003"]])
            XCTAssertTrue(run.states.contains(.waiting(page: 2, seconds: 1)), "\(run.states)")

            XCTAssertEqual(requests.count, 4)
            XCTAssertEqual(Set(requests.map(\.path)), [CommonsSource.apiPath])
            XCTAssertEqual(requests.map { $0.query["gaiuser"] }, Array(repeating: "Müller", count: 4))
            let batch2 = "20240304100000|Rooftops.webp"
            XCTAssertEqual(requests.map { $0.query["gaicontinue"] }, [nil, batch2, batch2, batch2])
            XCTAssertEqual(requests.map { $0.query["continue"] },
                           [nil, "gaicontinue||users", "gaicontinue||users", "gaicontinue||users"])
            XCTAssertEqual(requests.map { $0.query["iicontinue"] },
                           [nil, nil, nil, "Zebra_finch_song.ogg|20240301080000"])
            for request in requests {
                XCTAssertEqual(request.query["iiprop"], "url|size|mime|timestamp|extmetadata")
                XCTAssertEqual(request.query["iiextmetadatafilter"], "ImageDescription")
                XCTAssertEqual(request.header("user-agent"), HTTPClient.defaultUserAgent, "Wikimedia's policy")
                XCTAssertEqual(request.header("accept"), "application/json")
            }
        }
    }

    func testFeedReportsAMissingUserAndAnEmptyGallery() throws {
        try MainActor.assumeIsolated {
            let server = try TestHTTPServer()
            let missing = Fixtures.text("commons/no-such-user.json")
            let empty = Fixtures.text("commons/no-uploads.json")
            server.route(CommonsSource.apiPath) { request in
                Self.json(request.query["gaiuser"] == "Nobody Here" ? missing : empty)
            }
            let lost = loadEveryPage(try CommonsSource(username: "Nobody_Here", endpointOverride: server.baseURL))
            XCTAssertEqual(lost.feed.state, .failed(.noSuchUser(service: "Wikimedia Commons", username: "Nobody Here")))
            let quiet = loadEveryPage(try CommonsSource(username: "Quiet Person", endpointOverride: server.baseURL))
            XCTAssertEqual(quiet.feed.state, .failed(.emptyGallery(username: "Quiet Person")))
            XCTAssertEqual(server.requestCount, 2)
        }
    }

    private static func json(_ text: String) -> TestResponse {
        .text(text, contentType: "application/json; charset=utf-8")
    }
}
