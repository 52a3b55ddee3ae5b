import CGLib
import CGtk
import GObjectBindings
import GtkBindings
import GalleryCore
import GalleryDemoServer
import TestSupport
import XCTest
@testable import GalleryUI

/// Open With… (Ctrl+Shift+O): GTK's application chooser over the original, saved first, and the application
/// chosen launched on it. The application here is a desktop entry of the test's own (in the throwaway
/// `$XDG_DATA_HOME`), the default for JPEG, whose program copies the file it is given.
final class OpenWithTests: GLibTestCase {
    func testTheChosenApplicationGetsTheOriginal() throws {
        try MainActor.assumeIsolated {
            let data = FileSystem.userDataDirectory
            let received = data + "/opener-received.jpg"
            let opener = try Self.installOpener(copyingTo: received)
            XCTAssertTrue(iterateMainLoop(until: { Self.defaultApplication(for: "image/jpeg") == opener }, timeout: 60),
                          "GIO sees the test's application as JPEG's default")

            let ui = try UIHarness()
            defer { ui.close() }
            _ = ui.openPhoto()
            let item = try ui.download(0).item
            ui.press(GDK_KEY_o, GdkModifierType(rawValue: GDK_CONTROL_MASK.rawValue | GDK_SHIFT_MASK.rawValue))
            let dialog = try XCTUnwrap(Self.waitForChooser(), "Ctrl+Shift+O opens the application chooser")
            guard iterateMainLoop(until: { Self.chosenApplication(dialog) == opener }, timeout: 60) else {
                // Never launch another application of the machine's.
                gtk_dialog_response(dialog.raw.as(GtkDialog.self), GTK_RESPONSE_CANCEL.rawValue)
                return XCTFail("the chooser offers the type's default application first, not \(Self.chosenApplication(dialog) ?? "none")")
            }
            gtk_dialog_response(dialog.raw.as(GtkDialog.self), GTK_RESPONSE_OK.rawValue)

            XCTAssertTrue(iterateMainLoop(until: { g_file_test(received, G_FILE_TEST_EXISTS) != 0 }, timeout: 60),
                          "the application was launched on the file")
            let original = try XCTUnwrap(ItemActionTests.demoImagePath(item.fileName))
            XCTAssertEqual(try XCTUnwrap(fileBytes(atPath: received)), try XCTUnwrap(fileBytes(atPath: original)),
                           "it got the server's original, byte for byte")
            XCTAssertNotNil(fileBytes(atPath: DesktopHandOver.openWithFolder + "/" + item.fileName),
                            "the copy handed over is in the cache's open-with folder")
            XCTAssertNil(Self.chooser(), "the chooser closed")
            XCTAssertNil(UIHarness.toplevel(ofType: gtk_message_dialog_get_type()), "no error message")
        }
    }

    func testCancellingTheChooserLaunchesNothing() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            _ = ui.openPhoto()
            ui.press(GDK_KEY_o, GdkModifierType(rawValue: GDK_CONTROL_MASK.rawValue | GDK_SHIFT_MASK.rawValue))
            let dialog = try XCTUnwrap(Self.waitForChooser())
            gtk_dialog_response(dialog.raw.as(GtkDialog.self), GTK_RESPONSE_CANCEL.rawValue)
            XCTAssertTrue(iterateMainLoop(until: { Self.chooser() == nil }, timeout: 60), "cancelling closed it")
            XCTAssertNil(UIHarness.toplevel(ofType: gtk_message_dialog_get_type()), "and said nothing")
        }
    }

    func testCopiesOlderThanADayAreRemoved() throws {
        let folder = TemporaryFolder(prefix: "gallery-open-with")
        let old = folder.path + "/old.jpg", fresh = folder.path + "/fresh.jpg"
        XCTAssertNotEqual(g_file_set_contents(old, "x", 1, nil), 0)
        XCTAssertNotEqual(g_file_set_contents(fresh, "x", 1, nil), 0)
        var times = [timespec(tv_sec: time(nil) - 2 * 24 * 3600, tv_nsec: 0), timespec(tv_sec: time(nil) - 2 * 24 * 3600, tv_nsec: 0)]
        XCTAssertEqual(utimensat(AT_FDCWD, old, &times, 0), 0)
        let kept = folder.path + "/kept.jpg"
        XCTAssertNotEqual(g_file_set_contents(kept, "x", 1, nil), 0)
        XCTAssertEqual(utimensat(AT_FDCWD, kept, &times, 0), 0)
        XCTAssertEqual(DirectoryScan.removeFiles(in: folder.path, olderThan: DesktopHandOver.openWithCopySeconds,
                                                 keeping: ["kept.jpg"]), 1)
        XCTAssertEqual(DirectoryScan.names(in: folder.path).sorted(), ["fresh.jpg", "kept.jpg"], "the one being handed over stays")
    }

    func testTheServersExtensionIsNotTrustedAndNonImagesAreNotHandedOver() throws {
        try MainActor.assumeIsolated {
            let server = try TestHTTPServer()
            let base = server.baseURL
            let png = try Pixbuf.filled(width: 64, height: 48, rgba: 0x3584e4ff).encoded(as: "png").array
            server.route("/thumb.png") { _ in .bytes(png, contentType: "image/png") }
            // An image named as a Java archive, and a Java archive named as one.
            server.route("/payload.jar") { _ in .bytes(png, contentType: "application/octet-stream") }
            server.route("/archive.jar") { _ in .bytes(Array("PK\u{3}\u{4} not an image".utf8), contentType: "application/octet-stream") }
            func entry(_ name: String) -> String {
                """
                <item><title>\(name)</title><link>\(base)/art/\(name)</link><guid>\(base)/art/\(name)</guid>
                <media:rating>nonadult</media:rating><media:thumbnail url="\(base)/thumb.png" width="64" height="48"/>
                <media:content url="\(base)/\(name).jar" width="64" height="48" medium="image"/></item>
                """
            }
            let feed = "<rss version=\"2.0\" xmlns:media=\"http://search.yahoo.com/mrss/\"><channel><title>jar</title>"
                + entry("payload") + entry("archive") + "</channel></rss>"
            server.route("/rss.xml") { request in
                .text(request.query["offset"] == nil ? feed : "<rss version=\"2.0\"><channel></channel></rss>",
                      contentType: "application/rss+xml")
            }
            let ui = try UIHarness(endpoints: [.deviantArt: base])
            defer { ui.close() }
            ui.search("jar", source: .deviantArt)
            XCTAssertTrue(ui.waitForRows(2))
            let shift = GdkModifierType(rawValue: GDK_CONTROL_MASK.rawValue | GDK_SHIFT_MASK.rawValue)

            ui.window.openLargeView(try ui.download(0))
            ui.press(GDK_KEY_o, shift)
            let dialog = try XCTUnwrap(Self.waitForChooser(), "the image opens, under its own extension")
            gtk_dialog_response(dialog.raw.as(GtkDialog.self), GTK_RESPONSE_CANCEL.rawValue)
            XCTAssertTrue(iterateMainLoop(until: { Self.chooser() == nil }, timeout: 60))
            XCTAssertNotNil(fileBytes(atPath: DesktopHandOver.openWithFolder + "/payload.jar.png"), "named for what its bytes are")
            XCTAssertNil(fileBytes(atPath: DesktopHandOver.openWithFolder + "/payload.jar"))

            ui.window.openLargeView(try ui.download(1))
            ui.press(GDK_KEY_o, shift)
            XCTAssertTrue(iterateMainLoop(until: { UIHarness.toplevel(ofType: gtk_message_dialog_get_type()) != nil }, timeout: 60),
                          "bytes that are no image are not handed to another application: a message says so")
            XCTAssertNil(Self.chooser())
            XCTAssertTrue(iterateMainLoop(until: { DirectoryScan.names(in: DesktopHandOver.openWithFolder).allSatisfy { !$0.hasPrefix("archive") } },
                                          timeout: 60), "and its file is gone")
            if let message = UIHarness.toplevel(ofType: gtk_message_dialog_get_type()) { gtk_widget_destroy(message) }
        }
    }

    // MARK: Helpers

    /// A desktop entry whose program copies its argument to `target`, made the default for JPEG and PNG.
    /// Returns its id.
    static func installOpener(copyingTo target: String) throws -> String {
        let data = FileSystem.userDataDirectory, config = FileSystem.userConfigDirectory
        let script = data + "/opener.sh"
        let id = "gallery-test-opener.desktop"
        g_mkdir_with_parents(data + "/applications", 0o755)
        g_mkdir_with_parents(config, 0o755)
        let files = [
            (script, "#!/bin/sh\ncp \"$1\" \"\(target).part\" && mv \"\(target).part\" \"\(target)\"\n"),
            (data + "/applications/" + id,
             "[Desktop Entry]\nType=Application\nName=Test Opener\nExec=\(script) %f\nMimeType=image/jpeg;image/png;\n"),
            (config + "/mimeapps.list", "[Default Applications]\nimage/jpeg=\(id)\nimage/png=\(id)\n"),
        ]
        for (path, text) in files {
            var error: UnsafeMutablePointer<GError>?
            guard g_file_set_contents(path, text, -1, &error) != 0 else { throw GLibError(consuming: error!) }
        }
        chmod(script, 0o755)
        return id
    }

    static func defaultApplication(for type: String) -> String? {
        guard let info = g_app_info_get_default_for_type(type, 0) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(info)) }
        return string(g_app_info_get_id(info))
    }

    @MainActor static func chosenApplication(_ dialog: UnsafeMutablePointer<GtkWidget>) -> String? {
        guard let info = gtk_app_chooser_get_app_info(OpaquePointer(dialog)) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(info)) }
        return string(g_app_info_get_id(info))
    }

    @MainActor static func chooser() -> UnsafeMutablePointer<GtkWidget>? {
        UIHarness.toplevel(ofType: gtk_app_chooser_dialog_get_type())
    }

    @MainActor static func waitForChooser() -> UnsafeMutablePointer<GtkWidget>? {
        UIHarness.waitForToplevel(ofType: { gtk_app_chooser_dialog_get_type() })
    }
}
