import XCTest
import GObjectBindings
import GalleryDemoServer
import TestSupport
@testable import GalleryCore

/// The row model's lifecycle against the demo server: start on first show, give up a place in the queue
/// when scrolled away before anything was sent, go on when already downloading.
final class ImageDownloadTests: GLibTestCase {
    @MainActor
    private static func downloads(_ count: Int, server: DemoServer, loader: ImageLoader) -> [ImageDownload] {
        server.catalog.user(named: "atlas")!.items.prefix(count).enumerated().map { index, item in
            let galleryItem = GalleryItem(
                id: "\(item.id)", title: item.title,
                thumbnails: [.init(url: server.baseURL + item.imagePath(thumbnailLongSide: 150), width: 150, height: 150)],
                fullImageURL: server.baseURL + item.imagePath())
            return ImageDownload(item: galleryItem, index: index, loader: loader, thumbnailPixelSize: 96,
                                 showSensitive: false)
        }
    }

    func testRowsScrolledPastBeforeTheirTurnAreNotDownloaded() throws {
        try MainActor.assumeIsolated {
            let server = try startDemoServer(.init(latencyMilliseconds: 300))
            let loader = ImageLoader(client: HTTPClient())
            let rows = Self.downloads(20, server: server, loader: loader)
            XCTAssertTrue(rows.allSatisfy { $0.state == .notStarted }, "created, never shown: nothing requested")

            rows.forEach { $0.setVisible(true) }  // a fling shows every row for a moment…
            XCTAssertTrue(rows.allSatisfy { $0.state == .loading })
            let running = loader.activeFetchCount
            XCTAssertEqual(running, 5, "one host: six connections, one kept for pages")
            XCTAssertEqual(loader.waitingFetchCount, 15)
            rows.prefix(15).forEach { $0.setVisible(false) }  // …and stops on the last five.

            XCTAssertEqual(loader.waitingFetchCount, 5, "only the rows on screen still wait")
            let passed = rows.prefix(15).filter { $0.state == .notStarted }
            XCTAssertEqual(passed.count, 15 - running, "rows scrolled past gave their place up")
            XCTAssertTrue(rows.prefix(running).allSatisfy { $0.state == .loading }, "downloads under way go on")

            XCTAssertTrue(iterateMainLoop(until: { rows.allSatisfy { $0.state != .loading } }, timeout: 20))
            XCTAssertTrue(rows.suffix(5).allSatisfy { $0.state == .loaded })
            XCTAssertEqual(server.requestCount, running + 5, "nothing was ever sent for the rows passed by")
            for row in passed { XCTAssertEqual(row.attempts, 1) }

            passed.first!.setVisible(true)  // scrolled back to: starts again
            XCTAssertTrue(iterateMainLoop(until: { passed.first!.state == .loaded }, timeout: 10))
        }
    }
}
