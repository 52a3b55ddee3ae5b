import CGLib
import CGtk
import GObjectBindings
@_spi(GtkInterop) import GtkBindings
import GalleryCore
import TestSupport
import XCTest
@testable import GalleryUI

/// Find in the gallery (Ctrl+F) in the real window, on the demo's aurora (60 items, 24 a page): what is typed
/// filters the loaded items by title and description, the bar counts them, the large view steps through
/// them, a page that arrives meanwhile is searched too, and Escape shows every item again.
final class FindTests: GLibTestCase {
    /// Types `text` into the find bar and waits for the list to show its result (GTK's search entry waits
    /// 150 ms after typing, then the search runs on a worker).
    @MainActor
    private static func find(_ text: String, in ui: UIHarness, expecting count: String) {
        ui.window.find.entry.text = text
        XCTAssertTrue(iterateMainLoop(until: { ui.window.find.shownQuery == text }, timeout: 60), "“\(text)” was not found")
        XCTAssertTrue(ui.window.find.countLabel.text.hasPrefix(count),
                      "“\(text)”: the bar says “\(ui.window.find.countLabel.text)”, not “\(count)…”")
    }

    @MainActor
    private static func shownTitles(_ ui: UIHarness) -> [String] {
        (0..<ui.list.rowCount).map { ui.list.download(at: $0)?.item.displayTitle ?? "?" }
    }

    func testTypingFiltersByTitleAndDescriptionAndEscapeShowsAllAgain() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            ui.search("aurora")
            XCTAssertTrue(ui.waitForRows(24))
            let find = ui.window.find
            ui.list.select(1, focus: true)
            ui.press(GDK_KEY_f, GDK_CONTROL_MASK)
            XCTAssertTrue(find.isOpen, "Ctrl+F opens the bar")
            XCTAssertTrue(find.entry.isFocus, "ready for typing")

            // Any case, without the accent, several words in any order.
            Self.find("CAFE", in: ui, expecting: "1 of 24")
            XCTAssertEqual(Self.shownTitles(ui), ["Café Ωmega 🌊"])
            XCTAssertNil(ui.list.selectedIndex, "the selected item does not show")
            Self.find("shoreline salt", in: ui, expecting: "1 of 24")
            XCTAssertEqual(Self.shownTitles(ui), ["Salt & Pepper Shoreline"])
            XCTAssertEqual(find.countLabel.text, "1 of 24 loaded items")
            XCTAssertEqual(ui.list.selectedIndex, 0, "the item selected before the find is selected again where it shows")
            // The description: item 7's says “#007” on its band; its title does not.
            Self.find("007", in: ui, expecting: "1 of 24")
            XCTAssertEqual(Self.shownTitles(ui), ["Tall Pines"])
            XCTAssertEqual(ui.window.gallery?.feed.state, .idle, "the end of what was found asks for no more pages")
            XCTAssertEqual(ui.list.rowCount, 1)
            Self.find("no such words here", in: ui, expecting: "0 of 24")
            XCTAssertEqual(ui.list.rowCount, 0)

            // Several found: the large view steps through them only.
            Self.find("salt", in: ui, expecting: "2 of 24")
            XCTAssertEqual(Self.shownTitles(ui), ["Salt & Pepper Shoreline", "Dusk over the Salt Flats"])
            let first = try XCTUnwrap(ui.list.download(at: 0)), second = try XCTUnwrap(ui.list.download(at: 1))
            XCTAssertEqual(try XCTUnwrap(ui.list.row(for: second)).row.accessibleDescription, "Item 2 of 2",
                           "a screen reader hears where it is among what shows")
            XCTAssertGreaterThan(second.index, first.index + 1, "other items lie between them in the gallery")
            find.entry.activate()
            XCTAssertEqual(ui.list.selectedIndex, 0, "Enter goes to the first found item")
            ui.window.openLargeView(first)
            ui.press(GDK_KEY_Page_Down)
            XCTAssertTrue(ui.window.largeView.download === second, "the next found item, not the gallery's next")
            ui.press(GDK_KEY_Escape)
            XCTAssertEqual(ui.list.selectedIndex, 1, "back in the list: the item viewed is selected where it shows")

            // Escape in the entry: every item again, the selection on the same item.
            find.entry.focusAndSelectAll()
            ui.press(GDK_KEY_Escape)
            XCTAssertFalse(find.isOpen)
            // Every item: the gallery's, however many (at the top again, the list may ask for the next page at
            // once, which a fast machine has appended by now).
            XCTAssertNil(ui.list.foundItems)
            XCTAssertEqual(ui.list.rowCount, ui.window.gallery?.downloads.count)
            XCTAssertGreaterThanOrEqual(ui.list.rowCount, 24)
            XCTAssertEqual(ui.list.selectedIndex, second.index)
        }
    }

    /// Another find's items replace what shows, also when they end like it: every cell shows its new item, and
    /// the selection is of what shows.
    func testAnotherFindsItemsReplaceTheCellsEvenWhenTheyShareTheirEnd() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            ui.search("aurora")
            XCTAssertTrue(ui.waitForRows(24))
            let items = try [3, 5, 7, 9].map { try ui.download($0) }
            ui.list.showOnly([items[0], items[2]])
            ui.list.select(0)
            ui.list.showOnly([items[1], items[2], items[3]])
            ui.settleFrames()
            for (position, item) in [items[1], items[2], items[3]].enumerated() {
                XCTAssertTrue(ui.list.row(for: item) != nil, "item \(item.index) has its row")
                XCTAssertTrue(ui.list.pool.cell(forIndex: position)?.download === item, "position \(position)")
            }
            XCTAssertNil(ui.list.selectedIndex, "item 3, selected, does not show")
            XCTAssertEqual(ui.list.listBox.selectedPositions, [], "and no row shows a selection")
        }
    }

    /// A page that arrives while the bar filters is searched too, and the found items grow in place.
    func testAPageArrivingDuringAFindIsSearchedToo() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            ui.server.holdsResponse = { $0.contains("offset=24") }
            ui.search("aurora")
            XCTAssertTrue(ui.waitForRows(24))
            ui.window.gallery?.loadMore()
            XCTAssertTrue(iterateMainLoop(until: { ui.server.heldResponseCount > 0 }, timeout: 60), "page 2 asked for")
            ui.press(GDK_KEY_f, GDK_CONTROL_MASK)
            Self.find("ridges", in: ui, expecting: "")
            let before = ui.list.rowCount
            XCTAssertTrue(ui.window.find.countLabel.text.hasSuffix("of 24 loaded items"), ui.window.find.countLabel.text)
            ui.server.holdsResponse = nil
            ui.server.releaseHeldResponses()
            XCTAssertTrue(iterateMainLoop(until: { ui.window.find.countLabel.text.hasSuffix("of 48 loaded items") }, timeout: 60),
                          ui.window.find.countLabel.text)
            XCTAssertGreaterThan(ui.list.rowCount, before, "page 2 has ridges too")
            XCTAssertTrue((0..<ui.list.rowCount).allSatisfy { position in
                ui.list.download(at: position)?.item.altText?.contains("ridges") == true
            }, "only items whose description says so")
        }
    }
}
