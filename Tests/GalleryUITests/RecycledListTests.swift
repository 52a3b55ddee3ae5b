import CGLib
import CGtk
import GObjectBindings
import GtkBindings
import GalleryCore
import GalleryDemoServer
import TestSupport
import XCTest
@testable import GalleryUI

/// The recycled list: a handful of rows bound and rebound to the gallery's models as the view moves, and
/// everything a list does still working across the whole gallery.
final class RecycledListTests: GLibTestCase {
    func testTheKeysWalkTheWholeGalleryAndEndAsksForMore() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness(server: .init(latencyMilliseconds: 200))
            defer { ui.close() }
            ui.search("atlas")
            XCTAssertTrue(ui.waitForRows(24))
            ui.list.select(0, focus: true)
            for _ in 0..<3 { ui.press(GDK_KEY_Down) }
            XCTAssertEqual(ui.list.selectedIndex, 3)
            XCTAssertEqual(ui.focusWidget, try ui.row(3).row.widget, "the keyboard focus follows the selection")
            ui.press(GDK_KEY_Page_Down)
            let paged = try XCTUnwrap(ui.list.selectedIndex)
            XCTAssertGreaterThan(paged, 6, "a page is most of a screenful")
            XCTAssertTrue(ui.list.visibleRange.contains(paged))

            ui.press(GDK_KEY_End)
            XCTAssertEqual(ui.list.selectedIndex, 23, "End: the last item loaded")
            XCTAssertEqual(ui.list.adjustment.value, ui.list.adjustment.maximumValue, "at the very bottom")
            XCTAssertEqual(ui.window.gallery?.feed.state, .loading(page: 2), "End asks for the next page")
            XCTAssertTrue(iterateMainLoop(until: { ui.list.rowCount == 48 }, timeout: 60))
            XCTAssertEqual(ui.list.selectedIndex, 23)
            XCTAssertTrue(ui.list.visibleRange.contains(23), "the page arrived below; the view did not move")
            ui.press(GDK_KEY_End)
            XCTAssertEqual(ui.list.selectedIndex, 47)

            ui.press(GDK_KEY_Home, GDK_CONTROL_MASK)
            XCTAssertEqual(ui.list.selectedIndex, 0)
            XCTAssertEqual(ui.list.adjustment.value, 0)
            ui.press(GDK_KEY_Up)
            XCTAssertEqual(ui.list.selectedIndex, 0, "Up on the first row stays there")
            XCTAssertEqual(ui.focusWidget, try ui.row(0).row.widget)
            XCTAssertLessThanOrEqual(ui.list.boundRows.count, ui.list.visibleRange.count + 2, "a screenful of rows, not 48")
        }
    }

    func testEndHeldPagesToTheLastItemAndTheFooterSaysSo() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            ui.search("huge-100")
            XCTAssertTrue(ui.waitForRows(24))
            ui.list.select(0, focus: true)
            XCTAssertTrue(iterateMainLoop(until: {
                ui.press(GDK_KEY_End)
                return ui.window.gallery?.feed.state == .finished
            }, timeout: 60))
            ui.press(GDK_KEY_End)
            XCTAssertEqual(ui.list.rowCount, 100)
            XCTAssertEqual(ui.list.selectedIndex, 99)
            XCTAssertTrue(ui.list.visibleRange.contains(99))
            // The footer follows the feed's state in the window's coalesced status update (an idle after
            // the change), which a slow run (AddressSanitizer) may not have reached yet.
            iterateMainLoop(until: { ui.list.footerText != "Loading more…" }, timeout: 60)
            XCTAssertEqual(ui.list.footerText, "End of gallery · 100 images")
            XCTAssertTrue(ui.list.footerLabel.isMapped, "the footer is on screen, under the last row")
        }
    }

    /// A cell's first frame (its widgets made, styled, measured, painted) is costly: a window on screen showing
    /// its first gallery gets a few new cells per frame, not a screenful in one long frame — and every cell on
    /// screen still ends up bound, showing its own thumbnail. In the list and in the grid.
    func testTheFirstRowsComeAFewPerFrameAndAllReachTheScreen() throws {
        try checkCellsComeAFewPerFrame(.list)
    }

    func testTheFirstTilesComeAFewPerFrameAndAllReachTheScreen() throws {
        try checkCellsComeAFewPerFrame(.grid)
    }

    /// A launch's saved first screen (its thumbnails kept) comes whole: its rows all made in one layout, the
    /// gallery's page shown without a fade; rows then come a few per frame again and pages fade.
    func testALaunchsSavedFirstScreenIsMadeAtOnce() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            let list = ui.list
            var cellsPerLayout: [Int] = []
            list.cellBox.boxWidget.onSizeAllocate { _, _ in cellsPerLayout.append(list.pool.cells.count) }
            ui.window.search(source: .demo, username: "atlas", fromSavedCopy: true)
            XCTAssertTrue(list.makesNextScreenAtOnce)
            XCTAssertFalse(ui.window.stack.fadesBetweenPages)
            XCTAssertTrue(ui.waitForRows(24))
            XCTAssertTrue(iterateMainLoop(until: { !list.isAddingCells && !list.visibleRange.isEmpty }, timeout: 60))
            let lastLine = list.geometry.line(of: list.visibleRange.upperBound - 1)
            let wanted = list.geometry.items(onLines: 0..<(lastLine + 1 + GalleryListView.marginRows))
            XCTAssertGreaterThan(wanted.count, 2 * list.pool.newCellsPerFrame)
            // The first layout measures one row (its height sets the lines'); the next has them all.
            let laidOut = cellsPerLayout.filter { $0 > 0 }
            XCTAssertEqual(laidOut.dropFirst().first, wanted.count, "the whole screen in one layout: \(laidOut)")
            XCTAssertFalse(list.makesNextScreenAtOnce, "once")
            XCTAssertTrue(ui.window.stack.fadesBetweenPages)
        }
    }

    private func checkCellsComeAFewPerFrame(_ mode: GalleryViewMode) throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            ui.window.setViewMode(mode)
            let list = ui.list
            let perFrame = list.pool.newCellsPerFrame
            var cellsPerLayout: [Int] = []
            list.cellBox.boxWidget.onSizeAllocate { _, _ in cellsPerLayout.append(list.pool.cells.count) }
            ui.search("atlas")
            XCTAssertTrue(ui.waitForRows(24))
            let visible = list.visibleRange
            XCTAssertGreaterThan(visible.count, 2 * perFrame, "the window shows more cells than two frames make")
            let lastLine = list.geometry.line(of: visible.upperBound - 1)
            let wanted = list.geometry.items(onLines: 0..<(lastLine + 1 + GalleryListView.marginRows))
            XCTAssertEqual(list.pool.range, wanted, "all of them, and a line below")
            let laidOut = cellsPerLayout.filter { $0 > 0 }
            XCTAssertGreaterThan(laidOut.count, 2, "the cells were laid out over several frames: \(laidOut)")
            XCTAssertLessThanOrEqual(laidOut.first ?? 0, perFrame, "the first frame's new cells")
            for (before, after) in zip(laidOut, laidOut.dropFirst()) {
                XCTAssertLessThanOrEqual(after - before, perFrame, "new cells in one frame: \(laidOut)")
            }

            XCTAssertTrue(try iterateMainLoop(until: { try visible.allSatisfy { ![.notStarted, .loading].contains(try ui.download($0).state) } }, timeout: 60))
            for index in visible where try ui.download(index).state == .loaded {
                let cell = try XCTUnwrap(list.cell(for: try ui.download(index)), "item \(index) has its cell")
                let shown = try XCTUnwrap(cell.thumbnail.pixbuf, "item \(index) shows its thumbnail")
                XCTAssertEqual(shown.pointer, try ui.download(index).thumbnail?.pixbuf.pointer, "item \(index)")
            }
            XCTAssertTrue(try visible.contains { try ui.download($0).state == .loaded })
        }
    }

    func testSelectionAndFocusSurviveRebinding() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            ui.search("atlas")
            XCTAssertTrue(ui.waitForRows(24))
            ui.loadAllPages()
            ui.list.select(2, focus: true)
            XCTAssertEqual(ui.focusWidget, try ui.row(2).row.widget)

            ui.scroll(toRow: 200)  // the rows of items 0…2 were rebound to items near 200
            XCTAssertNil(ui.list.row(for: try ui.download(2)))
            XCTAssertEqual(ui.list.selectedIndex, 2, "the selection is the model's, not a row's")
            XCTAssertNil(ui.list.listBox.selectedIndex, "no row on screen shows the selected item")
            XCTAssertEqual(ui.focusWidget, ui.list.listBox.widget, "the focus stays in the list")

            ui.press(GDK_KEY_Down)
            XCTAssertEqual(ui.list.selectedIndex, 3, "the keys go on from the selection")
            XCTAssertTrue(ui.list.visibleRange.contains(3), "and bring it back into view")
            XCTAssertEqual(ui.focusWidget, try ui.row(3).row.widget)
            let position = try XCTUnwrap(ui.list.pool.position(ofIndex: 3))
            XCTAssertEqual(ui.list.listBox.selectedIndex, position)

            ui.wheel()  // a wheel click moves the view, not the selection
            XCTAssertEqual(ui.list.selectedIndex, 3)
            XCTAssertEqual(ui.list.listBox.selectedIndex, ui.list.pool.position(ofIndex: 3))
        }
    }

    func testARowReboundMidDownloadShowsItsOwnItemOnly() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness(server: .init(latencyMilliseconds: 400))
            defer { ui.close() }
            // Item 0's thumbnail is held at the server until its row shows another item: the latency alone
            // can run out while a loaded machine builds the first screen.
            ui.server.holdsResponse = { $0.hasPrefix("/thumbs/") && $0.contains("/atlas-001-") }
            ui.search("atlas")
            XCTAssertTrue(ui.waitForRows(24))
            XCTAssertTrue(iterateMainLoop(until: { ui.server.heldResponseCount > 0 }, timeout: 60), "item 0's thumbnail asked for")
            let first = try ui.download(0)
            let row = try ui.row(0)
            XCTAssertEqual(first.state, .loading)

            ui.scroll(toRow: 14)  // a jump: every row is rebound, item 0's download goes on
            XCTAssertFalse(row.download === first, "the row shows another item now")
            ui.server.releaseHeldResponses()
            XCTAssertTrue(iterateMainLoop(until: { first.state == .loaded }, timeout: 60))
            XCTAssertNil(first.thumbnail, "an item off screen keeps no pixels")
            let firstPixels = try XCTUnwrap(first.cachedThumbnail?.pixbuf.pointer, "the cache has it")

            XCTAssertTrue(try iterateMainLoop(until: { try ui.list.visibleRange.allSatisfy { try ui.download($0).state == .loaded } },
                                          timeout: 60))
            for bound in ui.list.boundRows {
                XCTAssertNotEqual(bound.thumbnail.pixbuf?.pointer, firstPixels, "item 0's image in a row showing item \(bound.download!.index)")
                if let own = bound.download?.thumbnail {
                    XCTAssertEqual(bound.thumbnail.pixbuf?.pointer, own.pixbuf.pointer, "row of item \(bound.download!.index)")
                } else {
                    XCTAssertEqual(bound.thumbnail.iconName, "image-x-generic-symbolic", "a placeholder until its own image")
                }
            }
        }
    }

    func testThumbnailsLeaveRowsThatScrollAwayAndComeBackFromTheCache() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            ui.search("atlas")
            XCTAssertTrue(ui.waitForRows(24))
            XCTAssertTrue(try iterateMainLoop(until: { try ui.download(0).state == .loaded }, timeout: 60))
            XCTAssertNotNil(try ui.download(0).thumbnail)
            let path = String(try XCTUnwrap(try ui.download(0).thumbnailURL).dropFirst(ui.server.baseURL.count))

            ui.scroll(toRow: 16)
            XCTAssertNil(try ui.download(0).thumbnail, "unbound: the model lets go of the pixels")
            XCTAssertEqual(try ui.download(0).state, .loaded, "and remembers it loaded")

            ui.scroll(toRow: 0)
            XCTAssertNotNil(try ui.download(0).thumbnail, "back on screen at once, from the cache")
            XCTAssertEqual(try ui.row(0).thumbnail.pixbuf?.pointer, try ui.download(0).thumbnail?.pixbuf.pointer)
            XCTAssertEqual(ui.server.requestLog.filter { $0 == path }.count, 1, "not downloaded again")
            XCTAssertEqual(try ui.download(0).attempts, 1, "nor asked for again")
        }
    }

    func testTheLargeViewOpensTheItemUnderThePointerAfterScrolling() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            ui.search("atlas")
            XCTAssertTrue(ui.waitForRows(24))
            ui.loadAllPages()
            ui.list.adjustment.value = 200.5 * Double(ui.list.lineHeight)
            XCTAssertTrue(ui.waitForView(), "the rows at the new place were not bound")
            let expected = Int(ui.list.adjustment.value + 300) / ui.list.lineHeight
            let row = try XCTUnwrap(ui.list.cell(atViewportX: 100, y: 300) as? GalleryRow)
            XCTAssertEqual(row.download?.index, expected)
            gtk_widget_activate(row.row.widget)  // what a double-click on it does
            XCTAssertTrue(ui.window.isLargeViewOpen)
            XCTAssertEqual(ui.window.largeView.download?.index, expected)

            // Right, again and again: far past the rows the list has.
            for _ in 0..<30 { ui.window.showNeighbour(1) }
            XCTAssertEqual(ui.window.largeView.download?.index, expected + 30)
            ui.window.closeLargeView()
            XCTAssertEqual(ui.list.selectedIndex, expected + 30, "the image last viewed is selected")
            XCTAssertTrue(ui.list.visibleRange.contains(expected + 30), "and scrolled into view")
        }
    }

    func testReturningFromTheLargeViewRestoresTheExactPosition() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            ui.search("atlas")
            XCTAssertTrue(ui.waitForRows(24))
            ui.loadAllPages()
            ui.list.adjustment.value = 12_345.5
            XCTAssertTrue(ui.waitForView(), "the rows at the new place were not bound")
            let index = ui.list.visibleRange.lowerBound + 2
            ui.activate(index)
            XCTAssertEqual(ui.window.largeView.download?.index, index)
            ui.window.showNeighbour(1)  // still on screen in the list
            ui.window.closeLargeView()
            // The list shown again is laid out in the frames after it is mapped: a layout that moved the view
            // would have moved it by the end of those.
            XCTAssertTrue(iterateMainLoop(until: { ui.list.listBox.isMapped }, timeout: 60), "the list is shown again")
            XCTAssertTrue(ui.waitForView())
            ui.settleLayout()
            XCTAssertEqual(ui.list.adjustment.value, 12_345.5, "not a pixel moved")
            XCTAssertEqual(ui.list.selectedIndex, index + 1)
            XCTAssertEqual(ui.focusWidget, try ui.row(index + 1).row.widget)
        }
    }

    func testRowsNameTheirItemAndItsPlaceInTheGallery() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            ui.search("atlas")
            XCTAssertTrue(ui.waitForRows(24))
            let row = try ui.row(1)
            XCTAssertEqual(row.row.accessibleName, try ui.download(1).item.displayTitle)
            XCTAssertEqual(row.row.accessibleDescription, "Item 2 of 24")
            XCTAssertEqual(atk_object_get_role(gtk_widget_get_accessible(row.row.widget)), ATK_ROLE_LIST_ITEM)
            XCTAssertEqual(ui.list.listBox.accessibleName, "Gallery of atlas")
            ui.scroll(toRow: 23)
            XCTAssertTrue(iterateMainLoop(until: { ui.list.rowCount == 48 }, timeout: 60))
            XCTAssertEqual(try ui.row(23).row.accessibleDescription, "Item 24 of 48", "the total follows the pages")
        }
    }

    func testTheWheelScrollsAndAFlickGlidesToAStop() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            ui.search("atlas")
            XCTAssertTrue(ui.waitForRows(24))
            ui.list.select(0, focus: true)
            let page = ui.list.adjustment.pageSize
            ui.wheel()
            XCTAssertEqual(ui.list.adjustment.value, KineticScroll.wheelStep(pageSize: page), accuracy: 0.5)
            ui.wheel(down: false)
            XCTAssertEqual(ui.list.adjustment.value, 0)

            ui.list.kinetic.decelerate(velocity: 30)  // a touchpad flick: 30 wheel clicks a second
            XCTAssertTrue(ui.list.kinetic.isGliding)
            XCTAssertTrue(iterateMainLoop(until: { !ui.list.kinetic.isGliding }, timeout: 60), "the glide ends by itself")
            let glided = ui.list.adjustment.value
            XCTAssertGreaterThan(glided, KineticScroll.wheelStep(pageSize: page) * 3)
            // A glide moves the view on the frame clock's ticks: two frames drawn without a move is stopped.
            ui.settleFrames()
            XCTAssertEqual(ui.list.adjustment.value, glided, "and stays stopped")

            ui.list.kinetic.decelerate(velocity: 30)
            ui.press(GDK_KEY_Down)
            XCTAssertFalse(ui.list.kinetic.isGliding, "a key stops it")
        }
    }
}
