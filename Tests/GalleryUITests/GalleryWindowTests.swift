import CGLib
import CGtk
import GObjectBindings
import GtkBindings
import GalleryCore
import GalleryDemoServer
import TestSupport
import XCTest
@testable import GalleryUI

/// The main window under Xvfb with the demo server: rows, lazy downloads, failures, cancellation.
final class GalleryWindowTests: GLibTestCase {
    func testRowsAppearAndOnlyRowsOnScreenDownload() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            ui.search("aurora")
            XCTAssertTrue(ui.waitForRows(24))
            XCTAssertEqual(ui.list.rowCount, 24, "one page; the next waits for a scroll")
            XCTAssertTrue(iterateMainLoop(until: { ui.window.gallery?.loadingCount == 0 }, timeout: 60),
                          "the first page's thumbnails finish loading")

            // The rows on screen, and the few just below them (prefetched: the view is heading down).
            let visible = ui.list.visibleRange
            XCTAssertGreaterThan(visible.count, 2)
            XCTAssertLessThan(visible.upperBound, 12, "a 720 px window shows a handful of rows")
            let ahead = visible.upperBound..<(visible.upperBound + ThumbnailDemand.prefetchRows)
            var wanted = 0
            for index in 0..<ui.list.rowCount {
                let shouldLoad = try (visible.contains(index) || ahead.contains(index))
                    && ui.download(index).state != .sensitiveHidden
                if shouldLoad { wanted += 1 }
                XCTAssertEqual(try ui.download(index).attempts > 0, shouldLoad, "row \(index)")
            }
            XCTAssertEqual(ui.thumbnailRequests().count, wanted, "the server saw only the rows on screen and just below")

            ui.scroll(toRow: 12)
            let second = ui.list.visibleRange
            XCTAssertTrue(second.contains(12))
            try iterateMainLoop(until: { try second.allSatisfy { try ui.download($0).attempts > 0 } }, timeout: 60)
            for index in second { XCTAssertGreaterThan(try ui.download(index).attempts, 0, "row \(index) started once shown") }
            for index in (second.upperBound + ThumbnailDemand.prefetchRows)..<24 {
                XCTAssertEqual(try ui.download(index).state, .notStarted, "row \(index) was never on screen or next to it")
            }
        }
    }

    /// A window whose gallery has loaded has nothing to animate: it paints no frames until something changes.
    /// (A started GtkSpinner keeps its CSS animation running while its stack page is hidden, so the
    /// "Loading…" page's spinner once made the window restyle and repaint 60 times a second, idle.)
    func testAWindowAtRestPaintsNoFrames() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            ui.search("atlas")
            XCTAssertTrue(ui.waitForRows(24))
            XCTAssertTrue(iterateMainLoop(until: { ui.window.gallery?.loadingCount == 0 }, timeout: 60))
            XCTAssertTrue(iterateMainLoop(until: { !ui.window.statusPage.spinner.isAnimating }, timeout: 60))
            XCTAssertFalse(ui.window.statusPage.spinner.isAnimating, "the hidden status page's spinner is stopped")
            // What the gallery's arrival queued (layout, thumbnails painted) is drawn before counting.
            ui.settleFrames()
            let clock = try XCTUnwrap(gtk_widget_get_frame_clock(ui.window.window.widget))
            final class Count { var frames = 0 }
            let count = Count()
            let connection = ObjectRef(UnsafeMutableRawPointer(clock), transfer: .none)
                .connect("after-paint") { count.frames += 1 }
            // A window with an animation running paints a frame per screen refresh, 60 in this second; a slow
            // machine paints fewer but still well over the 5 allowed, while a window at rest paints none.
            iterateMainLoop(for: 1.0)
            connection.disconnect()
            XCTAssertLessThan(count.frames, 5, "an idle window painted \(count.frames) frames in a second")
        }
    }

    func testAFinishedRowShowsItsImageAndAStoppedSpinner() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            // The thumbnails are held at the server until the test has looked: a latency alone can run out
            // while a loaded machine builds the first screen.
            ui.server.holdsResponse = { $0.hasPrefix("/thumbs/") }
            ui.search("aurora")
            XCTAssertTrue(ui.waitForRows(1))
            XCTAssertTrue(iterateMainLoop(until: { ui.server.heldResponseCount > 0 }, timeout: 60), "thumbnails asked for")
            let row = try ui.row(0)
            XCTAssertEqual(try ui.download(0).state, .loading)
            XCTAssertTrue(row.spinner.isSpinning, "spinning while the thumbnail loads")
            XCTAssertEqual(row.thumbnail.iconName, "image-x-generic-symbolic", "a placeholder meanwhile")
            XCTAssertTrue(row.thumbnail.hasStyleClass("dim-label"), "dimmed")
            let placeholder = row.thumbnail

            ui.server.holdsResponse = nil
            ui.server.releaseHeldResponses()
            XCTAssertTrue(try iterateMainLoop(until: { try ui.download(0).state == .loaded }, timeout: 60))
            XCTAssertFalse(row.spinner.isSpinning)
            XCTAssertFalse(row.spinner.isVisible)
            XCTAssertEqual(row.thumbnailStack.visibleChildName, "image")
            XCTAssertTrue([Image.Content.pixbuf, .surface].contains(row.thumbnail.content), "the thumbnail is shown")
            XCTAssertFalse(row.thumbnail.hasStyleClass("dim-label"), "not dimmed")
            // Two widgets, each with its classes for good: a class switched on a page restyles its siblings.
            XCTAssertTrue(placeholder.hasStyleClass("dim-label"), "the placeholder stays dimmed, on a page not shown")
            XCTAssertEqual(row.titleLabel.text, "Aurora over the Harbour")
            XCTAssertEqual(row.detailLabel.text, "aurora-001-aurora-over-the-harbour.jpg · 4000 × 2667")
        }
    }

    func testAnErrorRowShowsItsReasonAndRetriesOnClick() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            ui.search("aurora")
            XCTAssertTrue(ui.waitForRows(24))
            let missing = 5  // "Missing Lighthouse", served as 404
            ui.scroll(toRow: missing)
            XCTAssertTrue(try iterateMainLoop(until: { if case .failed = try ui.download(missing).state { true } else { false } },
                                          timeout: 60))
            let row = try ui.row(missing)
            XCTAssertEqual(try ui.download(missing).state, .failed(reason: "HTTP 404 Not Found"))
            XCTAssertEqual(row.detailLabel.text, "HTTP 404 Not Found")
            XCTAssertEqual(row.thumbnailStack.visibleChildName, "failed")
            XCTAssertEqual(row.retryButton.tooltip, "HTTP 404 Not Found. Click to try again.")
            // The row's own tooltip is asked for when the pointer rests on it (never set at each rebind).
            XCTAssertNotEqual(gtk_widget_get_has_tooltip(row.row.widget), 0)
            XCTAssertEqual(row.tooltipText, "HTTP 404 Not Found")
            XCTAssertEqual(try ui.row(missing + 1).tooltipText, try ui.download(missing + 1).item.altText,
                           "a row that loads offers the item's alt text")
            XCTAssertFalse(row.spinner.isSpinning)
            XCTAssertTrue(row.row.hasStyleClass("failed"))
            XCTAssertEqual(try ui.download(missing + 1).state == .loaded || ui.download(missing + 1).state == .loading, true,
                           "the other rows go on loading")

            row.retryButton.click()
            XCTAssertEqual(try ui.download(missing).attempts, 2)
            XCTAssertTrue(try iterateMainLoop(until: { if case .failed = try ui.download(missing).state { true } else { false } },
                                          timeout: 60))
            XCTAssertEqual(ui.thumbnailRequests().filter { $0.contains("missing-lighthouse") }.count, 2)
        }
    }

    func testEveryKindOfFailureBecomesAnErrorRow() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness(client: .init(ioTimeoutSeconds: 1))
            defer { ui.close() }
            ui.search("aurora")
            XCTAssertTrue(ui.waitForRows(24))
            let expected: [Int: String] = [
                5: "HTTP 404 Not Found", 7: "HTTP 500 Internal Server Error", 10: "Not an image (text/html)",
                12: "Download cut off (connection closed early)", 18: "Timed out (no data for 1 s)",
            ]
            for index in [5, 7, 10, 12, 15, 18, 21] {
                ui.scroll(toRow: index)
                XCTAssertTrue(try iterateMainLoop(until: {
                    try ui.download(index).state != .loading && ui.download(index).state != .notStarted
                }, timeout: 60), "row \(index)")
            }
            for (index, reason) in expected { XCTAssertEqual(try ui.download(index).state, .failed(reason: reason)) }
            guard case .failed(let corrupt) = try ui.download(15).state else { return XCTFail("corrupt image loaded") }
            XCTAssertTrue(corrupt.hasPrefix("Not a readable image"), corrupt)
            XCTAssertEqual(try ui.download(21).state, .loaded, "the redirect is followed to the real image")
            XCTAssertEqual(try ui.download(8).state, .sensitiveHidden, "adult items wait for the user's consent")
        }
    }

    func testANewSearchMidLoadCancelsTheOldGallery() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            ui.server.holdsResponse = { $0.hasPrefix("/thumbs/") && $0.contains("aurora-") }
            ui.search("aurora")
            XCTAssertTrue(ui.waitForRows(24))
            XCTAssertTrue(iterateMainLoop(until: { ui.server.heldResponseCount > 0 }, timeout: 60), "thumbnails asked for")
            let old = try XCTUnwrap(ui.window.gallery)
            XCTAssertGreaterThan(old.loadingCount, 0)
            let oldDownloads = old.downloads

            ui.search("atlas")
            XCTAssertTrue(old.isCancelled)
            XCTAssertEqual(oldDownloads.filter { $0.state == .loading }.count, 0, "no old download is left running")
            XCTAssertEqual(ui.pipeline.unfinishedTaskCount, 0, "the old gallery's fetches are gone")
            ui.server.releaseHeldResponses()  // the old answers come now, to requests given up
            XCTAssertTrue(ui.waitForRows(24))
            XCTAssertEqual(try ui.download(0).item.author, "atlas")
            iterateMainLoop(until: { ui.window.gallery?.loadingCount == 0 }, timeout: 60)
            XCTAssertTrue(oldDownloads.allSatisfy { $0.state == .notStarted || $0.state == .loaded || $0.state == .sensitiveHidden },
                          "nothing arrived late into the old gallery")
        }
    }

    func testScrollingToTheEndLoadsTheNextPageOnce() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness(server: .init(latencyMilliseconds: 200))
            defer { ui.close() }
            // The second page is held at the server until the test has looked at the window loading it. Its
            // latency alone (200 ms) was shorter than the two scrolls below take on a busy machine: the page
            // had come and the feed was idle again before the test looked.
            ui.server.holdsResponse = { $0.contains("offset=24") }
            ui.search("aurora")
            XCTAssertTrue(ui.waitForRows(24))
            ui.scroll(toRow: 22)
            ui.scroll(toRow: 23)
            XCTAssertEqual(ui.window.gallery?.feed.state, .loading(page: 2))
            XCTAssertTrue(iterateMainLoop(until: { ui.list.footerLabel.text == "Loading more…" }, timeout: 60))
            XCTAssertTrue(iterateMainLoop(until: { ui.server.heldResponseCount > 0 }, timeout: 60), "page 2 was asked for")
            ui.server.releaseHeldResponses()
            XCTAssertTrue(iterateMainLoop(until: { ui.list.rowCount == 48 }, timeout: 60))
            XCTAssertEqual(ui.server.requestLog.filter { $0.contains("offset=24") }.count, 1, "requested once")
            XCTAssertEqual(ui.window.gallery?.feed.state, .idle, "one more page to go, when the user scrolls")
            ui.scroll(toRow: 47)
            XCTAssertTrue(iterateMainLoop(until: { ui.list.rowCount == 60 }, timeout: 60))
            XCTAssertTrue(iterateMainLoop(until: { ui.window.gallery?.feed.state == .finished }, timeout: 60))
            XCTAssertTrue(iterateMainLoop(until: { ui.list.footerLabel.text == "End of gallery · 60 images" }, timeout: 60),
                          ui.list.footerLabel.text)
            // The client has no fetch in flight but the pipeline's thumbnails (aurora's stalled one runs into its
            // timeout): every page request it made has been answered, so the server has logged them all.
            XCTAssertTrue(iterateMainLoop(until: { ui.client.fetchesInFlight == ui.pipeline.activeFetchCount }, timeout: 60))
            XCTAssertEqual(ui.server.requestLog.filter { $0.contains("offset=24") }.count, 1, "page 2 requested once")
        }
    }

    func testMissingAndEmptyGalleriesGetAMessage() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            ui.search("bob")
            XCTAssertTrue(iterateMainLoop(until: { ui.window.statusPage.titleLabel.text == "No such user: bob" }, timeout: 60))
            XCTAssertEqual(ui.window.header.bar.subtitle, "No such user: bob")
            XCTAssertEqual(ui.list.rowCount, 0)

            ui.search("empty")
            XCTAssertTrue(iterateMainLoop(until: { ui.window.statusPage.titleLabel.text == "empty has no images yet" }, timeout: 60))

            ui.search("brokenfeed")
            XCTAssertTrue(iterateMainLoop(until: {
                ui.window.statusPage.titleLabel.text == "Demo sent a response the app could not read"
            }, timeout: 60))

            ui.search("bad name!")
            XCTAssertEqual(ui.window.statusPage.titleLabel.text, "Not a valid username")
        }
    }

    func testClosingTheWindowMidDownloadIsClean() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness(server: .init(latencyMilliseconds: 100, bandwidthBytesPerSecond: 20_000))
            // The thumbnails trickle in, and two of the first asked for are held at the server: some are surely
            // still on their way when the window closes, however long the first screen took to build.
            ui.server.holdsResponse = { $0.hasPrefix("/thumbs/") && ($0.contains("/aurora-003-") || $0.contains("/aurora-004-")) }
            ui.search("aurora")
            XCTAssertTrue(ui.waitForRows(24))
            XCTAssertTrue(iterateMainLoop(until: { ui.server.heldResponseCount > 0 }, timeout: 60), "later thumbnails asked for")
            XCTAssertGreaterThan(ui.pipeline.activeFetchCount, 0, "downloads are in flight when the window closes")
            let downloads = try XCTUnwrap(ui.window.gallery).downloads
            ui.window.window.close()  // what the title bar's close button and Ctrl+W do
            XCTAssertTrue(iterateMainLoop(until: { ui.window.isDestroyed }, timeout: 60))
            XCTAssertEqual(ui.pipeline.unfinishedTaskCount, 0, "every fetch and decode was cancelled with the window")
            XCTAssertEqual(ui.pipeline.activeFetchCount, 0)
            let states = downloads.map(\.state)
            XCTAssertFalse(states.contains(.loading))
            ui.server.releaseHeldResponses()
            // The server done with every response (sent to a dropped connection) and the client with nothing in
            // flight: all that could still arrive is what the main loop already holds.
            XCTAssertTrue(iterateMainLoop(until: { ui.server.responsesInFlight == 0 && ui.client.fetchesInFlight == 0 }, timeout: 60),
                          "still going: \(ui.server.responsesInFlight) responses, \(ui.client.fetchesInFlight) fetches")
            drainMainLoop()
            XCTAssertEqual(downloads.map(\.state), states, "no callback arrived after the window was gone")
            XCTAssertEqual(ui.pipeline.cache.count, downloads.count { $0.state == .loaded }, "nothing decoded late")
            ui.close()
        }
    }

    func testReloadAndShowSensitiveWorkThroughTheirActions() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            ui.search("aurora")
            XCTAssertTrue(ui.waitForRows(24))
            let adult = 8
            ui.scroll(toRow: adult)
            XCTAssertEqual(try ui.download(adult).state, .sensitiveHidden)

            // The main menu's check item activates app.show-sensitive; the app dropped the action's wrapper.
            ui.activateAction("app.show-sensitive")
            XCTAssertNotEqual(try ui.download(adult).state, .sensitiveHidden, "the hidden image is shown")
            XCTAssertTrue(ui.window.showSensitive)
            ui.activateAction("app.show-sensitive")
            XCTAssertFalse(ui.window.showSensitive, "and the toggle turns it off again")

            // F5 and the main menu's Reload activate win.reload.
            let firstPages = ui.server.requestLog.filter { $0.contains("rss.xml") && !$0.contains("offset") }.count
            let old = try XCTUnwrap(ui.window.gallery)
            ui.activateAction("reload")
            XCTAssertTrue(old.isCancelled)
            XCTAssertTrue(ui.waitForRows(24))
            XCTAssertEqual(ui.server.requestLog.filter { $0.contains("rss.xml") && !$0.contains("offset") }.count, firstPages + 1)
        }
    }
}
