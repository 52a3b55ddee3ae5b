import CGLib
import CGtk
import GObjectBindings
import GtkBindings
import GalleryCore
import GalleryDemoServer
import TestSupport
import XCTest
@testable import GalleryUI

/// A launch opens on the last gallery from its saved first page at once, while the service is asked again; the
/// answer takes its place without moving the view (the item at the top, the selection), and waits while the
/// large view shows a saved item. The service's answer is held by the server until the test releases it, so
/// the saved copy is seen on screen whatever the machine's speed.
final class SavedCopyFirstTests: GLibTestCase {
    func testTheSavedFirstPageShowsAtOnceAndTheAnswerTakesItsPlaceInPlace() throws {
        try MainActor.assumeIsolated {
            let folder = TemporaryFolder(prefix: "gallery-ui-cache")
            let (service, ui) = try Self.relaunch(folder)
            defer { service.stop() }
            defer { ui.close() }

            ui.window.search(source: .demo, username: "aurora", fromSavedCopy: true)
            XCTAssertTrue(iterateMainLoop(until: { ui.window.gallery?.isSavedCopy == true }, timeout: 60),
                          "the saved copy shows while the service has not answered")
            XCTAssertTrue(ui.waitForRows(24))
            XCTAssertTrue(iterateMainLoop(until: { service.heldResponseCount == 1 }, timeout: 60), "the service was asked: \(service.requestLog) \(String(describing: ui.window.gallery?.feed.state)) \(ui.window.notices.notice.debugDescription)")
            XCTAssertEqual(ui.window.stack.visibleChildName, "gallery")
            XCTAssertEqual(ui.window.header.bar.subtitle, "24 images, updating…")
            XCTAssertNil(ui.window.notices.notice, "not offline: it is being updated")
            let saved = try XCTUnwrap(ui.window.gallery)
            // Somewhere down the list, with a row selected: where the answer must leave the view.
            ui.list.scroll(toItem: 6)
            ui.list.adjustment.value += 17
            XCTAssertTrue(ui.waitForView())
            ui.list.select(8)
            let value = ui.list.adjustment.value
            let top = try XCTUnwrap(ui.list.download(at: ui.list.visibleRange.lowerBound)).item.id

            service.releaseHeldResponses()
            XCTAssertTrue(iterateMainLoop(until: { ui.window.gallery.map { $0 !== saved && !$0.isSavedCopy } ?? false }, timeout: 60),
                          "the service's answer took the saved copy's place")
            XCTAssertTrue(iterateMainLoop(until: { saved.isCancelled }, timeout: 60), "the saved copy was let go")
            XCTAssertTrue(ui.waitForView())
            XCTAssertEqual(ui.list.adjustment.value, value, "the view did not move")
            XCTAssertEqual(ui.list.download(at: ui.list.visibleRange.lowerBound)?.item.id, top)
            XCTAssertEqual(ui.list.selectedIndex, 8, "the selection stayed")
            XCTAssertEqual(ui.window.header.bar.subtitle?.hasPrefix("24 images"), true, ui.window.header.bar.subtitle ?? "")
            XCTAssertFalse(ui.window.header.bar.subtitle?.contains("updating") ?? true)
        }
    }

    /// The service has a new upload at the top since the copy was saved: the rows below move down by one in
    /// the gallery, and the view moves with them, so what the user looks at stays where it was on screen.
    func testANewUploadAtTheTopDoesNotMoveTheView() throws {
        try MainActor.assumeIsolated {
            let folder = TemporaryFolder(prefix: "gallery-ui-cache")
            // Uploaded since the copy was saved.
            let (service, ui) = try Self.relaunch(folder, grown: true)
            defer { service.stop() }
            defer { ui.close() }

            ui.window.search(source: .demo, username: "aurora", fromSavedCopy: true)
            XCTAssertTrue(iterateMainLoop(until: { ui.window.gallery?.isSavedCopy == true && service.heldResponseCount == 1 }, timeout: 60))
            XCTAssertTrue(ui.waitForRows(24))
            XCTAssertEqual(try ui.download(0).item.title, "Aurora over the Harbour", "the saved copy, without the upload")
            ui.list.scroll(toItem: 6)
            ui.list.adjustment.value += 17
            XCTAssertTrue(ui.waitForView())
            ui.list.select(8)
            let value = ui.list.adjustment.value
            let top = try XCTUnwrap(ui.list.download(at: ui.list.visibleRange.lowerBound)).item.id
            let selected = try XCTUnwrap(ui.list.selectedDownload).item.id

            service.releaseHeldResponses()
            XCTAssertTrue(iterateMainLoop(until: { ui.window.gallery.map { !$0.isSavedCopy } ?? false }, timeout: 60))
            XCTAssertTrue(ui.waitForView())
            XCTAssertEqual(try ui.download(0).item.fullImageURL?.contains("/grown-"), true, "the upload came first")
            XCTAssertEqual(ui.list.adjustment.value, value + Double(ui.list.lineHeight), "one line further down")
            XCTAssertEqual(ui.list.download(at: ui.list.visibleRange.lowerBound)?.item.id, top, "the same item at the top")
            XCTAssertEqual(ui.list.selectedIndex, 9)
            XCTAssertEqual(ui.list.selectedDownload?.item.id, selected)
        }
    }

    /// The service is gone: the saved copy shows, and the live gallery, failing to reach it, takes its place
    /// from the same saved page and says the window is offline.
    func testWithTheServiceGoneTheSavedCopyGivesWayToTheOfflineGallery() throws {
        try MainActor.assumeIsolated {
            let folder = TemporaryFolder(prefix: "gallery-ui-cache")
            let (serviceURL, _) = try Self.firstLaunch(folder)
            let ui = try UIHarness(endpoints: [.demo: serviceURL], cacheDirectory: folder.path)
            defer { ui.close() }
            ui.window.search(source: .demo, username: "aurora", fromSavedCopy: true)
            XCTAssertTrue(iterateMainLoop(until: { ui.window.gallery.map { !$0.isSavedCopy && $0.feed.offlineCopy != nil } ?? false },
                                          timeout: 60), "the live gallery, offline")
            XCTAssertTrue(ui.waitForRows(24))
            XCTAssertTrue(iterateMainLoop(until: { ui.window.notices.notice != nil }, timeout: 60), "it says it is offline")
            XCTAssertEqual(ui.window.header.bar.subtitle?.hasPrefix("Offline · 24 images"), true, ui.window.header.bar.subtitle ?? "")
        }
    }

    func testTheAnswerWaitsWhileTheLargeViewShowsASavedItem() throws {
        try MainActor.assumeIsolated {
            let folder = TemporaryFolder(prefix: "gallery-ui-cache")
            let (service, ui) = try Self.relaunch(folder)
            defer { service.stop() }
            defer { ui.close() }

            ui.window.search(source: .demo, username: "aurora", fromSavedCopy: true)
            XCTAssertTrue(iterateMainLoop(until: { ui.window.gallery?.isSavedCopy == true && service.heldResponseCount == 1 }, timeout: 60))
            XCTAssertTrue(ui.waitForRows(24))
            let saved = try XCTUnwrap(ui.window.gallery)
            ui.window.openLargeView(try ui.download(2))
            service.releaseHeldResponses()
            // The live gallery's first page arrives behind the saved copy; the large view keeps what it shows.
            XCTAssertTrue(iterateMainLoop(until: { service.responsesInFlight == 0 && service.heldResponseCount == 0 }, timeout: 60))
            XCTAssertTrue(iterateMainLoop(until: { ui.client.fetchesInFlight == 0 }, timeout: 60))
            drainMainLoop()
            XCTAssertTrue(ui.window.gallery === saved, "not replaced under the large view")
            ui.window.closeLargeView()
            XCTAssertTrue(iterateMainLoop(until: { ui.window.gallery.map { !$0.isSavedCopy } ?? false }, timeout: 60),
                          "replaced once the large view closed")
            XCTAssertEqual(ui.list.selectedIndex, 2, "the item the large view showed stays selected")
        }
    }

    /// The saved copy's first screen shows its pictures from the thumbnails kept at quit, without the HTTP
    /// cache (emptied here) and without an answer from the service (which holds every request): what lets a
    /// launch paint them before libsoup has read its index.
    func testTheFirstScreensThumbnailsShowWithoutTheHTTPCacheOrTheService() throws {
        try MainActor.assumeIsolated {
            let folder = TemporaryFolder(prefix: "gallery-ui-cache")
            let (serviceURL, port) = try Self.firstLaunch(folder)
            DirectoryScan.removeFlatDirectory(folder.path + "/http")
            let service = try DemoServer(dataDirectory: try XCTUnwrap(DemoGalleryLocation.defaultDataDirectory()))
            service.holdsResponse = { _ in true }
            try service.start(port: port)
            defer { service.stop() }
            let ui = try UIHarness(endpoints: [.demo: serviceURL], cacheDirectory: folder.path)
            defer { ui.close() }

            ui.window.search(source: .demo, username: "aurora", fromSavedCopy: true)
            XCTAssertTrue(iterateMainLoop(until: { ui.window.gallery?.isSavedCopy == true }, timeout: 60))
            XCTAssertTrue(ui.waitForView())
            let visible = ui.list.visibleRange
            XCTAssertFalse(visible.isEmpty)
            // aurora's deliberately failing images are never kept: they wait for the (held) service.
            let pictures = visible.filter { (ui.list.download(at: $0)?.thumbnailURL ?? "").contains("fault=") == false }
            XCTAssertGreaterThan(pictures.count, 3)
            XCTAssertTrue(iterateMainLoop(until: { pictures.allSatisfy { ui.list.download(at: $0)?.state == .loaded } }, timeout: 60),
                          "every picture of the first screen shows: \(pictures.map { String(describing: ui.list.download(at: $0)?.state) })")
            XCTAssertFalse(service.requestLog.contains { $0.contains("/thumbs/") && !$0.contains("fault=") },
                           "none was asked for: \(service.requestLog)")
            service.releaseHeldResponses()
        }
    }

    /// Clear Cache empties the cache: the first screen is not kept at quit either, until a page is saved anew.
    func testAfterClearCacheTheFirstScreenIsNotKeptUntilAPageIsSavedAgain() throws {
        try MainActor.assumeIsolated {
            let folder = TemporaryFolder(prefix: "gallery-ui-cache")
            let ui = try UIHarness(cacheDirectory: folder.path)
            defer { ui.close() }
            let snapshots = try XCTUnwrap(ui.snapshots)
            var saved = false
            snapshots.onSaved = { _ in saved = true }
            ui.search("aurora")
            XCTAssertTrue(iterateMainLoop(until: { saved }, timeout: 60))
            XCTAssertTrue(ui.waitForVisibleRowsSettled())
            var removed: Int?
            snapshots.remove { removed = $0 }
            XCTAssertTrue(iterateMainLoop(until: { removed != nil }, timeout: 60))
            snapshots.saveFirstScreen(of: try XCTUnwrap(ui.window.gallery), cache: ui.pipeline.cache)
            XCTAssertNil(DirectoryScan.fileBytes(at: snapshots.thumbnailsPath), "cleared: nothing kept at quit")

            saved = false
            ui.search("atlas")
            XCTAssertTrue(iterateMainLoop(until: { saved }, timeout: 60), "atlas's first page saved")
            XCTAssertTrue(ui.waitForVisibleRowsSettled())
            snapshots.saveFirstScreen(of: try XCTUnwrap(ui.window.gallery), cache: ui.pipeline.cache)
            XCTAssertNotNil(DirectoryScan.fileBytes(at: snapshots.thumbnailsPath), "kept again with a page saved")
        }
    }

    /// A first launch, then the service again at the same address, holding its feed's answers until the test
    /// releases them (`grown`: with an upload since), and a window on the same cache: the second launch.
    @MainActor
    private static func relaunch(_ folder: TemporaryFolder, grown: Bool = false) throws -> (DemoServer, UIHarness) {
        let (serviceURL, port) = try firstLaunch(folder)
        let service = try DemoServer(dataDirectory: try XCTUnwrap(DemoGalleryLocation.defaultDataDirectory()))
        // The first page only: a later page (asked for ahead while the view is near the end) is answered at
        // once, so nothing is left waiting when the window closes.
        var heldFirstPage = false
        service.holdsResponse = { path in
            guard path.hasPrefix("/rss.xml"), !heldFirstPage else { return false }
            heldFirstPage = true
            return true
        }
        try service.start(port: port)
        if grown { service.grow() }
        do {
            return (service, try UIHarness(endpoints: [.demo: serviceURL], cacheDirectory: folder.path))
        } catch {
            service.stop()
            throw error
        }
    }

    /// A first launch that shows aurora and saves its first page in `folder`; its server then stops. Returns
    /// that server's address and port, for a server of the test's own at the same address.
    @MainActor
    private static func firstLaunch(_ folder: TemporaryFolder) throws -> (String, UInt16) {
        let first = try UIHarness(cacheDirectory: folder.path)
        let serviceURL = first.server.baseURL
        let port = try XCTUnwrap(UInt16(serviceURL.split(separator: ":").last ?? ""))
        first.search("aurora")
        XCTAssertTrue(first.waitForRows(24))
        XCTAssertTrue(iterateMainLoop(until: { fileBytes(atPath: folder.path + "/last-gallery.json") != nil }, timeout: 60),
                      "the first page was saved")
        // As the app quits: the first screen's thumbnails kept, the HTTP cache's index written.
        XCTAssertTrue(first.waitForVisibleRowsSettled())
        first.snapshots?.saveFirstScreen(of: try XCTUnwrap(first.window.gallery), cache: first.pipeline.cache)
        first.diskCache?.finishWrites()
        first.diskCache?.dump()
        first.close()
        return (serviceURL, port)
    }
}
