import XCTest
import GObjectBindings
import TestSupport
@testable import GalleryCore

/// Find in the gallery's search: every word, in title or description; a pasted page is cut; finds asked for
/// while one runs complete only as the newest.
final class GalleryTextSearchTests: GLibTestCase {
    @MainActor
    private static func gallery(titles: [(String, String)], server: TestHTTPServer) throws -> Gallery {
        let items = titles.enumerated().map { index, entry in
            """
            <item><guid>g\(index)</guid><title>\(entry.0)</title><description>\(entry.1)</description>
            <media:content url="\(server.url("/img/\(index).jpg"))" medium="image"/></item>
            """
        }.joined()
        let feed = "<rss xmlns:media=\"http://search.yahoo.com/mrss/\"><channel>\(items)</channel></rss>"
        server.route("/rss.xml") { _ in .text(feed, contentType: "application/rss+xml") }
        let client = HTTPClient()
        let gallery = Gallery(source: try DeviantArtSource(username: "x", endpointOverride: server.baseURL),
                              client: client, pipeline: ImagePipeline(client: client))
        gallery.start()
        XCTAssertTrue(iterateMainLoop(until: { gallery.feed.state == .finished }, timeout: 60))
        return gallery
    }

    func testEveryWordInTitleOrDescriptionAndOnlyTheNewestFindCompletes() throws {
        try MainActor.assumeIsolated {
            let server = try TestHTTPServer()
            let gallery = try Self.gallery(titles: [("Harbour at Night", "Boats and lights"),
                                                    ("Night Market", "Stalls, lanterns"),
                                                    ("Ærø Ferry", "A boat crossing")], server: server)
            XCTAssertEqual(gallery.downloads.count, 3)
            let search = GalleryTextSearch(gallery: gallery)
            var results: [String: GalleryTextSearch.Result] = [:]
            // Asked for one after the other without a main-loop turn between: the first runs, the last runs
            // after it, and only the last completes.
            for query in ["night", "boat", "lights night", "AERO"] {
                search.find(query) { results[query] = $0 }
            }
            XCTAssertTrue(iterateMainLoop(until: { results["AERO"] != nil }, timeout: 60))
            XCTAssertNil(results["night"], "superseded while it ran")
            XCTAssertNil(results["boat"], "superseded before it ran")
            XCTAssertNil(results["lights night"], "superseded before it ran")
            XCTAssertEqual(results["AERO"], .init(indices: [2], searched: 3), "Ærø by its ASCII spelling")

            var last: GalleryTextSearch.Result?
            search.find("night") { last = $0 }
            XCTAssertTrue(iterateMainLoop(until: { last != nil }, timeout: 60))
            XCTAssertEqual(last?.indices, [0, 1])
            last = nil
            search.find("boat lights") { last = $0 }
            XCTAssertTrue(iterateMainLoop(until: { last != nil }, timeout: 60))
            XCTAssertEqual(last?.indices, [0], "every word, from the title or the description")
            last = nil
            // "a" is in every item; "harbour" in one: cut before it, the pasted page finds all three.
            search.find(String(repeating: "a ", count: 10_000) + "harbour") { last = $0 }
            XCTAssertTrue(iterateMainLoop(until: { last != nil }, timeout: 60))
            XCTAssertEqual(last?.indices, [0, 1, 2], "a pasted page is cut before its last word")
        }
    }
}
