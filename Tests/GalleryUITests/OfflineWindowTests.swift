import CGLib
import CGtk
import GObjectBindings
import GtkBindings
import GalleryCore
import GalleryDemoServer
import TestSupport
import XCTest
@testable import GalleryUI

/// A window with a disk cache, as the app has: the second "launch" (a new window, client and cache on the
/// same directory) with the server gone shows the first screen from disk and says it is offline; Try Again
/// goes back online once the server is back.
final class OfflineWindowTests: GLibTestCase {
    func testASecondLaunchWithoutTheServerShowsTheSavedFirstScreenAndSaysItIsOffline() throws {
        try MainActor.assumeIsolated {
            let folder = TemporaryFolder(prefix: "gallery-ui-cache")
            let first = try UIHarness(cacheDirectory: folder.path)
            let serviceURL = first.server.baseURL
            let port = try XCTUnwrap(UInt16(serviceURL.split(separator: ":").last ?? ""))
            first.search("aurora")
            XCTAssertTrue(first.waitForRows(24))
            let shown = Array(first.list.visibleRange)
            let pictures = shown.filter { $0 < 5 }  // aurora's first five load; the sixth is a 404 on purpose
            XCTAssertTrue(try iterateMainLoop(until: { try pictures.allSatisfy { try first.download($0).state == .loaded } }, timeout: 60))
            XCTAssertEqual(first.window.notices.notice, nil, "online: no notice")
            XCTAssertFalse(first.window.header.bar.subtitle?.hasPrefix("Offline") ?? true)
            first.diskCache?.finishWrites()
            first.diskCache?.dump()
            first.close()

            // The service is gone (its port closed); the window's own demo server is elsewhere.
            let second = try UIHarness(endpoints: [.demo: serviceURL], cacheDirectory: folder.path)
            defer { second.close() }
            second.search("aurora")
            XCTAssertTrue(second.waitForRows(24), "the saved first page is shown")
            XCTAssertEqual(second.window.gallery?.downloads.first?.item.title, "Aurora over the Harbour")
            XCTAssertTrue(try iterateMainLoop(until: { try pictures.allSatisfy { try second.download($0).state == .loaded } }, timeout: 60),
                          "the thumbnails come from the disk cache: \(pictures.map { second.list.download(at: $0)?.state })")
            guard case .offline(service: "Demo", savedAgo: "just now")? = second.window.notices.notice else {
                return XCTFail("the window does not say it is offline: \(String(describing: second.window.notices.notice))")
            }
            XCTAssertTrue(second.window.notices.bar.isRevealed)
            XCTAssertTrue(second.window.notices.retryButton.isVisible)
            XCTAssertTrue(second.window.header.bar.subtitle?.hasPrefix("Offline · 24 images") ?? false,
                          second.window.header.bar.subtitle ?? "no subtitle")
            XCTAssertEqual(second.window.stack.visibleChildName, "gallery", "the list, not an error page")

            // The network is back: Try Again (F5, win.reload) shows the live gallery and the notice goes.
            let back = try DemoServer(dataDirectory: try XCTUnwrap(DemoGalleryLocation.defaultDataDirectory()))
            try back.start(port: port)
            defer { back.stop() }
            second.window.notices.retryButton.click()
            XCTAssertTrue(iterateMainLoop(until: {
                second.window.gallery?.feed.pagesLoaded == 1 && second.window.gallery?.feed.offlineCopy == nil
            }, timeout: 60), "the gallery was loaded again from the server")
            XCTAssertTrue(iterateMainLoop(until: { !second.window.notices.bar.isRevealed }, timeout: 60))
            XCTAssertNil(second.window.notices.notice)
            XCTAssertFalse(second.window.header.bar.subtitle?.hasPrefix("Offline") ?? true)
            XCTAssertTrue(back.requestLog.contains { $0.hasPrefix("/rss.xml") }, "the feed came from the server")
        }
    }

    func testANoteShowsOverTheOfflineNoticeWhichStays() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            let notices = ui.window.notices
            notices.show(.offline(service: "Demo", savedAgo: "an hour ago"))
            XCTAssertEqual(notices.label.text, "Offline: Demo cannot be reached. Showing the gallery as saved an hour ago.")
            ui.window.showNote("Cache cleared: 3 MB of saved thumbnails, images and pages deleted.")
            XCTAssertEqual(ui.window.notification.text, "Cache cleared: 3 MB of saved thumbnails, images and pages deleted.")
            XCTAssertEqual(notices.notice, .offline(service: "Demo", savedAgo: "an hour ago"), "the note does not hide the offline state")
            XCTAssertTrue(notices.bar.isRevealed)
            XCTAssertTrue(notices.retryButton.isVisible)
            notices.show(nil)
            XCTAssertFalse(notices.bar.isRevealed)
        }
    }
}
