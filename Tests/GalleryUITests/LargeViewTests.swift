import CGLib
import CGtk
import GObjectBindings
import GtkBindings
import GalleryCore
import GalleryDemoServer
import TestSupport
import XCTest
@testable import GalleryUI

final class LargeViewTests: GLibTestCase {
    func testActivatingARowOpensTheLargeViewWithTheFullImage() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            ui.search("aurora")
            XCTAssertTrue(ui.waitForRows(24))
            ui.scroll(toRow: 3)
            XCTAssertTrue(try iterateMainLoop(until: { try ui.download(3).state == .loaded }, timeout: 60))
            let scrolledTo = ui.list.adjustment.value

            ui.activate(3)  // what a double-click or Enter does
            XCTAssertTrue(ui.window.isLargeViewOpen)
            let view = ui.window.largeView
            XCTAssertEqual(view.download?.index, 3)
            let thumbnail = try XCTUnwrap(try ui.download(3).thumbnail?.pixbuf)
            XCTAssertTrue(view.shownPixbuf === thumbnail, "the row's thumbnail shows at once, before the full image")
            XCTAssertFalse(view.isShowingFullImage)
            XCTAssertTrue(iterateMainLoop(until: { view.isShowingFullImage }, timeout: 60))
            let item = try XCTUnwrap(ui.server.catalog.user(named: "aurora")).items[3]
            XCTAssertEqual(view.fullImageSize?.width, item.width)
            XCTAssertEqual(view.fullImageSize?.height, item.height)
            XCTAssertEqual(ui.window.window.title, item.title)
            XCTAssertEqual(ui.window.header.bar.subtitle, "\(item.width) × \(item.height) pixels")
            XCTAssertEqual(view.canvas.area.accessibleName, "Large view: \(item.title)")
            XCTAssertFalse(view.status.spinner.isSpinning)

            ui.activateAction("next")  // Right, Page Down
            XCTAssertEqual(view.download?.index, 4, "Right shows the next image")
            ui.activateAction("previous")  // Left, Page Up
            XCTAssertEqual(view.download?.index, 3, "Left the one before")
            ui.activateAction("next")

            ui.activateAction("back")  // Escape
            XCTAssertFalse(ui.window.isLargeViewOpen)
            XCTAssertEqual(ui.window.window.title, "Gallery Viewer")
            // The list shown again is laid out in the frames after it is mapped; by the end of those the view
            // is where it stays.
            XCTAssertTrue(iterateMainLoop(until: { ui.list.listBox.isMapped }, timeout: 60), "the list is shown again")
            XCTAssertTrue(ui.waitForView())
            ui.settleLayout()
            XCTAssertEqual(ui.list.adjustment.value, scrolledTo, accuracy: 1,
                           "back at the same scroll position")
            XCTAssertEqual(ui.list.selectedIndex, 4, "the image last viewed is selected")
        }
    }

    /// Next shows the previous picture until the new one can be painted (no blank frame); when the new one
    /// fails and has no thumbnail either, the old picture does not stand in for it.
    func testAFailedImageWithoutThumbnailDoesNotKeepThePreviousPicture() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            let view = ui.openPhoto(4)  // Tiny Square; next is "Missing Lighthouse", a 404 also for its thumbnail
            XCTAssertTrue(ui.waitUntilSettled(5))
            XCTAssertNil(try ui.download(5).cachedThumbnail)
            ui.activateAction("next")
            XCTAssertTrue(view.canvas.hasPicture, "the previous picture stays while the next one loads")
            XCTAssertTrue(iterateMainLoop(until: { view.failure != nil }, timeout: 60))
            XCTAssertEqual(view.failure, "HTTP 404 Not Found")
            XCTAssertFalse(view.canvas.hasPicture, "no other item's picture under the failure")
            XCTAssertTrue(view.status.retryButton.isVisible)
        }
    }

    func testClosingTheLargeViewMidLoadStopsTheDownload() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness(server: .init(bandwidthBytesPerSecond: 100_000))
            defer { ui.close() }
            ui.search("aurora")
            XCTAssertTrue(ui.waitForRows(24))
            iterateMainLoop(until: { ui.window.gallery?.loadingCount == 0 }, timeout: 60)
            let requestsBefore = ui.server.requestCount

            ui.activate(0)  // a 4000 px JPEG at 100 KB/s: seconds to arrive
            let view = ui.window.largeView
            XCTAssertTrue(iterateMainLoop(until: { ui.server.requestCount > requestsBefore }, timeout: 60))
            XCTAssertTrue(view.status.spinner.isSpinning)
            ui.activateAction("back")
            XCTAssertFalse(view.status.spinner.isSpinning)
            XCTAssertEqual(ui.pipeline.unfinishedTaskCount, 0, "the full image's fetch is cancelled")
            // At 100 KB/s the photo takes seconds to send: the server finishing its response now means the
            // client dropped the connection, and with the client's fetch wound down nothing is left to arrive
            // but what the main loop already holds.
            XCTAssertTrue(iterateMainLoop(until: { ui.server.responsesInFlight == 0 && ui.client.fetchesInFlight == 0 }, timeout: 60),
                          "still sending the photo: \(ui.server.responsesInFlight) responses, \(ui.client.fetchesInFlight) fetches")
            drainMainLoop()
            XCTAssertFalse(view.isShowingFullImage, "nothing arrives after the view closed")
            XCTAssertNil(view.fullImageSize)
        }
    }
}
