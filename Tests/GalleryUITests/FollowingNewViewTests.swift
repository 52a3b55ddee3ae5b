import CGLib
import CGtk
import GObjectBindings
@_spi(GtkInterop) import GtkBindings
@testable import GalleryCore
import GalleryDemoServer
import TestSupport
import XCTest
@testable import GalleryUI

/// The New view against checks that run while it is on screen, seen-marks from a gallery's own view, Mark All
/// as Seen that marks only what was shown, the address policy it asks for, and a window closed mid-check.
final class FollowingNewViewTests: GLibTestCase {
    /// Follows `names` on the demo server, lets the launch's check pass, grows every gallery once and checks.
    @MainActor
    private static func prepare(_ ui: UIHarness, following names: [String]) throws -> FollowingWatch {
        let watch = try XCTUnwrap(ui.window.following)
        let store = try XCTUnwrap(ui.following?.store)
        watch.isWindowActive = { true }
        for name in names {
            XCTAssertEqual(try FollowingWindowTests.wait { store.follow(.init(source: .demo, username: name), displayName: name, completion: $0) }, true)
        }
        XCTAssertTrue(iterateMainLoop(until: { !(ui.following?.checker.isChecking ?? true) && watch.menu.galleries.count == names.count }, timeout: 60))
        ui.server.grow()
        watch.checkNow()
        XCTAssertTrue(iterateMainLoop(until: { watch.newCount == names.count && !(ui.following?.checker.isChecking ?? true) }, timeout: 60),
                      "one new each: \(watch.newCount)")
        return watch
    }

    func testACheckWhileTheNewViewShowsAddsToItInPlaceAndMarkAllMarksOnlyWhatWasShown() throws {
        try MainActor.assumeIsolated {
            try UIHarness.withFollowing { ui, _ in
                let watch = try Self.prepare(ui, following: ["aurora"])
                watch.showNew()
                XCTAssertTrue(iterateMainLoop(until: { ui.window.gallery?.isKnownItems == true && ui.list.rowCount == 1 }, timeout: 60))
                let first = try ui.download(0).item.id

                // A check on screen: the view takes in what it found, keeping the selected image.
                ui.server.grow()
                watch.checkNow()
                XCTAssertTrue(iterateMainLoop(until: { ui.list.rowCount == 2 }, timeout: 60), "the New view grew in place")
                XCTAssertEqual(ui.list.selectedDownload?.item.id, first, "the selection stayed on the image it was on")

                // Open one in the large view; a check meanwhile finds a third, which waits (the view shows a New item).
                ui.window.openLargeView(try ui.download(1))
                XCTAssertTrue(iterateMainLoop(until: { watch.newCount == 1 }, timeout: 60), "opened: seen")
                ui.server.grow()
                watch.checkNow()
                XCTAssertTrue(iterateMainLoop(until: { watch.newCount == 2 && !(ui.following?.checker.isChecking ?? true) }, timeout: 60))
                XCTAssertEqual(ui.list.rowCount, 2, "not replaced under the large view")
                ui.window.closeLargeView()

                // Mark All marks the one still shown and new, not the third the user never saw.
                g_action_group_activate_action(OpaquePointer(ui.window.window.widget.raw), "mark-all-seen", nil)
                XCTAssertTrue(iterateMainLoop(until: { watch.newCount == 1 && ui.list.rowCount == 1 }, timeout: 60),
                              "the unseen one stays new and shows: \(watch.newCount), \(ui.list.rowCount) rows")
                XCTAssertTrue(try ui.download(0).item.fullImageURL?.contains("grown-00003") ?? false)
            }
        }
    }

    func testOpeningANewImageInItsOwnGalleryMarksItSeen() throws {
        try MainActor.assumeIsolated {
            try UIHarness.withFollowing { ui, _ in
                let watch = try Self.prepare(ui, following: ["aurora"])
                ui.search("aurora")
                XCTAssertTrue(ui.waitForRows(2))
                XCTAssertTrue(try ui.download(0).item.fullImageURL?.contains("/grown-") ?? false, "the upload tops the gallery")
                XCTAssertTrue(iterateMainLoop(until: { watch.followToggle.isActive }, timeout: 60))
                ui.window.openLargeView(try ui.download(0))
                XCTAssertTrue(iterateMainLoop(until: { watch.newCount == 0 }, timeout: 60), "seen in the app, wherever it was opened")
            }
        }
    }

    func testTheNewViewAsksForPrivateAddressesOnlyWhenAllItsGalleriesAreOnAPrivateNetwork() {
        XCTAssertEqual(NewImages.policyEndpoint(["http://127.0.0.1:8080", "https://mastodon.social"]), "https://mastodon.social")
        XCTAssertEqual(NewImages.policyEndpoint(["http://192.168.1.5", "http://127.0.0.1:8080"]), "http://192.168.1.5")
        XCTAssertNil(NewImages.policyEndpoint([]))
    }

    func testAWindowClosedMidCheckAnnouncesNothing() throws {
        try MainActor.assumeIsolated {
            let folder = TemporaryFolder()
            defer { withExtendedLifetime(folder) {} }
            let notifications = try FakeNotifications()
            let ui = try UIHarness(followDirectory: folder.path)
            let watch = try XCTUnwrap(ui.window.following)
            let store = try XCTUnwrap(ui.following?.store)
            watch.isWindowActive = { false }
            for name in ["aurora", "atlas"] {
                XCTAssertEqual(try FollowingWindowTests.wait { store.follow(.init(source: .demo, username: name), displayName: name, completion: $0) }, true)
            }
            XCTAssertTrue(iterateMainLoop(until: { !(ui.following?.checker.isChecking ?? true) && watch.menu.galleries.count == 2 }, timeout: 60))
            ui.server.grow()
            // aurora's answer comes; atlas's is held: the check is still running when the window closes.
            ui.server.holdsResponse = { $0.contains("atlas") }
            watch.checkNow()
            XCTAssertTrue(iterateMainLoop(until: { ui.server.heldResponseCount == 1 }, timeout: 60))
            XCTAssertTrue(iterateMainLoop(until: { watch.newCount == 1 }, timeout: 60), "aurora's result was written")
            ui.close()
            ui.server.releaseHeldResponses()
            drainMainLoop()
            XCTAssertTrue(notifications.added.isEmpty, "nothing announced by a window that is gone: \(notifications.added.map(\.body))")
        }
    }
}
