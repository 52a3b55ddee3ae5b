import CGLib
import CGtk
import GObjectBindings
import GtkBindings
import GalleryCore
import GalleryDemoServer
import TestSupport
import XCTest
@testable import GalleryUI

/// Save, copy, copy link and the row context menu, through the actions a user triggers (keys, menu items)
/// on a real window; files and the clipboard are checked for what a user would find there.
final class ItemActionTests: GLibTestCase {
    func testSaveWritesTheServersOriginalByteForByte() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            _ = ui.openPhoto()
            let item = try ui.download(0).item

            ui.press(GDK_KEY_s, GDK_CONTROL_MASK)
            let dialog = try XCTUnwrap(Self.waitForFileChooser(), "Ctrl+S opens a file chooser")
            let chooser = OpaquePointer(dialog)
            XCTAssertEqual(takeString(gtk_file_chooser_get_current_name(chooser)), item.fileName,
                           "the chooser proposes the item's file name")
            let folder = TemporaryFolder(prefix: "gallery-save")
            gtk_file_chooser_set_current_folder(chooser, folder.path)
            XCTAssertTrue(Self.waitUntilIdle(dialog), "the chooser went to the folder")
            gtk_file_chooser_set_current_name(chooser, item.fileName)
            XCTAssertTrue(Self.waitUntilIdle(dialog), "the chooser took the name in")
            gtk_dialog_response(dialog.raw.as(GtkDialog.self), GTK_RESPONSE_ACCEPT.rawValue)

            let saved = folder.path + "/" + item.fileName
            XCTAssertTrue(iterateMainLoop(until: { ui.window.itemActions.savesInFlight == 0 && g_file_test(saved, G_FILE_TEST_EXISTS) != 0 },
                                          timeout: 60), "the file was saved")
            let original = try XCTUnwrap(Self.demoImagePath(item.fileName))
            XCTAssertEqual(try XCTUnwrap(fileBytes(atPath: saved), "the saved file can be read"),
                           try XCTUnwrap(fileBytes(atPath: original), "the demo image can be read"),
                           "the server's bytes, not a re-encoding")
            XCTAssertEqual(g_file_test(folder.path + "/." + item.fileName + ".part", G_FILE_TEST_EXISTS), 0, "no partial file left")
            XCTAssertEqual(ui.window.notification.text, "Saved \(item.fileName)")
        }
    }

    func testCopyPutsTheFullImageAndThePageLinkOnTheClipboard() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            _ = ui.openPhoto()
            let item = try ui.download(0).item

            ui.press(GDK_KEY_c, GDK_CONTROL_MASK)
            XCTAssertTrue(iterateMainLoop(until: { !ui.window.itemActions.isCopying }, timeout: 60))
            let image = try XCTUnwrap(Clipboard.waitForImage(), "an image on the clipboard")
            XCTAssertEqual(image.width, 4000, "at full resolution, not the screen-sized decode")
            XCTAssertEqual(image.height, 2667)
            XCTAssertEqual(ui.window.notification.text, "Image copied")

            ui.press(GDK_KEY_c, GdkModifierType(rawValue: GDK_CONTROL_MASK.rawValue | GDK_SHIFT_MASK.rawValue))
            XCTAssertEqual(Clipboard.waitForText(), item.pageURL, "Ctrl+Shift+C copies the item's page")
            XCTAssertNotNil(item.pageURL)
        }
    }

    func testTheRowMenuOpensOnTheRowClickedAndActsOnItsItemAfterRecycling() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            ui.search("aurora")
            XCTAssertTrue(ui.waitForRows(24))
            let row = try ui.row(2)
            let point = try XCTUnwrap(row.row.translate(x: 40, y: 20, to: ui.list.listBox))
            ui.click(ui.list.listBox, x: Double(point.x), y: Double(point.y), button: 3)
            XCTAssertTrue(try ui.window.rowMenuTarget === ui.download(2), "right-click: the menu of the row clicked")
            XCTAssertEqual(ui.list.selectedIndex, 2, "and that row is selected")
            XCTAssertEqual(ui.window.rowMenu.isOpen, true)
            ui.window.rowMenu.close()

            // Rows are recycled: once the list moved on, the row that was clicked shows another item, and the
            // menu still acts on the one clicked.
            ui.scroll(toRow: 15)
            XCTAssertFalse(try row.download === ui.download(2), "the row now shows another item")
            ui.window.rowMenu.activate("copy-link")
            XCTAssertEqual(Clipboard.waitForText(), try ui.download(2).item.pageURL)

            // The Menu key and Shift+F10 on the selected row.
            Self.selectAndFocus(16, in: ui)
            ui.press(GDK_KEY_Menu)
            XCTAssertTrue(try ui.window.rowMenuTarget === ui.download(16), "Menu: the selected row's menu")
            XCTAssertEqual(ui.window.rowMenu.isOpen, true)
            ui.window.rowMenu.close()
            Self.selectAndFocus(17, in: ui)
            ui.press(GDK_KEY_F10, GDK_SHIFT_MASK)
            XCTAssertTrue(try ui.window.rowMenuTarget === ui.download(17), "Shift+F10 too")
            ui.window.rowMenu.close()

            // Save from the row menu proposes that item's name; cancelling writes nothing.
            ui.window.rowMenu.activate("save-image")
            let dialog = try XCTUnwrap(Self.waitForFileChooser())
            XCTAssertEqual(takeString(gtk_file_chooser_get_current_name(OpaquePointer(dialog))), try ui.download(17).item.fileName)
            XCTAssertTrue(Self.waitUntilIdle(dialog), "the chooser took the name in")
            gtk_dialog_response(dialog.raw.as(GtkDialog.self), GTK_RESPONSE_CANCEL.rawValue)
            XCTAssertTrue(iterateMainLoop(until: { Self.fileChooser() == nil }, timeout: 60), "cancelling closed the chooser")
            XCTAssertEqual(ui.window.itemActions.savesInFlight, 0)

            // A sensitive item still hidden is not saved or copied unseen; its link can be.
            let hidden = try XCTUnwrap((0..<24).first { try ui.download($0).state == .sensitiveHidden })
            Self.selectAndFocus(hidden, in: ui)
            ui.press(GDK_KEY_Menu)
            XCTAssertTrue(try ui.window.rowMenuTarget === ui.download(hidden))
            XCTAssertEqual(ui.window.rowMenu.actionsByName["save-image"]?.isEnabled, false)
            XCTAssertEqual(ui.window.rowMenu.actionsByName["copy-image"]?.isEnabled, false)
            XCTAssertEqual(ui.window.rowMenu.actionsByName["copy-link"]?.isEnabled, true)
            ui.window.rowMenu.close()
            Self.selectAndFocus(17, in: ui)
            ui.press(GDK_KEY_Menu)
            ui.window.rowMenu.close()

            ui.window.rowMenu.activate("open")
            XCTAssertTrue(ui.window.isLargeViewOpen)
            XCTAssertEqual(ui.window.largeView.download?.index, 17, "Open: the large view of that item")
        }
    }

    func testTheFullImageShowsItsProgressAndAFailureCanBeRetried() throws {
        try MainActor.assumeIsolated {
            let server = try TestHTTPServer()
            let base = server.baseURL
            let thumbnail = try Pixbuf.filled(width: 150, height: 150, rgba: 0x3584e4ff).encoded(as: "png").array
            let photo = try Self.noise(width: 400, height: 400).encoded(as: "png").array
            var photoRequests = 0
            server.route("/thumb.png") { _ in .bytes(thumbnail, contentType: "image/png") }
            server.route("/full.png") { _ in
                photoRequests += 1
                // The first attempt fails; the retry arrives slowly enough to watch its progress.
                return photoRequests == 1 ? .status(500) : TestResponse.bytes(photo, contentType: "image/png")
                    .throttled(bytesPerSecond: photo.count)
            }
            let feed = """
                <rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/"><channel><title>slow</title>
                <item><title>Slow Photo</title><link>\(base)/art/slow-1</link><guid>\(base)/art/slow-1</guid>
                <media:rating>nonadult</media:rating>
                <media:thumbnail url="\(base)/thumb.png" width="150" height="150"/>
                <media:content url="\(base)/full.png" width="400" height="400" medium="image"/></item>
                </channel></rss>
                """
            server.route("/rss.xml") { request in
                .text(request.query["offset"] == nil ? feed : "<rss version=\"2.0\"><channel></channel></rss>",
                      contentType: "application/rss+xml")
            }
            let ui = try UIHarness(endpoints: [.deviantArt: base])
            defer { ui.close() }
            ui.search("slow", source: .deviantArt)
            XCTAssertTrue(ui.waitForRows(1))
            XCTAssertTrue(ui.waitUntilSettled(0))
            let view = ui.window.largeView
            ui.activate(0)
            XCTAssertTrue(iterateMainLoop(until: { view.failure != nil }, timeout: 60))
            XCTAssertEqual(view.failure, "HTTP 500 Internal Server Error")
            XCTAssertEqual(view.status.messageLabel.text, "The full image could not be loaded: HTTP 500 Internal Server Error")
            XCTAssertTrue(view.status.retryButton.isVisible, "a failure offers Retry")
            XCTAssertFalse(view.status.progressBar.isVisible)

            view.status.retryButton.click()
            XCTAssertTrue(view.status.progressBar.isVisible, "the download shows its progress")
            XCTAssertFalse(view.status.retryButton.isVisible)
            XCTAssertTrue(iterateMainLoop(until: { view.status.progressBar.fraction > 0.2 && view.status.progressBar.fraction < 0.9 },
                                          timeout: 60), "the bar follows the bytes received of the total")
            XCTAssertTrue(iterateMainLoop(until: { view.isShowingFullImage }, timeout: 60), "the retry succeeded")
            XCTAssertFalse(view.status.progressBar.isVisible, "the bar goes once the image is there")
            XCTAssertFalse(view.status.messageLabel.isVisible)
            XCTAssertNil(view.failure)
            XCTAssertEqual(photoRequests, 2)
        }
    }

    // MARK: Helpers

    /// Selects item `index` with the keyboard focus on its row and waits until the list has bound that row
    /// and focused it (the scroll rebinds on a later main-loop turn, later still in a slow run): the Menu key
    /// and Shift+F10 act on the focused row.
    @MainActor static func selectAndFocus(_ index: Int, in ui: UIHarness) {
        ui.list.select(index, focus: true)
        XCTAssertTrue(try iterateMainLoop(until: {
            guard let row = ui.list.row(for: try ui.download(index)) else { return false }
            return ui.focusWidget == row.row.widget
        }, timeout: 60), "row \(index) did not get the focus")
    }

    /// The file chooser GtkFileChooserNative shows without a portal: GTK's own dialog, a toplevel.
    @MainActor
    static func waitForFileChooser() -> UnsafeMutablePointer<GtkWidget>? {
        UIHarness.waitForToplevel(ofType: { gtk_file_chooser_dialog_get_type() })
    }

    @MainActor
    static func fileChooser() -> UnsafeMutablePointer<GtkWidget>? { UIHarness.toplevel(ofType: gtk_file_chooser_dialog_get_type()) }

    /// Waits until the chooser has nothing left to do on the main loop. GTK 3's chooser answers a new name
    /// (the one the app proposes, the one a test types) with a 200 ms timer of its own ("location changed",
    /// the chooser widget as its data) that it removes when the widget is finalized, not when the dialog is
    /// destroyed: answering the dialog before the timer fired — on a busy machine the test gets there first —
    /// makes it fire on the destroyed widget (gtk_tree_view_get_selection and gtk_tree_selection_unselect_all
    /// criticals, fatal in the tests). A user never answers that fast.
    @MainActor
    static func waitUntilIdle(_ dialog: UnsafeMutablePointer<GtkWidget>) -> Bool {
        guard let chooser = firstDescendant(of: dialog, type: gtk_file_chooser_widget_get_type()) else { return false }
        return iterateMainLoop(until: {
            gtk_widget_get_mapped(dialog) != 0 && g_main_context_find_source_by_user_data(nil, chooser.raw) == nil
        }, timeout: 60)
    }

    @MainActor
    private static func firstDescendant(of widget: UnsafeMutablePointer<GtkWidget>, type: GType) -> UnsafeMutablePointer<GtkWidget>? {
        if g_type_check_instance_is_a(widget.raw.as(GTypeInstance.self), type) != 0 { return widget }
        guard g_type_check_instance_is_a(widget.raw.as(GTypeInstance.self), gtk_container_get_type()) != 0 else { return nil }
        let children = gtk_container_get_children(widget.raw.as(GtkContainer.self))
        defer { g_list_free(children) }
        var node = children
        while let current = node {
            if let found = firstDescendant(of: current.pointee.data.assumingMemoryBound(to: GtkWidget.self), type: type) {
                return found
            }
            node = current.pointee.next
        }
        return nil
    }

    static func demoImagePath(_ name: String) -> String? {
        DemoGalleryLocation.defaultDataDirectory().map { DemoGalleryLocation.imagesDirectory(in: $0) + "/full/" + name }
    }

    /// A picture that does not compress: its PNG is about as large as its pixels.
    static func noise(width: Int, height: Int) -> Pixbuf {
        var canvas = PixbufCanvas(width: width, height: height)
        var state: UInt32 = 2_463_534_242
        canvas.withMutablePixels { pixels, stride in
            for row in 0..<height {
                for byte in 0..<(width * 4) {
                    state ^= state << 13
                    state ^= state >> 17
                    state ^= state << 5
                    pixels[row * stride + byte] = byte % 4 == 3 ? 255 : UInt8(truncatingIfNeeded: state)
                }
            }
        }
        return canvas.finish()
    }
}
