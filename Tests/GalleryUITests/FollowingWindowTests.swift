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
            try UIHarness.withFollowing { ui, watch in
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
                XCTAssertEqual(watch.menu.galleries.map { FollowingMenu.title(of: $0) }, ["aurora on Demo"], "and listed under Following")

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
    }

    func testTheFollowingListOpensAGalleryAndUnfollowsOne() throws {
        try MainActor.assumeIsolated {
            try UIHarness.withFollowing(before: { folder in
                let store = FollowStore(directory: folder.path)
                for name in ["aurora", "atlas"] {
                    XCTAssertEqual(try Self.wait { store.follow(.init(source: .demo, username: name), displayName: name, completion: $0) }, true)
                }
                XCTAssertTrue(iterateMainLoop(until: { !store.isBusy }, timeout: 60))
            }) { ui, watch in
                let menu = watch.menu
                XCTAssertTrue(iterateMainLoop(until: { menu.galleries.count == 2 }, timeout: 60), "the list has the store's galleries")
                XCTAssertEqual(menu.button.accessibleName, "Following")
                XCTAssertEqual(menu.button.accessibleDescription, "0 new")
                XCTAssertTrue(menu.rows.isEmpty, "whose rows are made when the list first opens, not with the window")
                menu.button.isActive = true
                XCTAssertEqual(menu.rows.map(\.accessibleName), ["aurora on Demo", "atlas on Demo"], "oldest follow first")
                XCTAssertTrue(menu.detailLabels.allSatisfy { $0.text.hasPrefix("Demo · ") }, menu.detailLabels.map(\.text).description)
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
    }

    func testACheckFindsNewImagesWhichTheNewViewShowsAndOpeningOneMarksItSeen() throws {
        try MainActor.assumeIsolated {
            let notifications = try FakeNotifications()
            try UIHarness.withFollowing { ui, watch in
                // The window is away (whichever check finds the growth, this one or the one at the first paint).
                watch.isWindowActive = { false }
                let store = try XCTUnwrap(ui.following?.store)
                for name in ["aurora", "atlas"] {
                    XCTAssertEqual(try Self.wait { store.follow(.init(source: .demo, username: name), displayName: name, completion: $0) }, true)
                }
                // The first check (at the first paint) found the baseline; the galleries then grow by one each.
                XCTAssertTrue(iterateMainLoop(until: { !(ui.following?.checker.isChecking ?? true) && watch.menu.galleries.count == 2 }, timeout: 60))
                ui.server.grow()
                watch.checkNow()
                XCTAssertTrue(iterateMainLoop(until: { watch.menu.button.accessibleDescription == "2 new" }, timeout: 60),
                              "the Following button says how many are new: \(String(describing: watch.menu.button.accessibleDescription)); \(watch.menu.statusLabel.text)")
                XCTAssertEqual(watch.menu.newButton.label, "_New Images (2)")
                XCTAssertEqual(watch.menu.statusLabel.text, "Last check just now: 2 new images")
                let details = watch.menu.galleries.map { FollowingMenu.detail(of: $0) }
                XCTAssertTrue(details.allSatisfy { $0.hasPrefix("Demo · 1 new · checked ") }, details.description)
                XCTAssertTrue(iterateMainLoop(until: { !notifications.added.isEmpty }, timeout: 60), "a desktop notification, the window being away")
                XCTAssertEqual(notifications.added.first?.id, "new-images")
                XCTAssertEqual(notifications.added.first?.title, "New images in followed galleries")
                XCTAssertEqual(notifications.added.first?.body.hasPrefix("2 new images from "), true, notifications.added.first?.body ?? "")
                XCTAssertEqual(notifications.added.first?.body.hasSuffix(" and 1 other"), true, notifications.added.first?.body ?? "")
                XCTAssertEqual(notifications.added.first?.defaultAction, "app.show-new")

                // Its click: the app action opens the New view.
                g_action_group_activate_action(ui.application.ref.opaque, "show-new", nil)
                XCTAssertTrue(iterateMainLoop(until: { ui.window.gallery?.isKnownItems == true && ui.list.rowCount == 2 }, timeout: 60))
                XCTAssertTrue(ui.waitForView())
                XCTAssertEqual(ui.window.header.bar.title, "New Images")
                XCTAssertEqual(ui.window.header.usernameEntry.text, "")
                XCTAssertFalse(watch.followToggle.isSensitive, "the New view is no gallery to follow")
                let rows = try (0..<2).map { try XCTUnwrap(ui.list.row(for: try ui.download($0))) }
                XCTAssertEqual(Set(rows.map { String($0.detailLabel.text.prefix(while: { $0 != "·" })) }),
                               ["aurora on Demo ", "atlas on Demo "], "each row says whose it is")
                XCTAssertTrue(try ui.download(0).item.fullImageURL?.contains("/grown-") ?? false)

                ui.window.openLargeView(try ui.download(0))
                XCTAssertTrue(iterateMainLoop(until: { watch.menu.button.accessibleDescription == "1 new" }, timeout: 60),
                              "opening one marked it seen")
                ui.window.closeLargeView()
                g_action_group_activate_action(OpaquePointer(ui.window.window.widget.raw), "mark-all-seen", nil)
                XCTAssertTrue(iterateMainLoop(until: { watch.menu.button.accessibleDescription == "0 new" }, timeout: 60))
                XCTAssertTrue(iterateMainLoop(until: { ui.window.statusPage.titleLabel.text == "Nothing new" }, timeout: 60),
                              "the New view shows again, empty")
                XCTAssertTrue(iterateMainLoop(until: { notifications.removed.contains("new-images") }, timeout: 60),
                              "the notification is taken back once all is seen")
                XCTAssertEqual(try Self.wait { store.newItemCount(completion: $0) }, 0)
            }
        }
    }

    func testOfflineTheListSaysSoAndKeepsWhatItKnew() throws {
        try MainActor.assumeIsolated {
            try UIHarness.withFollowing { ui, watch in
                let store = try XCTUnwrap(ui.following?.store)
                XCTAssertEqual(try Self.wait { store.follow(.init(source: .demo, username: "aurora"), displayName: "aurora", completion: $0) }, true)
                XCTAssertTrue(iterateMainLoop(until: { !(ui.following?.checker.isChecking ?? true) && watch.menu.galleries.count == 1 }, timeout: 60))
                ui.server.stop()
                watch.checkNow()
                XCTAssertTrue(iterateMainLoop(until: { watch.menu.statusLabel.text.hasPrefix("Offline") }, timeout: 60),
                              watch.menu.statusLabel.text)
                watch.menu.button.isActive = true
                XCTAssertEqual(watch.menu.rows.map(\.accessibleName), ["aurora on Demo"], "the last known state stays")
                XCTAssertFalse(watch.menu.detailLabels[0].text.contains("No such"), watch.menu.detailLabels[0].text)
            }
        }
    }

    func testADamagedListIsMovedAsideAndTheWindowSaysSo() throws {
        try MainActor.assumeIsolated {
            try UIHarness.withFollowing(before: { folder in
                folder.write(Array(repeating: 0x5A, count: 8192), to: "follows.sqlite3")
            }) { ui, watch in
                XCTAssertTrue(iterateMainLoop(until: { ui.window.notification.text.hasPrefix("The list of followed galleries was damaged") }, timeout: 60),
                              "the window says what happened: \(ui.window.notification.text)")
                XCTAssertTrue(watch.menu.galleries.isEmpty)
                XCTAssertTrue(watch.menu.emptyLabel.isVisible, "an empty list, not a crash")
                ui.search("aurora")
                XCTAssertTrue(ui.waitForRows(24))
                ui.press(GDK_KEY_d, GDK_CONTROL_MASK)
                XCTAssertTrue(iterateMainLoop(until: { watch.followed.count == 1 }, timeout: 60), "the new list works")
            }
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

/// GTK's notification server (org.gtk.Notifications, what GNOME Shell runs) of the test's own on its bus: GLib
/// sends a GNotification there when the name has an owner.
@MainActor
final class FakeNotifications {
    struct Notification { let id: String; let title: String; let body: String; let defaultAction: String }
    private(set) var added: [Notification] = []
    private(set) var removed: [String] = []
    private var service: FakeBusService?

    init() throws {
        let xml = """
            <node><interface name="org.gtk.Notifications">
            <method name="AddNotification"><arg type="s" direction="in"/><arg type="s" direction="in"/>
            <arg type="a{sv}" direction="in"/></method>
            <method name="RemoveNotification"><arg type="s" direction="in"/><arg type="s" direction="in"/></method>
            </interface></node>
            """
        service = try FakeBusService(name: "org.gtk.Notifications", path: "/org/gtk/Notifications", xml: xml) {
            [weak self] _, method, parameters, invocation in
            self?.called(method, parameters, invocation)
        }
    }

    private func called(_ method: String, _ parameters: OpaquePointer, _ invocation: OpaquePointer) {
        func string(_ variant: OpaquePointer?) -> String {
            guard let variant else { return "" }
            defer { g_variant_unref(variant) }
            return String(cString: g_variant_get_string(variant, nil))
        }
        let id = string(g_variant_get_child_value(parameters, 1))
        if method == "AddNotification" {
            let fields = g_variant_get_child_value(parameters, 2)!
            defer { g_variant_unref(fields) }
            let type = g_variant_type_new("s")
            defer { g_variant_type_free(type) }
            added.append(Notification(id: id, title: string(g_variant_lookup_value(fields, "title", type)),
                                      body: string(g_variant_lookup_value(fields, "body", type)),
                                      defaultAction: string(g_variant_lookup_value(fields, "default-action", type))))
        } else {
            removed.append(id)
        }
        g_dbus_method_invocation_return_value(invocation, nil)
    }
}
