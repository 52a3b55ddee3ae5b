import XCTest
import GObjectBindings
import GalleryDemoServer
import TestSupport
@testable import GalleryCore

/// The row model's lifecycle against the demo server: start on first show, give up a place in the queue
/// when scrolled away before anything was sent, go on when already downloading.
final class ItemViewModelTests: GLibTestCase {
    @MainActor
    private static func downloads(_ count: Int, server: DemoServer, pipeline: ImagePipeline) -> [ItemViewModel] {
        server.catalog.user(named: "atlas")!.items.prefix(count).enumerated().map { index, item in
            let galleryItem = GalleryItem(
                id: "\(item.id)", title: item.title,
                thumbnails: [.init(url: server.baseURL + item.imagePath(thumbnailLongSide: 150), width: 150, height: 150)],
                fullImageURL: server.baseURL + item.imagePath())
            return ItemViewModel(item: galleryItem, index: index, pipeline: pipeline, thumbnailPixelSize: 96,
                                 showSensitive: false)
        }
    }

    func testRowsScrolledPastBeforeTheirTurnAreNotDownloaded() throws {
        try MainActor.assumeIsolated {
            let server = try startDemoServer(.init(latencyMilliseconds: 300))
            let pipeline = ImagePipeline(client: HTTPClient())
            let rows = Self.downloads(20, server: server, pipeline: pipeline)
            XCTAssertTrue(rows.allSatisfy { $0.state == .notStarted }, "created, never shown: nothing requested")

            rows.forEach { $0.setVisible(true) }  // a fling shows every row for a moment…
            XCTAssertTrue(rows.allSatisfy { $0.state == .loading })
            let running = pipeline.activeFetchCount
            XCTAssertEqual(running, 5, "one host: six connections, one kept for pages")
            XCTAssertEqual(pipeline.waitingFetchCount, 15)
            rows.prefix(15).forEach { $0.setVisible(false) }  // …and stops on the last five.

            XCTAssertEqual(pipeline.waitingFetchCount, 5, "only the rows on screen still wait")
            let passed = rows.prefix(15).filter { $0.state == .notStarted }
            XCTAssertEqual(passed.count, 15 - running, "rows scrolled past gave their place up")
            XCTAssertTrue(rows.prefix(running).allSatisfy { $0.state == .loading }, "downloads under way go on")

            XCTAssertTrue(iterateMainLoop(until: { rows.allSatisfy { $0.state != .loading } }, timeout: 60))
            XCTAssertTrue(rows.suffix(5).allSatisfy { $0.state == .loaded })
            XCTAssertEqual(server.requestCount, running + 5, "nothing was ever sent for the rows passed by")
            for row in passed { XCTAssertEqual(row.attempts, 1) }

            passed.first!.setVisible(true)  // scrolled back to: starts again
            XCTAssertTrue(iterateMainLoop(until: { passed.first!.state == .loaded }, timeout: 60))
        }
    }

    func testABoundRowHoldsThePixelsAndTheCacheBringsThemBack() throws {
        try MainActor.assumeIsolated {
            let server = try startDemoServer()
            // Room for one 96 px thumbnail.
            let pipeline = ImagePipeline(client: HTTPClient(), cache: ImageCache(capacityBytes: 30_000))
            let rows = Self.downloads(4, server: server, pipeline: pipeline)
            var changes = 0
            rows[0].bind { _ in changes += 1 }
            rows[0].setVisible(true)
            XCTAssertTrue(iterateMainLoop(until: { rows[0].state == .loaded }, timeout: 60))
            XCTAssertNotNil(rows[0].thumbnail, "the bound row shows it")
            XCTAssertNotNil(rows[0].decodedImageSize)
            XCTAssertEqual(changes, 2, "loading, loaded")

            rows[0].unbind()
            rows[0].setVisible(false)
            XCTAssertNil(rows[0].thumbnail, "no pixels for a row off screen")
            XCTAssertEqual(rows[0].state, .loaded)
            rows[0].bind { _ in changes += 1 }
            XCTAssertNotNil(rows[0].thumbnail, "back from the cache, at once")
            XCTAssertEqual(rows[0].attempts, 1, "not requested again")
            rows[0].unbind()

            // Unbound and loaded elsewhere meanwhile: it keeps nothing, the rows after it push it out of the cache.
            for row in rows.dropFirst() { row.setVisible(true) }
            XCTAssertTrue(iterateMainLoop(until: { rows.dropFirst().allSatisfy { $0.state == .loaded } }, timeout: 60))
            XCTAssertTrue(rows.dropFirst().allSatisfy { $0.thumbnail == nil })
            rows[0].bind { _ in }
            XCTAssertEqual(rows[0].state, .notStarted, "the cache let it go: it loads again when shown")
            rows[0].setVisible(true)
            XCTAssertTrue(iterateMainLoop(until: { rows[0].state == .loaded }, timeout: 60))
            XCTAssertEqual(rows[0].attempts, 2)
            XCTAssertNotNil(rows[0].thumbnail)

            // Wanted before its row is bound (the view makes its cells a few per frame, after asking for the
            // items on screen), and let go by the cache: binding loads it again at once.
            rows[0].unbind()
            pipeline.cache.removeAll()
            XCTAssertTrue(rows[0].isVisible, "still wanted")
            rows[0].bind { _ in }
            XCTAssertEqual(rows[0].state, .loading, "wanted, and the cache let it go: it loads again at once")
            XCTAssertTrue(iterateMainLoop(until: { rows[0].state == .loaded }, timeout: 60))
            XCTAssertEqual(rows[0].attempts, 3)
            XCTAssertNotNil(rows[0].thumbnail)
        }
    }

    /// Every change a row shows reaches the bound row through one channel, the same that keeps the gallery's
    /// counts: a download cancelled while loading (a new search) stops the bound row's spinner too.
    func testEveryStateChangeReachesTheBoundRowAndTheGallery() throws {
        try MainActor.assumeIsolated {
            let server = try startDemoServer(.init(latencyMilliseconds: 300))
            let pipeline = ImagePipeline(client: HTTPClient())
            let context = ItemViewModel.Context(pipeline: pipeline, thumbnailPixelSize: 96)
            var galleryHeard: [ItemViewModel.State] = []
            context.onStateChange = { download, _ in galleryHeard.append(download.state) }
            let item = server.catalog.user(named: "atlas")!.items[0]
            let download = ItemViewModel(
                item: GalleryItem(id: "1", title: "one",
                                  thumbnails: [.init(url: server.baseURL + item.imagePath(thumbnailLongSide: 150), width: 150, height: 150)],
                                  fullImageURL: server.baseURL + item.imagePath()),
                index: 0, context: context, showSensitive: false)
            var rowSaw: [ItemViewModel.State] = []
            download.bind { rowSaw.append($0.state) }
            download.setVisible(true)
            XCTAssertEqual(download.state, .loading)
            download.cancel()
            XCTAssertEqual(download.state, .notStarted)
            XCTAssertEqual(rowSaw, [.loading, .notStarted], "the bound row hears the cancel")
            XCTAssertEqual(galleryHeard, [.loading, .notStarted], "and so do the gallery's counts")
            XCTAssertEqual(pipeline.unfinishedTaskCount, 0)

            download.setVisible(false)
            download.setVisible(true)
            XCTAssertTrue(iterateMainLoop(until: { download.state == .loaded }, timeout: 60))
            XCTAssertEqual(rowSaw, [.loading, .notStarted, .loading, .loaded])
            XCTAssertEqual(galleryHeard, rowSaw)
        }
    }

    func testPrefetchLoadsBehindTheRowsOnScreen() throws {
        try MainActor.assumeIsolated {
            let server = try startDemoServer(.init(latencyMilliseconds: 100))
            let client = HTTPClient()
            var started: [String] = []
            client.onRequestStarted = { started.append($0) }
            let pipeline = ImagePipeline(client: client)
            let rows = Self.downloads(12, server: server, pipeline: pipeline)
            for row in rows.suffix(6) { row.setInterest(.prefetch) }
            for row in rows.prefix(6) { row.setInterest(.visible) }
            XCTAssertEqual(pipeline.activeFetchCount, 5, "the first five prefetches took the free connections")
            XCTAssertTrue(iterateMainLoop(until: { rows.allSatisfy { $0.state == .loaded } }, timeout: 60))
            let order = rows.map { started.firstIndex(of: $0.thumbnailURL!)! }
            XCTAssertLessThan(order.prefix(6).max()!, order[11], "every row on screen before the last prefetch: \(order)")

            let fresh = ImagePipeline(client: HTTPClient())
            let others = Self.downloads(11, server: server, pipeline: fresh)
            others.prefix(5).forEach { $0.setVisible(true) }
            others.suffix(6).forEach { $0.setInterest(.prefetch) }
            XCTAssertEqual(fresh.waitingFetchCount, 6)
            others.suffix(6).forEach { $0.setInterest(.none) }
            XCTAssertEqual(fresh.waitingFetchCount, 0, "prefetches no longer wanted give their places up")
            XCTAssertTrue(others.suffix(6).allSatisfy { $0.state == .notStarted })
        }
    }
}
