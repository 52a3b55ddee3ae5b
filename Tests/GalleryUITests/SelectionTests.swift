import CGLib
import CGtk
import Foundation
import GObjectBindings
@_spi(GtkInterop) import GtkBindings
import GalleryCore
import GalleryDemoServer
import TestSupport
import XCTest
@testable import GalleryUI

/// Several items selected in the real window, as GTK's boxes select them (Ctrl+click, Shift+click from the
/// anchor, Ctrl+A), shown by the box's own selection as the cells are recycled; their menu's "Save N
/// Images…" writes each original as `--download` names it, skips what is there and can be cancelled, and
/// "Copy N Links" copies their links.
final class SelectionTests: GLibTestCase {
    @MainActor
    private static func click(_ ui: UIHarness, row index: Int, state: GdkModifierType = GdkModifierType(rawValue: 0),
                              button: UInt32 = 1) throws {
        let row = try ui.row(index)
        let point = try XCTUnwrap(row.row.translate(x: 40, y: 20, to: ui.list.listBox))
        ui.click(ui.list.listBox, x: Double(point.x), y: Double(point.y), button: button, state: state.rawValue)
    }

    /// The items the box shows selected (its own selection, on the cells bound now).
    @MainActor
    private static func shownSelected(_ ui: UIHarness) -> [Int] {
        let positions = ui.list.mode == .grid ? ui.list.flowBox.selectedPositions : ui.list.listBox.selectedPositions
        return positions.compactMap { ui.list.pool.index(atPosition: $0) }.sorted()
    }

    @MainActor
    private static func selected(_ ui: UIHarness) -> [Int] { ui.list.selectedDownloads.map(\.index) }

    func testCtrlAndShiftClickAndCtrlASelectSeveral() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            ui.search("aurora")
            XCTAssertTrue(ui.waitForRows(24))
            try Self.click(ui, row: 1)
            XCTAssertEqual(Self.selected(ui), [1])
            try Self.click(ui, row: 3, state: GDK_CONTROL_MASK)
            XCTAssertEqual(Self.selected(ui), [1, 3], "Ctrl+click adds")
            XCTAssertEqual(Self.shownSelected(ui), [1, 3], "and the box shows both")
            try Self.click(ui, row: 6, state: GDK_SHIFT_MASK)
            XCTAssertEqual(Self.selected(ui), [3, 4, 5, 6], "Shift+click: from the last Ctrl+click to the row")
            try Self.click(ui, row: 2, state: GDK_SHIFT_MASK)
            XCTAssertEqual(Self.selected(ui), [2, 3], "the anchor stays where it was")
            try Self.click(ui, row: 3, state: GDK_CONTROL_MASK)
            XCTAssertEqual(Self.selected(ui), [2], "Ctrl+click on a selected row takes it out")
            try Self.click(ui, row: 5)
            XCTAssertEqual(Self.selected(ui), [5], "a plain click: that row alone")
            XCTAssertEqual(Self.shownSelected(ui), [5])

            ui.press(GDK_KEY_a, GDK_CONTROL_MASK)
            XCTAssertEqual(Self.selected(ui), Array(0..<24), "Ctrl+A: every item loaded")
            // Cells are recycled: the ones scrolled to show their items' selection too.
            ui.window.gallery?.loadMore()
            XCTAssertTrue(ui.waitForRows(48))
            XCTAssertEqual(Self.selected(ui).count, 24, "items loaded later are not selected by an earlier Ctrl+A")
            ui.window.setViewMode(.grid)
            ui.settleFrames()
            let shown = Self.shownSelected(ui)
            XCTAssertFalse(shown.isEmpty)
            XCTAssertEqual(shown, ui.list.pool.range.filter { $0 < 24 }, "the grid's tiles show the same selection")
            ui.press(GDK_KEY_Escape)
            XCTAssertEqual(Self.selected(ui).count, 1, "Escape: back to one")
            ui.window.setViewMode(.list)
            ui.list.select(4, focus: true)
            ui.press(GDK_KEY_Down, GDK_SHIFT_MASK)
            ui.press(GDK_KEY_Down, GDK_SHIFT_MASK)
            XCTAssertEqual(Self.selected(ui), [4, 5, 6], "Shift+↓ extends from the anchor")
            ui.press(GDK_KEY_Up, GDK_SHIFT_MASK)
            XCTAssertEqual(Self.selected(ui), [4, 5])
            ui.press(GDK_KEY_Down)
            XCTAssertEqual(Self.selected(ui), [6], "a move without Shift: one again")
        }
    }

    /// A new gallery starts with nothing selected, and no row shows a selection left from the last one.
    func testANewGalleryShowsNoSelectionOfTheLast() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            ui.search("aurora")
            XCTAssertTrue(ui.waitForRows(24))
            try Self.click(ui, row: 2)
            try Self.click(ui, row: 4, state: GDK_CONTROL_MASK)
            ui.search("atlas")
            XCTAssertTrue(ui.waitForRows(24))
            ui.settleFrames()
            XCTAssertEqual(Self.selected(ui), [])
            XCTAssertEqual(ui.list.listBox.selectedPositions, [], "no row shows a selection")
        }
    }

    func testTheMenuOfSeveralSavesTheirOriginalsAndCopiesTheirLinks() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            ui.search("aurora")
            XCTAssertTrue(ui.waitForRows(24))
            // Items 0, 1, 3 (0-based): two photos and a PNG; item 5 ("Missing Lighthouse") answers 404.
            try Self.click(ui, row: 0)
            for index in [1, 3, 5] { try Self.click(ui, row: index, state: GDK_CONTROL_MASK) }
            try Self.click(ui, row: 3, button: 3)
            let menu = ui.window.rowMenu
            XCTAssertTrue(menu.isOpen)
            XCTAssertEqual(menu.selection.map(\.index), [0, 1, 3, 5], "right-click on one of them: their menu")
            XCTAssertEqual(Self.selected(ui), [0, 1, 3, 5], "and they stay selected")

            menu.activate("copy-selection-links")
            // The links are worked out on a worker: the window says when they are on the clipboard.
            XCTAssertTrue(iterateMainLoop(until: { ui.window.notification.text == "4 links copied" }, timeout: 60))
            let links = try [0, 1, 3, 5].map { try XCTUnwrap(ui.download($0).item.link) }
            XCTAssertEqual(Clipboard.waitForText(), links.joined(separator: "\n"))

            // "Save 4 Images…" asks for a folder (GTK's chooser here, without a portal); Cancel saves nothing.
            menu.activate("save-selection")
            let chooser = try XCTUnwrap(UIHarness.waitForToplevel(ofType: gtk_file_chooser_dialog_get_type))
            gtk_dialog_response(UnsafeMutableRawPointer(chooser).assumingMemoryBound(to: GtkDialog.self), GTK_RESPONSE_CANCEL.rawValue)
            drainMainLoop()
            XCTAssertFalse(ui.window.selectionSave.isSaving)

            let folder = TemporaryFolder()
            defer { withExtendedLifetime(folder) {} }
            let save = ui.window.selectionSave
            let jobs = GalleryDownloader.jobs(for: menu.selection.map(\.item))
            save.start(jobs, in: folder.path)
            XCTAssertTrue(save.bar.isRevealed, "the bar shows while they download")
            XCTAssertTrue(iterateMainLoop(until: { !save.isSaving }, timeout: 60))
            XCTAssertFalse(save.bar.isRevealed)
            let catalog = try XCTUnwrap(ui.server.catalog.user(named: "aurora"))
            for index in [0, 1, 3] {
                let name = try XCTUnwrap(jobs.first { $0.url.contains(catalog.items[index].fileName) }?.name)
                let saved = try Data(contentsOf: URL(fileURLWithPath: folder.path + "/" + name))
                let directory = try XCTUnwrap(DemoGalleryLocation.defaultDataDirectory())
                let original = try Data(contentsOf: URL(fileURLWithPath: DemoGalleryLocation.imagesDirectory(in: directory)
                                                         + "/full/" + catalog.items[index].fileName))
                XCTAssertEqual(saved, original, "item \(index) saved byte for byte as \(name)")
            }
            let text = ui.window.notification.text
            XCTAssertTrue(text.hasPrefix("3 of 4 images saved in "), text)
            XCTAssertTrue(text.contains("404"), "the one not saved says why: \(text)")

            // Again into the same folder: what is complete is not downloaded again.
            let requestsBefore = ui.server.requestLog.filter { $0.hasPrefix("/images/") }.count
            save.start(jobs, in: folder.path)
            XCTAssertTrue(iterateMainLoop(until: { !save.isSaving }, timeout: 60))
            let again = ui.server.requestLog.filter { $0.hasPrefix("/images/") }.count - requestsBefore
            XCTAssertEqual(again, 1, "only the missing one is asked for again")
            XCTAssertEqual(save.downloader == nil, true)
        }
    }

    func testCancelStopsTheSaveAndSaysHowFarItGot() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            ui.search("aurora")
            XCTAssertTrue(ui.waitForRows(24))
            ui.server.holdsResponse = { $0.hasPrefix("/images/") }
            let folder = TemporaryFolder()
            defer { withExtendedLifetime(folder) {} }
            let save = ui.window.selectionSave
            let jobs = GalleryDownloader.jobs(for: try [0, 1].map { try ui.download($0).item })
            save.start(jobs, in: folder.path)
            XCTAssertTrue(iterateMainLoop(until: { ui.server.heldResponseCount > 0 }, timeout: 60))
            XCTAssertTrue(save.label.text.hasPrefix("Saving images: 0 of 2"), save.label.text)
            save.cancelButton.click()
            XCTAssertTrue(iterateMainLoop(until: { !save.isSaving }, timeout: 60))
            XCTAssertEqual(ui.window.notification.text, "Saving stopped: 0 of 2 images are in \(URL(fileURLWithPath: folder.path).lastPathComponent).")
            ui.server.holdsResponse = nil
            ui.server.releaseHeldResponses()
        }
    }

    /// The window closed while images are being saved: the downloads stop, and nothing of theirs reaches the
    /// window's widgets (GTK disposed them: a critical would fail the test).
    func testClosingTheWindowDuringASaveStopsIt() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            ui.search("aurora")
            XCTAssertTrue(ui.waitForRows(24))
            ui.server.holdsResponse = { $0.hasPrefix("/images/") }
            let folder = TemporaryFolder()
            defer { withExtendedLifetime(folder) {} }
            let save = ui.window.selectionSave
            save.start(GalleryDownloader.jobs(for: try [0, 1].map { try ui.download($0).item }), in: folder.path)
            XCTAssertTrue(iterateMainLoop(until: { ui.server.heldResponseCount > 0 }, timeout: 60))
            ui.server.holdsResponse = nil
            ui.server.releaseHeldResponses()
            ui.close()
            XCTAssertFalse(save.isSaving)
        }
    }
}
