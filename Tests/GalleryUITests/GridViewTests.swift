import CGLib
import CGtk
import GObjectBindings
@_spi(GtkInterop) import GtkBindings
import GalleryCore
import GalleryDemoServer
import TestSupport
import XCTest
@testable import GalleryUI

/// The grid: the list's recycled pool, thumbnail demand, keys, selection and menu, in lines of several tiles.
final class GridViewTests: GLibTestCase {
    func testTheKeysMoveInTwoDimensionsAndAcrossPages() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness(server: .init(latencyMilliseconds: 200))
            defer { ui.close() }
            ui.window.setViewMode(.grid)
            ui.search("huge-30")
            XCTAssertTrue(ui.waitForRows(24))
            let columns = ui.list.columns
            XCTAssertEqual(columns, 4, "four tiles across the window's default width")
            ui.list.select(0, focus: true)
            ui.press(GDK_KEY_Right)
            XCTAssertEqual(ui.list.selectedIndex, 1)
            ui.press(GDK_KEY_Down)
            XCTAssertEqual(ui.list.selectedIndex, 1 + columns, "Down: the tile below")
            ui.press(GDK_KEY_Left)
            XCTAssertEqual(ui.list.selectedIndex, columns)
            XCTAssertEqual(ui.focusWidget, try ui.tile(columns).child.widget, "the keyboard focus follows the selection")
            XCTAssertEqual(ui.list.flowBox.selectedIndex, ui.list.pool.position(ofIndex: columns), "and GTK's selection")
            ui.press(GDK_KEY_Left)
            XCTAssertEqual(ui.list.selectedIndex, columns - 1, "Left at a line's start: the end of the line above")
            ui.press(GDK_KEY_Up)
            XCTAssertEqual(ui.list.selectedIndex, columns - 1, "Up on the first line stays there")
            ui.press(GDK_KEY_Page_Down)
            let paged = try XCTUnwrap(ui.list.selectedIndex)
            XCTAssertEqual(paged % columns, columns - 1, "a page down keeps the column")
            XCTAssertGreaterThan(paged, columns, "and moves more than a line")
            XCTAssertTrue(ui.list.visibleRange.contains(paged))
            ui.press(GDK_KEY_Page_Up)
            XCTAssertEqual(ui.list.selectedIndex, columns - 1)

            // Six lines of four reach within `prefetchRows` lines of the end from the first screen: the view asked
            // for page 2 itself, and all 30 are in once it arrives.
            XCTAssertTrue(iterateMainLoop(until: { ui.window.gallery?.feed.state == .finished }, timeout: 60))
            XCTAssertEqual(ui.list.rowCount, 30)
            // 30 items in lines of 4: the last line holds 28 and 29 only.
            ui.list.select(26, focus: true)
            ui.press(GDK_KEY_Down)
            XCTAssertEqual(ui.list.selectedIndex, 29, "nothing below 26: the last item")
            ui.press(GDK_KEY_Down)
            XCTAssertEqual(ui.list.selectedIndex, 29, "Down on the last line stays there")
            ui.press(GDK_KEY_Right)
            XCTAssertEqual(ui.list.selectedIndex, 29)
            ui.press(GDK_KEY_Home, GDK_CONTROL_MASK)
            XCTAssertEqual(ui.list.selectedIndex, 0)
            XCTAssertEqual(ui.list.adjustment.value, 0)
            XCTAssertEqual(ui.focusWidget, try ui.tile(0).child.widget)
            ui.press(GDK_KEY_End, GDK_CONTROL_MASK)
            XCTAssertEqual(ui.list.selectedIndex, 29)
            XCTAssertTrue(iterateMainLoop(until: { ui.list.footerText == "End of gallery · 30 images" }, timeout: 60),
                          ui.list.footerText)
            XCTAssertTrue(ui.list.footerLabel.isMapped, "the footer is on screen, under the last line")
        }
    }

    /// End on the grid's first screen, with the feed at rest and its end far below: End itself asks for the next
    /// page, and the page arrives below the view.
    func testEndInTheGridAsksForTheNextPage() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness(server: .init(latencyMilliseconds: 300))
            defer { ui.close() }
            ui.window.setViewMode(.grid)
            ui.search("huge-100")
            XCTAssertTrue(ui.waitForRows(24))
            // The first page's six lines are all near its end: the view asks for page 2 by itself.
            XCTAssertTrue(iterateMainLoop(until: { ui.list.rowCount == 48 && ui.window.gallery?.feed.state == .idle }, timeout: 60))
            ui.list.select(0, focus: true)
            // The view asks for a page as it moves and as it is laid out: by the end of two frames it would have.
            ui.settleFrames()
            XCTAssertEqual(ui.window.gallery?.feed.state, .idle, "twelve lines, the first screen far from their end: nothing asked for")

            ui.press(GDK_KEY_End)
            XCTAssertEqual(ui.window.gallery?.feed.state, .loading(page: 3), "End asks for the next page")
            XCTAssertEqual(ui.list.selectedIndex, 47, "End: the last item loaded")
            XCTAssertEqual(ui.list.adjustment.value, ui.list.adjustment.maximumValue, "at the very bottom")
            XCTAssertTrue(iterateMainLoop(until: { ui.list.rowCount == 72 }, timeout: 60))
            XCTAssertTrue(ui.list.visibleRange.contains(47), "the page arrived below; the view did not move")
        }
    }

    func testAFewTilesServeTenThousandItems() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            ui.window.setViewMode(.grid)
            ui.search("huge-10000")
            XCTAssertTrue(ui.waitForRows(24))
            ui.list.select(0, focus: true)
            // All 417 pages, with the view at the top (End held through them is gridend10k's in `make bench`;
            // here it made the test take minutes on a loaded machine, AddressSanitizer's run near its timeout).
            ui.loadAllPages(timeout: 120)
            ui.press(GDK_KEY_End)
            XCTAssertEqual(ui.list.rowCount, 10_000)
            XCTAssertEqual(ui.list.selectedIndex, 9_999)
            XCTAssertTrue(ui.list.visibleRange.contains(9_999))
            let columns = ui.list.columns
            let screenLines = Int(ui.list.adjustment.pageSize) / ui.list.lineHeight + 2
            let bound = (screenLines + 2 * GalleryListView.marginRows) * columns
            for target in [5_000, 17, 9_000, 2_345] {
                ui.scroll(toRow: target)
                XCTAssertLessThanOrEqual(ui.list.boundTiles.count, bound, "a screenful of tiles at \(target)")
                XCTAssertEqual(Self.children(of: ui.list.flowBox).filter { gtk_widget_get_visible($0) != 0 }.count,
                               ui.list.boundTiles.count, "the flow box shows the bound tiles only")
                XCTAssertLessThanOrEqual(Self.children(of: ui.list.flowBox).count, bound, "and holds no more than a screenful")
                let first = try XCTUnwrap(ui.list.boundTiles.first?.download?.index)
                XCTAssertEqual(first % columns, 0, "bound from a line's start, so GTK's lines are the gallery's")
                XCTAssertEqual(ui.list.boundTiles.map { $0.download?.index }, Array(first..<first + ui.list.boundTiles.count).map { $0 },
                               "in order")
                XCTAssertEqual(try ui.tile(target).child.accessibleDescription, "Item \(target + 1) of 10000")
            }
            XCTAssertLessThanOrEqual(ui.list.gridPool.madeCount, bound, "tiles made over the whole walk")
            XCTAssertEqual(ui.list.listPool.cells.count, 0, "the list holds no rows meanwhile")
        }
    }

    func testATileReboundMidDownloadShowsItsOwnItemOnly() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness(server: .init(latencyMilliseconds: 400))
            defer { ui.close() }
            ui.window.setViewMode(.grid)
            // Item 0's thumbnail is held at the server until its tile shows another item: the latency alone
            // can run out while a loaded machine builds the first screen.
            ui.server.holdsResponse = { $0.hasPrefix("/thumbs/") && $0.contains("/atlas-001-") }
            ui.search("atlas")
            XCTAssertTrue(ui.waitForRows(24))
            XCTAssertTrue(iterateMainLoop(until: { ui.server.heldResponseCount > 0 }, timeout: 60), "item 0's thumbnail asked for")
            let first = try ui.download(0)
            let tile = try ui.tile(0)
            XCTAssertEqual(first.state, .loading)

            ui.scroll(toRow: 20)  // a jump: every tile is rebound, item 0's download goes on
            XCTAssertFalse(tile.download === first, "the tile shows another item now")
            ui.server.releaseHeldResponses()
            XCTAssertTrue(iterateMainLoop(until: { first.state == .loaded }, timeout: 60))
            XCTAssertNil(first.thumbnail, "an item off screen keeps no pixels")
            let firstPixels = try XCTUnwrap(first.cachedThumbnail?.pixbuf.pointer, "the cache has it")

            XCTAssertTrue(try iterateMainLoop(until: { try ui.list.visibleRange.allSatisfy { try ui.download($0).state.isFinal } }, timeout: 60))
            for bound in ui.list.boundTiles {
                let index = try XCTUnwrap(bound.download?.index)
                XCTAssertNotEqual(bound.thumbnail.pixbuf?.pointer, firstPixels, "item 0's image in the tile of item \(index)")
                if let own = bound.download?.thumbnail {
                    XCTAssertEqual(bound.thumbnail.pixbuf?.pointer, own.pixbuf.pointer, "tile of item \(index)")
                    XCTAssertEqual(max(own.pixbuf.width, own.pixbuf.height), GalleryTile.thumbnailSize,
                                   "decoded to fit the tile, item \(index)")
                }
            }
        }
    }

    func testTilesAskForTheLargerRenditionAndNothingForTilesFlownPast() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            ui.window.setViewMode(.grid)
            ui.search("huge-2000")
            XCTAssertTrue(ui.waitForRows(24))
            ui.loadAllPages()
            XCTAssertTrue(try iterateMainLoop(until: { try ui.list.visibleRange.allSatisfy { try ui.download($0).state.isFinal } }, timeout: 60))
            let list = ui.list
            let startScreen = list.visibleRange
            let requestsBefore = ui.thumbnailRequests().count
            // A scrollbar drag over 1,500 items: the adjustment moved in steps of more than a screen, as GtkRange
            // does a frame at a time. The steps come back to back: between frames a slow machine may take longer
            // than the demand's rest time (a drag resting there is rightly loaded there), and the view handles
            // each step as the adjustment moves, so frames add nothing the demand sees.
            let from = list.adjustment.value
            let to = Double(1_500 / list.columns * list.lineHeight)
            for step in 1...30 {
                list.adjustment.value = from + (to - from) * Double(step) / 30
            }
            ui.scroll(toRow: 1_500)
            XCTAssertTrue(try iterateMainLoop(until: { try list.visibleRange.allSatisfy { try ui.download($0).state.isFinal } }, timeout: 60))
            let endScreen = list.visibleRange
            let requests = ui.thumbnailRequests()
            let ahead = ThumbnailDemand.prefetchRows * list.columns
            let near = { (index: Int) in
                (startScreen.lowerBound - ahead..<startScreen.upperBound + ahead).contains(index)
                    || (endScreen.lowerBound - ahead..<endScreen.upperBound + ahead).contains(index)
            }
            let flownPast = requests[requestsBefore...].compactMap(Self.itemOfThumbnail).filter { !near($0) }
            XCTAssertEqual(flownPast, [], "thumbnails requested for tiles flown past")
            // Counted where the download starts, whether or not its request got out before being given up.
            let started = (0..<list.rowCount).filter { !near($0) && (list.download(at: $0)?.attempts ?? 0) > 0 }
            XCTAssertEqual(started, [], "downloads started for tiles flown past")
            XCTAssertGreaterThan(requests.count, requestsBefore, "the screen where the drag ended was loaded")
            XCTAssertTrue(requests.allSatisfy { $0.hasPrefix("/thumbs/300/") }, "the grid asks for the 300 px rendition: \(requests.prefix(3))")
        }
    }

    func testSwitchingKeepsTheSelectionTheItemAtTheTopAndTheFocus() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            ui.search("atlas")
            XCTAssertTrue(ui.waitForRows(24))
            ui.loadAllPages()
            ui.scroll(toRow: 21)
            XCTAssertEqual(ui.list.visibleRange.lowerBound, 21)
            ui.list.select(23, focus: true)
            XCTAssertFalse(ui.window.header.gridToggle.isActive)
            XCTAssertTrue(ui.thumbnailRequests().allSatisfy { $0.hasPrefix("/thumbs/150/") }, "the list's 96 px rows: the 150 px rendition")

            ui.press(GDK_KEY_2, GDK_CONTROL_MASK)  // Ctrl+2, as in Files
            XCTAssertTrue(ui.waitForCells(), "the tiles on screen are made, a few per frame")
            XCTAssertEqual(ui.list.mode, .grid)
            XCTAssertTrue(ui.window.header.gridToggle.isActive, "the header bar's toggle follows")
            XCTAssertTrue(ui.list.flowBox.isVisible)
            XCTAssertFalse(ui.list.listBox.isVisible)
            XCTAssertEqual(ui.list.visibleRange.lowerBound, 20, "item 21 stays on the top line")
            XCTAssertEqual(ui.list.selectedIndex, 23)
            XCTAssertEqual(ui.list.flowBox.selectedIndex, ui.list.pool.position(ofIndex: 23))
            XCTAssertEqual(ui.focusWidget, try ui.tile(23).child.widget, "the keyboard focus moves with the view")
            XCTAssertTrue(try iterateMainLoop(until: { try ui.download(23).state == .loaded }, timeout: 60))
            let tilePicture = try XCTUnwrap(try ui.download(23).thumbnail)
            XCTAssertEqual(max(tilePicture.pixbuf.width, tilePicture.pixbuf.height), GalleryTile.thumbnailSize,
                           "the tile's thumbnail is decoded at the tile's size")
            XCTAssertEqual(try ui.tile(23).thumbnail.pixbuf?.pointer, tilePicture.pixbuf.pointer)

            ui.press(GDK_KEY_Right)
            XCTAssertEqual(ui.list.selectedIndex, 24)
            ui.window.header.gridToggle.click()  // back to the list by the toggle
            XCTAssertTrue(ui.waitForCells())
            XCTAssertEqual(ui.list.mode, .list)
            XCTAssertEqual(ui.window.viewMode, .list)
            XCTAssertEqual(ui.list.selectedIndex, 24)
            XCTAssertTrue(ui.list.visibleRange.contains(24), "the selected item stays in view")
            XCTAssertEqual(ui.list.visibleRange.lowerBound, 20, "the top line's first item is at the top")
            XCTAssertEqual(ui.list.listBox.selectedIndex, ui.list.pool.position(ofIndex: 24))
            XCTAssertTrue(try iterateMainLoop(until: { try ui.download(24).state == .loaded }, timeout: 60))
            let rowPicture = try XCTUnwrap(try ui.download(24).thumbnail)
            XCTAssertEqual(max(rowPicture.pixbuf.width, rowPicture.pixbuf.height), GalleryRow.thumbnailSize,
                           "back at the row's size")
            XCTAssertEqual(ui.list.gridPool.cells.count, 0, "the grid holds no tiles meanwhile")

            ui.press(GDK_KEY_1, GDK_CONTROL_MASK)
            XCTAssertEqual(ui.list.mode, .list, "Ctrl+1 in the list changes nothing")
        }
    }

    func testTheLargeViewAndTheMenuWorkFromTheGrid() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            var saved: [GalleryViewMode] = []
            ui.window.onViewModeChange = { saved.append($0) }
            ui.window.setViewMode(.grid)
            XCTAssertEqual(saved, [.grid], "the window tells the app, which remembers it")
            ui.search("atlas")
            XCTAssertTrue(ui.waitForRows(24))
            ui.loadAllPages()
            ui.scroll(toRow: 28)
            let list = ui.list

            // Right-click on a tile: its menu, it selected.
            let tile = try ui.tile(30)
            let point = try XCTUnwrap(tile.child.translate(x: 60, y: 60, to: list.flowBox))
            ui.click(list.flowBox, x: Double(point.x), y: Double(point.y), button: 3)
            XCTAssertTrue(try ui.window.rowMenuTarget === ui.download(30), "right-click: the menu of the tile clicked")
            XCTAssertEqual(list.selectedIndex, 30)
            XCTAssertEqual(ui.window.rowMenu.isOpen, true)
            ui.window.rowMenu.close()
            ui.list.select(31, focus: true)
            ui.press(GDK_KEY_F10, GDK_SHIFT_MASK)
            XCTAssertTrue(try ui.window.rowMenuTarget === ui.download(31), "Shift+F10: the selected tile's menu")
            ui.window.rowMenu.close()

            // A double-click on a tile opens it; back, the last image viewed is selected, in view.
            let open = try XCTUnwrap(try ui.tile(29).child.translate(x: 60, y: 60, to: list.flowBox))
            ui.click(list.flowBox, x: Double(open.x), y: Double(open.y), double: true)
            XCTAssertTrue(ui.window.isLargeViewOpen)
            XCTAssertEqual(ui.window.largeView.download?.index, 29)
            XCTAssertFalse(ui.window.header.gridToggle.isVisible, "the switch belongs to the gallery")
            for _ in 0..<12 { ui.window.showNeighbour(1) }
            ui.press(GDK_KEY_Escape)
            XCTAssertFalse(ui.window.isLargeViewOpen)
            XCTAssertEqual(list.mode, .grid)
            XCTAssertEqual(list.selectedIndex, 41)
            XCTAssertTrue(list.visibleRange.contains(41))
            XCTAssertEqual(ui.focusWidget, try ui.tile(41).child.widget)
            ui.press(GDK_KEY_Return)
            XCTAssertEqual(ui.window.largeView.download?.index, 41, "Enter on the selected tile")
        }
    }

    func testTilesNameTheirItemAndItsPlaceInTheGallery() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            ui.window.setViewMode(.grid)
            ui.search("atlas")
            XCTAssertTrue(ui.waitForRows(24))
            let toggle = ui.window.header.gridToggle
            XCTAssertEqual(toggle.accessibleName, "Grid")
            XCTAssertEqual(atk_object_get_role(gtk_widget_get_accessible(toggle.widget)), ATK_ROLE_TOGGLE_BUTTON)
            let tile = try ui.tile(1)
            XCTAssertEqual(tile.child.accessibleName, try ui.download(1).item.displayTitle)
            XCTAssertEqual(tile.child.accessibleDescription, "Item 2 of \(ui.list.rowCount)")
            XCTAssertEqual(atk_object_get_role(gtk_widget_get_accessible(tile.child.widget)), ATK_ROLE_LIST_ITEM)
            XCTAssertEqual(ui.list.flowBox.accessibleName, "Gallery of atlas")
            XCTAssertNotEqual(gtk_widget_get_has_tooltip(tile.child.widget), 0)
            XCTAssertEqual(tile.tooltipText?.components(separatedBy: "\n").first, try ui.download(1).item.displayTitle,
                           "the whole title, which may be cut short under the tile")
            ui.scroll(toRow: 23)
            XCTAssertTrue(iterateMainLoop(until: { ui.list.rowCount >= 48 && ui.window.gallery?.feed.state != .loading(page: 3) },
                                          timeout: 60))
            XCTAssertEqual(try ui.tile(23).child.accessibleDescription, "Item 24 of \(ui.list.rowCount)", "the total follows the pages")
        }
    }

    func testTheGridReflowsAsTheWindowResizesKeepingTheTopItem() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            ui.window.setViewMode(.grid)
            ui.search("atlas")
            XCTAssertTrue(ui.waitForRows(24))
            ui.loadAllPages()
            ui.scroll(toRow: 24)
            let narrow = ui.list.columns
            gtk_window_resize(ui.window.window.widget.raw.as(GtkWindow.self), 1200, 720)
            XCTAssertTrue(iterateMainLoop(until: { ui.list.columns > narrow }, timeout: 60), "more columns when wider")
            ui.settleLayout()
            XCTAssertTrue(ui.waitForView())
            let wide = ui.list.columns
            XCTAssertTrue(ui.list.visibleRange.lowerBound <= 24 && 24 < ui.list.visibleRange.lowerBound + wide,
                          "item 24 stays on the top line: \(ui.list.visibleRange) in lines of \(wide)")
            XCTAssertEqual(ui.list.flowBox.maxChildrenPerLine, wide)
            XCTAssertEqual(ui.list.boundTiles.first.map { $0.download!.index % wide }, 0)
        }
    }

    /// The flow box's children, in box order, hidden ones included.
    @MainActor static func children(of widget: Widget) -> [UnsafeMutablePointer<GtkWidget>] {
        let list = gtk_container_get_children(widget.widget.raw.as(GtkContainer.self))
        defer { g_list_free(list) }
        var children: [UnsafeMutablePointer<GtkWidget>] = []
        var node = list
        while let current = node {
            children.append(current.pointee.data.assumingMemoryBound(to: GtkWidget.self))
            node = current.pointee.next
        }
        return children
    }

    /// "/thumbs/300/huge-0001234-atlas-….jpg" → 1233.
    private static func itemOfThumbnail(_ path: String) -> Int? {
        guard let range = path.firstRange(of: "/huge-") else { return nil }
        return Int(path[range.upperBound...].prefix(7)).map { $0 - 1 }
    }
}
