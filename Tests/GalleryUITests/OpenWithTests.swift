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
            XCTAssertNotNil(fileBytes(atPath: ItemActionRunner.openWithFolder + "/" + item.fileName),
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
        XCTAssertEqual(DirectoryScan.removeFiles(in: folder.path, olderThan: ItemActionRunner.openWithCopySeconds), 1)
        XCTAssertEqual(DirectoryScan.names(in: folder.path), ["fresh.jpg"])
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
        var found: UnsafeMutablePointer<GtkWidget>?
        iterateMainLoop(until: {
            found = chooser()
            return found != nil
        }, timeout: 60)
        return found
    }
}
