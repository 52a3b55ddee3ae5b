import XCTest
import GObjectBindings
import GalleryDemoServer
import TestSupport
@testable import GalleryCore

/// Paging through the demo server's feeds with the DeviantArt parser, as the Demo source does.
final class GalleryFeedTests: GLibTestCase {
    @MainActor
    private static func loadAll(_ user: String, server: DemoServer) throws -> (feed: GalleryFeed, pages: [[GalleryItem]]) {
        let run = loadEveryPage(try DeviantArtSource(username: user, endpointOverride: server.baseURL, kind: .demo))
        return (run.feed, run.pages)
    }

    func testPagesOf24UntilTheEnd() throws {
        try MainActor.assumeIsolated {
            let server = try startDemoServer()
            let (feed, pages) = try Self.loadAll("aurora", server: server)
            XCTAssertEqual(feed.state, .finished)
            XCTAssertEqual(pages.map(\.count), [24, 24, 12])
            XCTAssertEqual(feed.pagesLoaded, 3)
            let catalog = server.catalog.user(named: "aurora")!.items
            XCTAssertEqual(pages.joined().map(\.title), catalog.map(\.title))
            XCTAssertEqual(pages[0][5].thumbnailURL(covering: 96), server.baseURL + catalog[5].imagePath(thumbnailLongSide: 150))
        }
    }

    func testSeveralHundredImages() throws {
        try MainActor.assumeIsolated {
            let server = try startDemoServer()
            let (feed, pages) = try Self.loadAll("atlas", server: server)
            XCTAssertEqual(feed.state, .finished)
            XCTAssertEqual(pages.joined().count, 360)
            XCTAssertEqual(pages.count, 15)
        }
    }

    /// `end` comes after the last page's items, not between the feed's last state change and them: a caller
    /// that acts on `end` (`--download` naming its files) must have every item by then.
    func testLoadAllPagesEndsAfterTheLastPagesItems() throws {
        try MainActor.assumeIsolated {
            let server = try startDemoServer()
            let feed = GalleryFeed(source: try DeviantArtSource(username: "aurora", endpointOverride: server.baseURL, kind: .demo),
                                   client: HTTPClient())
            var events: [String] = []
            feed.loadAllPages(page: { events.append("page \($0.count)") }, end: { _ in events.append("end") })
            XCTAssertTrue(iterateMainLoop(until: { events.last == "end" }, timeout: 10))
            XCTAssertEqual(events, ["page 24", "page 24", "page 12", "end"])
        }
    }

    func testMissingEmptyAndBrokenGalleriesGetTheirMessage() throws {
        try MainActor.assumeIsolated {
            let server = try startDemoServer()
            XCTAssertEqual(try Self.loadAll("nobody-here", server: server).feed.state,
                           .failed(.noSuchUser(service: "Demo", username: "nobody-here")))
            XCTAssertEqual(try Self.loadAll("empty", server: server).feed.state, .failed(.emptyGallery(username: "empty")))
            guard case .failed(.malformedResponse(let service, _)) = try Self.loadAll("brokenfeed", server: server).feed.state else {
                return XCTFail("brokenfeed should be malformed")
            }
            XCTAssertEqual(service, "Demo")
        }
    }

    func testAnUnreachableServerIsANetworkError() throws {
        try MainActor.assumeIsolated {
            let server = try startDemoServer()
            let address = server.baseURL
            server.stop()
            let source = try DeviantArtSource(username: "aurora", endpointOverride: address, kind: .demo)
            let feed = GalleryFeed(source: source, client: HTTPClient())
            feed.loadNextPage { _ in XCTFail("no items expected") }
            iterateMainLoop(until: { if case .failed = feed.state { true } else { false } }, timeout: 10)
            guard case .failed(.network(let service, let detail)) = feed.state else {
                return XCTFail("\(feed.state)")
            }
            XCTAssertEqual(service, "Demo")
            XCTAssertFalse(detail.isEmpty)
        }
    }
}
