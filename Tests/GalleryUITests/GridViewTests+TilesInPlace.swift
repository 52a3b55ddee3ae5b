import CGLib
import CGtk
import GObjectBindings
@_spi(GtkInterop) import GtkBindings
import GalleryCore
import TestSupport
import XCTest
@testable import GalleryUI

/// The grid's tiles stay in the flow box: they are rebound where they are as the grid moves, and hidden
/// where they are when a new search needs fewer.
extension GridViewTests {
    /// Tiles never leave the flow box as the grid moves, by a line or by a jump: each is rebound where it
    /// is. A tile taken out and put back at the other end is restyled whole and realized again, which (with
    /// GtkLabel titles measured anew) made the grid's longest frames while End was held. The selection and
    /// the keyboard focus follow the item, not the tile.
    func testTilesStayInTheFlowBoxAndFollowTheirItemsAsTheGridMoves() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            ui.window.setViewMode(.grid)
            ui.search("huge-300")
            XCTAssertTrue(ui.waitForRows(24))
            ui.loadAllPages()
            let columns = ui.list.columns
            ui.scroll(toRow: 40 * columns)
            let selected = 41 * columns + 1
            ui.list.select(selected, focus: true)
            XCTAssertTrue(iterateMainLoop(until: { (try? ui.tile(selected))?.child.isFocus == true }, timeout: 60), "the selected tile has the focus")
            let placed = Self.children(of: ui.list.flowBox)
            let range = ui.list.pool.range

            ui.scroll(toRow: 41 * columns)
            let slid = ui.list.pool.range
            XCTAssertEqual(slid.lowerBound, range.lowerBound + columns, "one line further")
            XCTAssertEqual(Self.children(of: ui.list.flowBox), placed, "a line further: every tile where it was")
            XCTAssertEqual(ui.list.boundTiles.map { $0.download?.index }, slid.map { $0 }, "showing the new items in order")
            XCTAssertEqual(try ui.tile(selected).download?.index, selected)
            XCTAssertTrue(try ui.tile(selected).child.isFocus, "the focus followed the selected item to its new tile")
            XCTAssertEqual(ui.list.flowBox.selectedIndex, ui.list.pool.position(ofIndex: selected), "and GTK's selection")

            let lines = range.count / columns
            ui.scroll(toRow: (41 + lines - 1) * columns)
            let jumped = ui.list.pool.range
            XCTAssertLessThan(jumped.clamped(to: slid).count * 2, jumped.count, "most items changed")
            XCTAssertEqual(Self.children(of: ui.list.flowBox), placed, "every tile where it was")
            XCTAssertEqual(ui.list.boundTiles.map { $0.download?.index }, jumped.map { $0 }, "showing the new items in order")
            XCTAssertEqual(ui.list.boundTiles.map { $0.child.widget }, placed, "in the box's order")
        }
    }

    /// A new search of a shorter gallery hides the tiles it no longer needs where they are (after the bound
    /// ones), and the next longer one shows them again: no tile leaves the box to be restyled whole on its way
    /// back, a line a frame. The hidden tiles take no part in the keys, the selection or the layout.
    func testTilesNotNeededAfterANewSearchWaitHiddenInTheFlowBox() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            ui.window.setViewMode(.grid)
            ui.search("huge-300")
            XCTAssertTrue(ui.waitForRows(24))
            let placed = Self.children(of: ui.list.flowBox)
            let made = ui.list.gridPool.madeCount
            XCTAssertGreaterThan(placed.count, 5)

            ui.search("huge-5")
            XCTAssertTrue(iterateMainLoop(until: { ui.list.rowCount == 5 && ui.list.boundTiles.count == 5 }, timeout: 60))
            XCTAssertEqual(Self.children(of: ui.list.flowBox), placed, "every tile still in the box, in its place")
            XCTAssertEqual(ui.list.boundTiles.map { $0.child.widget }, Array(placed.prefix(5)), "the bound ones first")
            XCTAssertEqual(placed.map { gtk_widget_get_visible($0) != 0 }, placed.indices.map { $0 < 5 },
                           "the rest hidden")
            XCTAssertTrue(iterateMainLoop(until: { placed.map { gtk_widget_get_mapped($0) != 0 } == placed.indices.map { $0 < 5 } },
                                          timeout: 60))
            XCTAssertEqual(placed.map { gtk_widget_get_mapped($0) != 0 }, placed.indices.map { $0 < 5 }, "and not on screen")
            ui.list.select(0, focus: true)
            ui.press(GDK_KEY_End)
            XCTAssertEqual(ui.list.selectedIndex, 4, "End stops at the last item shown")
            ui.press(GDK_KEY_Right)
            XCTAssertEqual(ui.list.selectedIndex, 4)
            XCTAssertEqual(ui.list.flowBox.selectedIndex, 4, "GTK's selection with it")
            XCTAssertTrue(try ui.tile(4).child.isFocus)

            // A hidden tile coming back is mapped, laid out and painted anew: a line of them a frame.
            var tilesPerLayout: [Int] = []
            ui.list.flowBox.onSizeAllocate { _, _ in tilesPerLayout.append(ui.list.gridPool.cells.count) }
            ui.search("huge-300")
            XCTAssertEqual(ui.list.gridPool.cells.count, 0, "the search emptied the grid")
            XCTAssertTrue(iterateMainLoop(until: { ui.list.boundTiles.count == placed.count }, timeout: 60))
            XCTAssertTrue(iterateMainLoop(until: { tilesPerLayout.last == placed.count }, timeout: 60), "the last ones' layout")
            let columns = ui.list.columns
            XCTAssertGreaterThan(placed.count, 3 * columns, "more hidden tiles than two frames bring back")
            // From the empty grid the search left; a layout that changed nothing is no step. The page may
            // arrive before the first frame, so the first layout may already have a line bound with it.
            var steps = [0]
            for count in tilesPerLayout where count != steps.last { steps.append(count) }
            XCTAssertGreaterThan(steps.count, 3, "the tiles came back over several frames: \(tilesPerLayout)")
            for (offset, (before, after)) in zip(steps, steps.dropFirst()).enumerated() {
                XCTAssertLessThanOrEqual(after - before, offset == 0 ? 2 * columns : columns,
                                         "tiles shown again in one frame: \(steps)")
            }
            XCTAssertEqual(Self.children(of: ui.list.flowBox), placed, "the same tiles again")
            XCTAssertTrue(placed.allSatisfy { gtk_widget_get_visible($0) != 0 }, "all shown")
            XCTAssertEqual(ui.list.gridPool.madeCount, made, "none made anew")
            XCTAssertEqual(ui.list.boundTiles.map { $0.download?.index }, Array(0..<placed.count).map { $0 })
        }
    }
}
