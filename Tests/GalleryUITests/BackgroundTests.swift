import CGLib
import CGtk
import GObjectBindings
import GtkBindings
import GalleryCore
import GalleryDemoServer
import TestSupport
import XCTest
@testable import GalleryUI

/// Set as Background (Ctrl+F8): the original is saved into `$XDG_DATA_HOME/backgrounds`, then set through
/// the desktop portal when one answers on the session bus (here a portal of the test's own, speaking
/// org.freedesktop.portal.Wallpaper on the private bus), else through GNOME's setting (the tests' memory
/// GSettings backend).
final class BackgroundTests: GLibTestCase {
    func testWithoutAPortalTheOriginalIsSavedAndGnomesSettingPointsAtIt() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            try Self.skipWhereAPortalWouldStart()
            _ = ui.openPhoto()
            let item = try ui.download(0).item

            ui.press(GDK_KEY_F8, GDK_CONTROL_MASK)
            XCTAssertTrue(iterateMainLoop(until: { ui.window.notification.text == "Background set" }, timeout: 60),
                          "the background was set")
            let saved = try XCTUnwrap(Self.savedBackground(item.fileName), "the original is in the backgrounds folder")
            XCTAssertEqual(DesktopBackground.gnomePictureURI, takeString(g_filename_to_uri(saved, nil, nil)),
                           "GNOME's setting names the saved file")
            XCTAssertEqual(try XCTUnwrap(fileBytes(atPath: saved)),
                           try XCTUnwrap(fileBytes(atPath: try XCTUnwrap(ItemActionTests.demoImagePath(item.fileName)))),
                           "byte for byte")
            XCTAssertFalse(DirectoryScan.names(in: DesktopHandOver.backgroundsFolder).contains { $0.hasSuffix(".part") },
                           "no partial file left")

            // A file of the user's own of the same name stays as it was: each background gets a name of its own.
            let mine = DesktopHandOver.backgroundsFolder + "/" + item.fileName
            XCTAssertNotEqual(g_file_set_contents(mine, "mine", -1, nil), 0)
            ui.window.notification.dismiss()
            ui.press(GDK_KEY_F8, GDK_CONTROL_MASK)
            XCTAssertTrue(iterateMainLoop(until: { ui.window.notification.text == "Background set" }, timeout: 60))
            XCTAssertEqual(fileBytes(atPath: mine), Array("mine".utf8), "the user's file is untouched")
            XCTAssertNil(UIHarness.toplevel(ofType: gtk_message_dialog_get_type()), "no error message")
        }
    }

    func testAPortalOnTheBusSetsItAndACancelInItsPreviewSaysNothing() throws {
        try MainActor.assumeIsolated {
            let portal = try FakeWallpaperPortal()
            let ui = try UIHarness()
            defer { ui.close() }
            _ = ui.openPhoto()
            let before = DesktopBackground.gnomePictureURI
            let item = try ui.download(0).item

            ui.press(GDK_KEY_F8, GDK_CONTROL_MASK)
            XCTAssertTrue(iterateMainLoop(until: { ui.window.notification.text == "Background set" }, timeout: 60))
            let request = try XCTUnwrap(portal.requests.first, "the portal was asked")
            XCTAssertEqual(request.file, Self.savedBackground(item.fileName), "for the saved original, passed as a file descriptor")
            XCTAssertEqual(request.setOn, "background")
            XCTAssertEqual(request.showPreview, true, "with the portal's preview, where the user confirms")
            XCTAssertTrue(request.parentWindow.hasPrefix("x11:"), "over the app's window: \(request.parentWindow)")
            XCTAssertEqual(DesktopBackground.gnomePictureURI, before, "GNOME's setting left to the portal")

            // Cancelled in the preview: nothing to say.
            portal.answer = 1
            ui.window.notification.dismiss()
            ui.press(GDK_KEY_F8, GDK_CONTROL_MASK)
            XCTAssertTrue(iterateMainLoop(until: { portal.requests.count == 2 }, timeout: 60))
            XCTAssertTrue(iterateMainLoop(until: { ui.window.notification.text.isEmpty }, timeout: 60), "no notification")
            XCTAssertNil(UIHarness.toplevel(ofType: gtk_message_dialog_get_type()), "and no message")
        }
    }

    /// The file Set as Background saved for an item named `name` ("TIME-NAME").
    @MainActor static func savedBackground(_ name: String) -> String? {
        DirectoryScan.names(in: DesktopHandOver.backgroundsFolder).filter { $0.hasSuffix("-" + name) }.sorted().last
            .map { DesktopHandOver.backgroundsFolder + "/" + $0 }
    }

    /// The test's bus is a private one, but it starts any service installed on the machine: where
    /// xdg-desktop-portal is, the "no portal" case cannot be made.
    static func skipWhereAPortalWouldStart() throws {
        var error: UnsafeMutablePointer<GError>?
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else { throw GLibError(consuming: error!) }
        defer { g_object_unref(UnsafeMutableRawPointer(bus)) }
        let reply = g_dbus_connection_call_sync(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                                "ListActivatableNames", nil, nil, G_DBUS_CALL_FLAGS_NONE, -1, nil, &error)
        guard let reply else { throw GLibError(consuming: error!) }
        defer { g_variant_unref(reply) }
        let names = g_variant_get_child_value(reply, 0)!
        defer { g_variant_unref(names) }
        for index in 0..<g_variant_n_children(names) {
            let name = g_variant_get_child_value(names, index)!
            defer { g_variant_unref(name) }
            if String(cString: g_variant_get_string(name, nil)) == "org.freedesktop.portal.Desktop" {
                throw XCTSkip("xdg-desktop-portal is installed: the test's bus would start it")
            }
        }
    }
}

/// org.freedesktop.portal.Desktop's Wallpaper interface on the session bus, on a connection of its own:
/// records each SetWallpaperFile and answers with `answer` (0 done, 1 cancelled) as xdg-desktop-portal does,
/// through the Response signal of the request object it returns.
@MainActor
final class FakeWallpaperPortal {
    struct Request {
        let parentWindow: String
        /// The path the descriptor points at.
        let file: String
        let setOn: String?
        let showPreview: Bool?
    }

    private(set) var requests: [Request] = []
    var answer: UInt32 = 0
    private var service: FakeBusService?
    private var connection: OpaquePointer { service!.connection }

    init() throws {
        let xml = """
            <node><interface name="org.freedesktop.portal.Wallpaper">
            <method name="SetWallpaperFile"><arg type="s" direction="in"/><arg type="h" direction="in"/>
            <arg type="a{sv}" direction="in"/><arg type="o" direction="out"/></method>
            </interface></node>
            """
        service = try FakeBusService(name: "org.freedesktop.portal.Desktop", path: "/org/freedesktop/portal/desktop",
                                     xml: xml) { [weak self] sender, _, parameters, invocation in
            self?.setWallpaperFile(sender: sender, parameters: parameters, invocation: invocation)
        }
    }

    private func setWallpaperFile(sender: String, parameters: OpaquePointer, invocation: OpaquePointer) {
        let parent = g_variant_get_child_value(parameters, 0)!
        let handle = g_variant_get_child_value(parameters, 1)!
        let options = g_variant_get_child_value(parameters, 2)!
        defer { [parent, handle, options].forEach { g_variant_unref($0) } }
        var file = ""
        if let fds = g_dbus_message_get_unix_fd_list(g_dbus_method_invocation_get_message(invocation)) {
            let fd = g_unix_fd_list_get(fds, g_variant_get_handle(handle), nil)
            if fd >= 0 {
                file = takeString(g_file_read_link("/proc/self/fd/\(fd)", nil)) ?? ""
                close(fd)
            }
        }
        func option(_ key: String) -> OpaquePointer? { g_variant_lookup_value(options, key, nil) }
        let setOn = option("set-on").map { value in
            defer { g_variant_unref(value) }
            return String(cString: g_variant_get_string(value, nil))
        }
        let showPreview = option("show-preview").map { value in
            defer { g_variant_unref(value) }
            return g_variant_get_boolean(value) != 0
        }
        let token = option("handle_token").map { value in
            defer { g_variant_unref(value) }
            return String(cString: g_variant_get_string(value, nil))
        } ?? "t"
        requests.append(Request(parentWindow: String(cString: g_variant_get_string(parent, nil)), file: file,
                                setOn: setOn, showPreview: showPreview))
        // The request object's path, as xdg-desktop-portal makes it from the caller's name and token.
        let caller = String(sender.dropFirst()).map { $0 == "." ? "_" : $0 }
        let path = "/org/freedesktop/portal/desktop/request/" + String(caller) + "/" + token
        g_dbus_method_invocation_return_value(invocation, g_variant_new_tuple([g_variant_new_object_path(path)], 1))
        let entryType = g_variant_type_new("{sv}")
        defer { g_variant_type_free(entryType) }
        let results = g_variant_new_array(entryType, nil, 0)
        g_dbus_connection_emit_signal(connection, sender, path, "org.freedesktop.portal.Request", "Response",
                                      g_variant_new_tuple([g_variant_new_uint32(answer), results], 2), nil)
    }
}
