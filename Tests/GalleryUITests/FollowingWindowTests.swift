import CGLib
import CGtk
import GObjectBindings
@_spi(GtkInterop) import GtkBindings
@testable import GalleryCore
import GalleryDemoServer
import TestSupport
import XCTest
@testable import GalleryUI

/// Following in the real window: the Follow toggle (Ctrl+D) for the gallery on screen and what the store then
/// holds, the Following list (its rows, opening one, unfollowing), the New view built from the store's new
/// images (rows saying whose, opening one marks it seen, Mark All as Seen) and the notification of a check.
final class FollowingWindowTests: GLibTestCase {
    func testCtrlDFollowsTheGalleryOnScreenAndAgainUnfollowsIt() throws {
        try MainActor.assumeIsolated {
            let folder = TemporaryFolder()
            defer { withExtendedLifetime(folder) {} }
            let ui = try UIHarness(followDirectory: folder.path)
            defer { ui.close() }
            let watch = try XCTUnwrap(ui.window.following)
            let store = try XCTUnwrap(ui.following?.store)
            XCTAssertEqual(watch.followToggle.accessibleName, "Follow")
            XCTAssertTrue(watch.followToggle.isMapped, "the toggle is in the header bar")
            XCTAssertFalse(watch.followToggle.isSensitive, "nothing on screen to follow")
            ui.search("aurora")
            XCTAssertTrue(ui.waitForRows(24))
            XCTAssertTrue(iterateMainLoop(until: { watch.followToggle.isSensitive }, timeout: 60), "a gallery that answered can be followed")
            ui.press(GDK_KEY_d, GDK_CONTROL_MASK)
            XCTAssertTrue(iterateMainLoop(until: { watch.followed.map(\.key.username) == ["aurora"] }, timeout: 60),
                          "Ctrl+D followed it: \(watch.followed)")
            XCTAssertTrue(watch.followToggle.isActive, "the toggle shows it is followed")
            let stored = try Self.following(in: store)
            XCTAssertEqual(stored.map(\.key), [FollowedGallery.Key(source: .demo, username: "aurora")], "written to the store")
            XCTAssertEqual(watch.menu.rows.map(\.accessibleName), ["aurora on Demo"], "and listed under Following")

            ui.search("atlas")
            XCTAssertTrue(iterateMainLoop(until: { ui.list.rowCount > 0 && watch.followToggle.isSensitive }, timeout: 60))
            XCTAssertFalse(watch.followToggle.isActive, "another gallery is not followed")
            ui.search("AURORA")
            XCTAssertTrue(iterateMainLoop(until: { ui.list.rowCount > 0 && watch.followToggle.isActive }, timeout: 60),
                          "the service's own rule: AURORA is the aurora followed")
            ui.press(GDK_KEY_d, GDK_CONTROL_MASK)
            XCTAssertTrue(iterateMainLoop(until: { watch.followed.isEmpty && !watch.followToggle.isActive }, timeout: 60),
                          "Ctrl+D again unfollowed it")
            XCTAssertEqual(try Self.following(in: store).count, 0)
        }
    }

    func testTheFollowingListOpensAGalleryAndUnfollowsOne() throws {
        try MainActor.assumeIsolated {
            let folder = TemporaryFolder()
            defer { withExtendedLifetime(folder) {} }
            do {
                let store = FollowStore(directory: folder.path)
                for name in ["aurora", "atlas"] {
                    XCTAssertEqual(try Self.wait { store.follow(.init(source: .demo, username: name), displayName: name, completion: $0) }, true)
                }
                XCTAssertTrue(iterateMainLoop(until: { !store.isBusy }, timeout: 60))
            }
            let ui = try UIHarness(followDirectory: folder.path)
            defer { ui.close() }
            let watch = try XCTUnwrap(ui.window.following)
            let menu = watch.menu
            XCTAssertTrue(iterateMainLoop(until: { menu.rows.count == 2 }, timeout: 60), "the list shows the store's galleries")
            XCTAssertEqual(menu.rows.map(\.accessibleName), ["aurora on Demo", "atlas on Demo"], "oldest follow first")
            XCTAssertTrue(menu.detailLabels.allSatisfy { $0.text.hasPrefix("Demo · ") }, menu.detailLabels.map(\.text).description)
            XCTAssertEqual(menu.button.accessibleName, "Following")
            XCTAssertEqual(menu.button.accessibleDescription, "0 new")
            menu.button.isActive = true
            XCTAssertTrue(iterateMainLoop(until: { menu.popover.isOpen && menu.rows[1].isMapped }, timeout: 60))
            menu.list.activateRow(at: 1)
            XCTAssertTrue(iterateMainLoop(until: { !menu.popover.isOpen }, timeout: 60), "choosing closes the list")
            XCTAssertTrue(ui.waitForRows(1), "atlas's gallery opened")
            XCTAssertEqual(ui.window.header.usernameEntry.text, "atlas")
            XCTAssertTrue(iterateMainLoop(until: { watch.followToggle.isActive }, timeout: 60), "and shows as followed")
            menu.unfollowButtons[1].click()
            XCTAssertTrue(iterateMainLoop(until: { menu.rows.count == 1 && !watch.followToggle.isActive }, timeout: 60),
                          "its Unfollow button unfollowed atlas")
            XCTAssertEqual(menu.rows.map(\.accessibleName), ["aurora on Demo"])
        }
    }

    // MARK: Helpers

    /// Runs one store call to its end.
    @MainActor static func wait<Value>(_ call: (@escaping @MainActor (Result<Value, FollowStoreError>) -> Void) -> Void) throws -> Value {
        var outcome: Result<Value, FollowStoreError>?
        call { outcome = $0 }
        XCTAssertTrue(iterateMainLoop(until: { outcome != nil }, timeout: 60), "the store answered")
        return try XCTUnwrap(outcome).get()
    }

    @MainActor static func following(in store: FollowStore) throws -> [FollowedGallery] {
        try wait { store.following(completion: $0) }
    }
}
