import Foundation
import XCTest
import GObjectBindings
import TestSupport
@testable import GalleryCore

final class GalleryTests: GLibTestCase {
    private static func item(_ guid: String, _ url: String) -> String {
        """
        <item><guid>\(guid)</guid><title>\(guid)</title>
        <media:content url="\(url)" medium="image"/></item>
        """
    }

    func testTheSameImageTwiceGetsOneRow() throws {
        try MainActor.assumeIsolated {
            let server = try TestHTTPServer()
            let feed = """
                <rss xmlns:media="http://search.yahoo.com/mrss/"><channel>
                \(Self.item("a", server.url("/img/sunset.jpg")))
                \(Self.item("b", server.url("/img/sunset.jpg")))
                \(Self.item("c", server.url("/elsewhere/SUNSET.jpg")))
                \(Self.item("d", server.url("/img/dawn.jpg")))
                </channel></rss>
                """
            server.route("/rss.xml") { _ in .text(feed, contentType: "application/rss+xml") }
            let client = HTTPClient()
            let gallery = Gallery(source: try DeviantArtSource(username: "x", endpointOverride: server.baseURL),
                                  client: client, loader: ImageLoader(client: client))
            gallery.start()
            XCTAssertTrue(iterateMainLoop(until: { gallery.feed.state == .finished }, timeout: 10))
            XCTAssertEqual(gallery.downloads.map(\.item.id), ["a", "d"], "same URL, or same file name: one row")
            XCTAssertEqual(gallery.duplicatesSkipped, 2)
            XCTAssertEqual(gallery.summary, "2 images")
        }
    }

    func testTheLastSearchIsRemembered() throws {
        let path = NSTemporaryDirectory() + "gallery-viewer-\(UUID().uuidString)/state.ini"
        XCTAssertNil(RecentSearch.load(from: path))
        try RecentSearch(source: .mastodon, username: "alice@mastodon.social").save(to: path)
        XCTAssertEqual(RecentSearch.load(from: path), RecentSearch(source: .mastodon, username: "alice@mastodon.social"))
        try RecentSearch(source: .commons, username: "Müller = [x]; #y").save(to: path)
        XCTAssertEqual(RecentSearch.load(from: path)?.username, "Müller = [x]; #y", "key-file special characters survive")
    }
}
