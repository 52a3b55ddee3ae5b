import CGLib
import CGtk
import GObjectBindings
@_spi(GtkInterop) import GtkBindings
import GalleryCore
import GalleryDemoServer
import TestSupport
import XCTest
@testable import GalleryUI

/// Drag and drop on the real window: a profile link dropped on it opens the gallery (each kind browsers and
/// file managers offer), a drag from the window itself is ignored, and an item dragged out of the large view
/// or a row offers its original, saved into the cache, and its link. Drags start from pointer events sent to
/// the window's widgets, so GTK begins a real drag and drop; the data goes through the signals GTK emits
/// (`drag-data-received`, `drag-data-get`, emitted here with `g_signal_emitv`), with GtkSelectionData of GTK's
/// own making. The X protocol between two processes is `Tests/EndToEnd/habits.sh`'s.
final class DragAndDropTests: GLibTestCase {
    private static let link = "https://www.deviantart.com/aurora"

    func testADroppedProfileLinkOfEachKindOpensTheGallery() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness(endpoints: [.deviantArt: UIHarness.demoServerEndpoint])
            defer { ui.close() }
            let utf16 = Array("\u{FEFF}\(Self.link)\nAurora".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
            let drops: [(DropTarget.Kind, String, [UInt8])] = [
                (.uriList, "text/uri-list", Array("# from a browser\r\n\(Self.link)\r\n".utf8)),
                (.netscapeURL, "_NETSCAPE_URL", Array("\(Self.link)\nAurora".utf8)),
                (.mozURL, "text/x-moz-url", utf16),
                (.text, "UTF8_STRING", Array("look: \(Self.link) !".utf8)),
            ]
            for (kind, target, bytes) in drops {
                ui.window.search(source: .commons, username: "")
                XCTAssertNil(ui.window.gallery)
                Self.drop(bytes, target: target, kind: kind, on: ui)
                XCTAssertTrue(ui.waitForRows(24), "a \(target) drop opened the gallery")
                XCTAssertEqual(ui.window.gallery?.source.kind, .deviantArt, target)
                XCTAssertEqual(ui.window.header.usernameEntry.text, "aurora", target)
            }
        }
    }

    func testOnlyTheBoundedStartOfADropIsRead() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness(endpoints: [.deviantArt: UIHarness.demoServerEndpoint])
            defer { ui.close() }
            let filler = [UInt8](repeating: UInt8(ascii: "x"), count: 2_000_000)
            // Past the bound, the link is never seen; the drop is no link, and nothing happens at once.
            Self.drop(filler + Array(" \(Self.link)".utf8), target: "UTF8_STRING", kind: .text, on: ui)
            XCTAssertNil(ui.window.gallery, "a link past the first \(LinkDrop.maxBytes) bytes is not read")
            XCTAssertEqual(ui.window.header.usernameEntry.text, "")
            Self.drop(Array("\(Self.link) ".utf8) + filler, target: "UTF8_STRING", kind: .text, on: ui)
            XCTAssertTrue(ui.waitForRows(24), "a link at the start of megabytes of text opens its gallery")
        }
    }

    func testADropFromTheWindowItselfIsIgnored() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness(endpoints: [.deviantArt: UIHarness.demoServerEndpoint])
            defer { ui.close() }
            let view = ui.openPhoto()
            let source = ui.window.itemDrags.sources.largeView
            ui.pressAndMove(view.canvas.area, from: (200, 200), to: (260, 230))
            XCTAssertTrue(iterateMainLoop(until: { source.isDragging }, timeout: 60), "dragging the fitted picture starts a drag")
            let context = try XCTUnwrap(source.dragContext)
            Self.drop(Array(Self.link.utf8), target: "text/uri-list", kind: .uriList, on: ui, context: context)
            XCTAssertTrue(ui.window.isLargeViewOpen, "the window's own drag dropped on it does nothing")
            XCTAssertEqual(ui.window.gallery?.source.kind, .demo)
            source.cancel()
            ui.release(view.canvas.area, at: (260, 230))
            XCTAssertTrue(iterateMainLoop(until: { !source.isDragging }, timeout: 60))
            // The same drop from elsewhere (GTK knows no source widget of another application's drag).
            Self.drop(Array(Self.link.utf8), target: "text/uri-list", kind: .uriList, on: ui, context: nil)
            XCTAssertTrue(ui.waitForRows(24))
            XCTAssertEqual(ui.window.gallery?.source.kind, .deviantArt)
        }
    }

    func testDraggingTheFittedPictureOffersItsSavedOriginalAndItsLink() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            let view = ui.openPhoto()
            let item = try XCTUnwrap(view.download?.item)
            let source = ui.window.itemDrags.sources.largeView
            ui.pressAndMove(view.canvas.area, from: (200, 200), to: (260, 230))
            XCTAssertTrue(iterateMainLoop(until: { source.isDragging }, timeout: 60), "dragging the fitted picture starts a drag")
            try Self.expectOffer(of: item, from: view.canvas.area)
            source.cancel()
            ui.release(view.canvas.area, at: (260, 230))
            XCTAssertTrue(iterateMainLoop(until: { !source.isDragging }, timeout: 60))

            // Zoomed in, the same drag pans.
            ui.press(GDK_KEY_1)
            XCTAssertTrue(iterateMainLoop(until: { !view.zoom.isMoving }, timeout: 60))
            let offset = view.zoom.imageOffset
            ui.drag(view.canvas.area, from: (200, 200), to: (260, 230))
            XCTAssertFalse(source.isDragging, "no drag and drop when zoomed in")
            XCTAssertNotEqual(view.zoom.imageOffset.x, offset.x, "the drag panned")
        }
    }

    func testARowsDragCarriesTheItemItShowedWhenItStarted() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            ui.search("aurora")
            XCTAssertTrue(ui.waitForRows(24))
            XCTAssertTrue(ui.waitForView())
            let download = try ui.download(2)
            let row = try ui.row(2)
            let point = try XCTUnwrap(row.row.translate(x: 40, y: 40, to: ui.list.listBox))
            let from = (x: Double(point.x), y: Double(point.y))
            let source = ui.window.itemDrags.sources.list
            ui.pressAndMove(ui.list.listBox, from: from, to: (from.x + 80, from.y + 40))
            XCTAssertTrue(iterateMainLoop(until: { source.isDragging }, timeout: 60), "dragging a row starts a drag")
            // The row shows another item now; the drag still carries the one it started with.
            ui.scroll(toRow: 20)
            XCTAssertTrue(ui.waitForView())
            XCTAssertFalse(row.download === download, "the row was recycled for another item")
            try Self.expectOffer(of: download.item, from: ui.list.listBox)
            source.cancel()
            ui.release(ui.list.listBox, at: (from.x + 80, from.y + 40))
            XCTAssertTrue(iterateMainLoop(until: { !source.isDragging }, timeout: 60))
        }
    }

    // MARK: Helpers

    /// What the drag from `widget` gives a drop, asked as GTK asks it (`drag-data-get`): the file, once saved
    /// (bytes equal to the server's original), and the link.
    @MainActor
    private static func expectOffer(of item: GalleryItem, from widget: Widget) throws {
        var uri: String?
        XCTAssertTrue(iterateMainLoop(until: {
            let data = selectionData(target: "text/uri-list", bytes: [])
            defer { gtk_selection_data_free(data) }
            dataGet(from: widget, into: data, info: 1)
            uri = gtk_selection_data_get_uris(data).flatMap { uris in
                defer { g_strfreev(uris) }
                return uris[0].map { String(cString: $0) }
            }
            return uri != nil
        }, timeout: 60), "the original was saved for the drop")
        let path = try XCTUnwrap(uri.flatMap { takeString(g_filename_from_uri($0, nil, nil)) }, "a file:// URI")
        XCTAssertTrue(path.hasPrefix(DraggedOriginals.folder + "/"), "in the cache's folder for drags: \(path)")
        let original = try XCTUnwrap(ItemActionTests.demoImagePath(item.fileName))
        XCTAssertEqual(fileBytes(atPath: path), fileBytes(atPath: original), "the server's original, byte for byte")

        let text = selectionData(target: "UTF8_STRING", bytes: [])
        defer { gtk_selection_data_free(text) }
        dataGet(from: widget, into: text, info: 2)
        let dropped = gtk_selection_data_get_text(text).map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: CChar.self) }
        XCTAssertEqual(takeString(dropped), item.link, "the item's link as text")
        XCTAssertNotNil(item.link)
    }

    /// The drag source's `drag-data-get` on `widget`, emitted as GTK emits it when a drop asks for `info`'s
    /// target (the drag context left out: the handler does not read it).
    @MainActor
    private static func dataGet(from widget: Widget, into data: OpaquePointer, info: UInt32) {
        var values = [GValue](repeating: GValue(), count: 5)
        g_value_init(&values[0], gtk_widget_get_type())
        g_value_set_object(&values[0], widget.widget.raw)
        g_value_init(&values[1], gdk_drag_context_get_type())
        g_value_init(&values[2], gtk_selection_data_get_type())
        g_value_set_static_boxed(&values[2], UnsafeRawPointer(data))
        g_value_init(&values[3], gv_type_uint())
        g_value_set_uint(&values[3], info)
        g_value_init(&values[4], gv_type_uint())
        g_signal_emitv(&values, g_signal_lookup("drag-data-get", gtk_widget_get_type()), 0, nil)
        for index in values.indices { g_value_unset(&values[index]) }
    }

    /// A drop of `bytes` as `target`, delivered as GTK delivers it to the window: its `drag-data-received`
    /// signal, emitted with the window, the drag context, the point, the data, the target's info and a time
    /// (`g_signal_emitv`: `g_signal_emit_by_name` is variadic), so the binding's trampoline is what runs.
    @MainActor
    private static func drop(_ bytes: [UInt8], target: String, kind: DropTarget.Kind, on ui: UIHarness,
                             context: UnsafeMutableRawPointer? = nil) {
        let data = selectionData(target: target, bytes: bytes)
        defer { gtk_selection_data_free(data) }
        let window = ui.window.window.widget.raw
        var values = [GValue](repeating: GValue(), count: 7)
        g_value_init(&values[0], gtk_application_window_get_type())
        g_value_set_object(&values[0], window)
        g_value_init(&values[1], gdk_drag_context_get_type())
        g_value_set_object(&values[1], context)
        for index in 2...3 {
            g_value_init(&values[index], gv_type_int())
            g_value_set_int(&values[index], 10)
        }
        g_value_init(&values[4], gtk_selection_data_get_type())
        g_value_set_static_boxed(&values[4], UnsafeRawPointer(data))
        g_value_init(&values[5], gv_type_uint())
        g_value_set_uint(&values[5], kind.rawValue)
        g_value_init(&values[6], gv_type_uint())
        g_value_set_uint(&values[6], 0)
        g_signal_emitv(&values, g_signal_lookup("drag-data-received", gtk_widget_get_type()), 0, nil)
        for index in values.indices { g_value_unset(&values[index]) }
        drainMainLoop()
    }

    /// GTK 3's GtkSelectionData (gtkselectionprivate.h; unchanged through GTK 3), which GTK makes only inside
    /// a transfer: the test lays one out and has GTK copy it into one of its own (freed with
    /// gtk_selection_data_free).
    private struct SelectionDataLayout {
        var selection: OpaquePointer?
        var target: OpaquePointer?
        var type: OpaquePointer?
        var format: Int32
        var data: UnsafeMutablePointer<UInt8>?
        var length: Int32
        var display: OpaquePointer?
    }

    @MainActor
    private static func selectionData(target: String, bytes: [UInt8]) -> OpaquePointer {
        var copy = bytes + [0]  // gtk_selection_data_copy copies length + 1 bytes
        return copy.withUnsafeMutableBufferPointer { buffer in
            let atom = gdk_atom_intern(target, 0)
            var layout = SelectionDataLayout(selection: gdk_atom_intern("XdndSelection", 0), target: atom, type: atom,
                                             format: 8, data: bytes.isEmpty ? nil : buffer.baseAddress,
                                             length: bytes.isEmpty ? -1 : Int32(bytes.count), display: gdk_display_get_default())
            return withUnsafeMutablePointer(to: &layout) { gtk_selection_data_copy(OpaquePointer($0))! }
        }
    }
}
