import CGLib
import CGtk
import GObjectBindings
@_spi(GtkInterop) import GtkBindings
@testable import GalleryCore
import GalleryDemoServer
import TestSupport
import XCTest
@testable import GalleryUI

/// The recent galleries in the real window: what goes on the list (a gallery the service answered for, a
/// pasted link as the source and user it led to; not a name the service does not know), the popover
/// (Ctrl+H, Enter on a row, remove buttons, Clear History), the entry's completion (typed keys, a match
/// chosen with the arrows and Enter), and the list coming back in a window made again on the same state file.
final class RecentGalleriesWindowTests: GLibTestCase {
    func testAnsweredSearchesAreRememberedAndComeBackInANewWindow() throws {
        try MainActor.assumeIsolated {
            let folder = TemporaryFolder()
            defer { withExtendedLifetime(folder) {} }
            let path = folder.path + "/gallery-viewer/state.ini"
            do {
                let ui = try UIHarness(stateFile: path)
                defer { ui.close() }
                let menu = ui.window.header.recentGalleries
                XCTAssertTrue(menu.entries.isEmpty)
                XCTAssertTrue(menu.button.isMapped, "the button is on screen, at the entry's end")
                ui.search("aurora")
                XCTAssertTrue(ui.waitForRows(24))
                XCTAssertTrue(Self.waitUntilFirst(RecentSearch(source: .demo, username: "aurora"), in: menu))
                ui.search("bob")
                XCTAssertTrue(iterateMainLoop(until: { ui.window.statusPage.titleLabel.text == "No such user: bob" }, timeout: 60))
                // Not there now, and not later either: the next searches' entries below come after aurora with
                // no bob between them.
                XCTAssertEqual(menu.entries.map(\.username), ["aurora"], "a name the service does not know is not remembered")
                ui.search("empty")
                XCTAssertTrue(Self.waitUntilFirst(RecentSearch(source: .demo, username: "empty"), in: menu),
                              "an empty gallery is remembered: the user is there")
                ui.search("Atlas")
                XCTAssertTrue(Self.waitUntilFirst(RecentSearch(source: .demo, username: "Atlas"), in: menu))
                XCTAssertEqual(menu.entries.map(\.username), ["Atlas", "empty", "aurora"], "newest first")
                ui.search("AURORA")
                XCTAssertTrue(Self.waitUntilFirst(RecentSearch(source: .demo, username: "AURORA"), in: menu))
                XCTAssertEqual(menu.entries.map(\.username), ["AURORA", "Atlas", "empty"], "moved up, not listed twice")
                XCTAssertTrue(iterateMainLoop(until: { ui.stateFile?.isSaving == false }, timeout: 60), "saved")
            }
            // A new window on the same state file: the app launched again.
            let ui = try UIHarness(stateFile: path)
            defer { ui.close() }
            let menu = ui.window.header.recentGalleries
            XCTAssertEqual(menu.entries.map(\.username), ["AURORA", "Atlas", "empty"])
            ui.press(GDK_KEY_h, GDK_CONTROL_MASK)
            XCTAssertTrue(iterateMainLoop(until: { menu.popover.isOpen && menu.rows.first?.isMapped == true }, timeout: 60),
                          "Ctrl+H opens the list")
            XCTAssertEqual(menu.rows.map(\.accessibleName), ["AURORA on Demo", "Atlas on Demo", "empty on Demo"])
            XCTAssertEqual(menu.removeButtons.first?.accessibleName, "Remove AURORA on Demo from Recent Galleries")
            XCTAssertTrue(iterateMainLoop(until: { menu.rows[0].isFocus }, timeout: 60), "the keyboard starts on the newest")
            ui.press(GDK_KEY_Down)
            ui.press(GDK_KEY_Return)
            XCTAssertTrue(iterateMainLoop(until: { !menu.popover.isOpen }, timeout: 60), "choosing closes the list")
            XCTAssertEqual(ui.window.header.usernameEntry.text, "Atlas")
            XCTAssertTrue(ui.waitForRows(24), "Enter on the second row searched it")
            XCTAssertEqual(try ui.download(0).item.author, "atlas")
        }
    }

    func testChoosingAGalleryOfAnotherSourceSwitchesThePicker() throws {
        try MainActor.assumeIsolated {
            let folder = TemporaryFolder()
            defer { withExtendedLifetime(folder) {} }
            folder.write(Array("[recent-galleries]\ngalleries=deviantart:atlas;demo:aurora;\n".utf8), to: "state.ini")
            // DeviantArt pointed at the demo server, which speaks its feed.
            let ui = try UIHarness(endpoints: [.deviantArt: UIHarness.demoServerEndpoint], stateFile: folder.path + "/state.ini")
            defer { ui.close() }
            let menu = ui.window.header.recentGalleries
            ui.search("aurora")
            XCTAssertTrue(Self.waitUntilFirst(RecentSearch(source: .demo, username: "aurora"), in: menu))
            menu.toggle()
            XCTAssertTrue(iterateMainLoop(until: { menu.popover.isOpen }, timeout: 60))
            XCTAssertEqual(menu.rows.map(\.accessibleName), ["aurora on Demo", "atlas on DeviantArt"], "aurora moved up")
            menu.list.activateRow(at: 1)
            XCTAssertEqual(ui.window.header.selectedSource, .deviantArt, "the source picker switched")
            XCTAssertEqual(ui.window.gallery?.source.kind, .deviantArt)
            XCTAssertTrue(ui.waitForRows(24))
            XCTAssertEqual(try ui.download(0).item.author, "atlas")
            XCTAssertTrue(Self.waitUntilFirst(RecentSearch(source: .deviantArt, username: "atlas"), in: menu))
        }
    }

    func testCompletionOffersTheMatchesOfWhatIsTypedAndSearchesTheOneChosen() throws {
        try MainActor.assumeIsolated {
            let folder = TemporaryFolder()
            defer { withExtendedLifetime(folder) {} }
            folder.write(Array("[recent-galleries]\ngalleries=demo:atlas;mastodon:alice@mastodon.social;demo:aurora;\n".utf8),
                         to: "state.ini")
            let ui = try UIHarness(stateFile: folder.path + "/state.ini")
            defer { ui.close() }
            // The completion's popup closes when the entry loses the keyboard focus: with no window manager, X
            // gives it to the window under the pointer unless a window takes it, as a window manager's would.
            ui.takeKeyboardFocus()
            ui.window.header.usernameEntry.focusAndSelectAll()
            ui.type("a")
            XCTAssertTrue(iterateMainLoop(until: { Self.completionTexts() == ["atlas on Demo", "alice@mastodon.social on Mastodon",
                                                                             "aurora on Demo"] }, timeout: 60),
                          "\(Self.completionTexts() ?? [])")
            ui.type("u")
            XCTAssertTrue(iterateMainLoop(until: { Self.completionTexts() == ["aurora on Demo"] }, timeout: 60),
                          "\(Self.completionTexts() ?? [])")
            XCTAssertNil(ui.window.gallery, "typing searches nothing")
            ui.press(GDK_KEY_Down)
            ui.press(GDK_KEY_Return)
            XCTAssertTrue(ui.waitForRows(24), "the match chosen was searched")
            XCTAssertEqual(ui.window.header.usernameEntry.text, "aurora")
            XCTAssertEqual(ui.window.gallery?.source.username, "aurora")
            XCTAssertTrue(iterateMainLoop(until: { Self.completionTexts() == nil }, timeout: 60), "the popup closed")

            // The source's name matches too (the picker shows Demo: a Mastodon gallery is offered all the same).
            ui.window.header.usernameEntry.focusAndSelectAll()
            ui.type("mast")
            XCTAssertTrue(iterateMainLoop(until: { Self.completionTexts() == ["alice@mastodon.social on Mastodon"] }, timeout: 60),
                          "\(Self.completionTexts() ?? [])")
            ui.press(GDK_KEY_Escape)
        }
    }

    func testEntriesAreRemovedOneByOneOrAllAtOnce() throws {
        try MainActor.assumeIsolated {
            let folder = TemporaryFolder()
            defer { withExtendedLifetime(folder) {} }
            let path = folder.path + "/state.ini"
            folder.write(Array("[last-search]\nsource=demo\nusername=atlas\n\n[recent-galleries]\ngalleries=demo:atlas;demo:aurora;demo:empty;\n".utf8),
                         to: "state.ini")
            let ui = try UIHarness(stateFile: path)
            defer { ui.close() }
            let menu = ui.window.header.recentGalleries
            ui.press(GDK_KEY_h, GDK_CONTROL_MASK)
            XCTAssertTrue(iterateMainLoop(until: { menu.popover.isOpen }, timeout: 60))
            menu.removeButtons[1].click()
            XCTAssertEqual(menu.rows.map(\.accessibleName), ["atlas on Demo", "empty on Demo"])
            XCTAssertTrue(menu.popover.isOpen, "the list stays open for more")
            XCTAssertTrue(menu.rows[1].isFocus, "the keyboard is on the row that took the removed one's place")
            XCTAssertTrue(iterateMainLoop(until: { ui.stateFile?.isSaving == false }, timeout: 60))
            XCTAssertEqual(RecentSearchStore(path: path).recentGalleries.entries.map(\.username), ["atlas", "empty"], "saved at once")

            // Completion offers what is left only.
            menu.popover.popDown()
            ui.takeKeyboardFocus()
            ui.window.header.usernameEntry.focusAndSelectAll()
            ui.type("a")
            XCTAssertTrue(iterateMainLoop(until: { Self.completionTexts() == ["atlas on Demo"] }, timeout: 60),
                          "aurora is gone from the completion too: \(Self.completionTexts() ?? [])")
            ui.press(GDK_KEY_Escape)

            menu.toggle()
            XCTAssertTrue(iterateMainLoop(until: { menu.popover.isOpen }, timeout: 60))
            XCTAssertEqual(menu.clearButton.accessibleName, "Clear History")
            menu.clearButton.click()
            XCTAssertTrue(menu.entries.isEmpty)
            XCTAssertTrue(menu.rows.isEmpty)
            XCTAssertFalse(menu.clearButton.isSensitive)
            XCTAssertTrue(iterateMainLoop(until: { ui.stateFile?.isSaving == false }, timeout: 60))
            let reread = RecentSearchStore(path: path)
            XCTAssertTrue(reread.recentGalleries.isEmpty)
            XCTAssertNil(reread.lastSearch, "nor does the next launch open the last gallery again")
            menu.toggle()
            XCTAssertTrue(iterateMainLoop(until: { menu.popover.isOpen && menu.emptyLabel.isMapped }, timeout: 60),
                          "an empty list says what it is for")
        }
    }

    /// GTK 3's popover fades out for 330 ms after it closes; opened again meanwhile, it let the fade finish and
    /// stayed closed under a pressed button (testEntriesAreRemovedOneByOneOrAllAtOnce failed so under ASan:
    /// Clear History, then Ctrl+H).
    func testCtrlHRightAfterTheListClosedOpensItAgain() throws {
        try MainActor.assumeIsolated {
            let folder = TemporaryFolder()
            defer { withExtendedLifetime(folder) {} }
            folder.write(Array("[recent-galleries]\ngalleries=demo:atlas;demo:aurora;\n".utf8), to: "state.ini")
            let ui = try UIHarness(stateFile: folder.path + "/state.ini")
            defer { ui.close() }
            let menu = ui.window.header.recentGalleries
            let popover = menu.popover.widget
            ui.press(GDK_KEY_h, GDK_CONTROL_MASK)
            XCTAssertTrue(iterateMainLoop(until: { menu.popover.isOpen && menu.rows.first?.isMapped == true }, timeout: 60))
            XCTAssertTrue(Self.waitForTransition(of: menu.popover), "faded in")
            // Closed as choosing a gallery or Clear History closes it, then Ctrl+H at once.
            menu.popover.popDown()
            XCTAssertFalse(menu.button.isActive, "closing")
            ui.press(GDK_KEY_h, GDK_CONTROL_MASK)
            XCTAssertTrue(menu.button.isActive)
            XCTAssertTrue(Self.waitForTransition(of: menu.popover))
            XCTAssertTrue(menu.popover.isOpen, "Ctrl+H during the fade opened the list again")
            XCTAssertEqual(gtk_widget_get_opacity(popover), 1)
            XCTAssertTrue(menu.rows.first?.isMapped == true)
        }
    }

    /// Waits until the popover's transition under way is over: a fade out ends closed, a fade in at full
    /// opacity. The fade shows first as an opacity below 1 in its first frame — unless a stalled main loop ran
    /// it in one frame, or animations are off: two frames drawn at full opacity is no fade to wait for.
    @MainActor
    static func waitForTransition(of popover: Popover) -> Bool {
        if let clock = gtk_widget_get_frame_clock(popover.widget) {
            let start = gdk_frame_clock_get_frame_counter(clock)
            iterateMainLoop(until: {
                if !popover.isOpen || gtk_widget_get_opacity(popover.widget) < 1 { return true }
                gtk_widget_queue_draw(popover.widget)
                return gdk_frame_clock_get_frame_counter(clock) >= start + 2
            }, timeout: 60)
        }
        return iterateMainLoop(until: { !popover.isOpen || gtk_widget_get_opacity(popover.widget) >= 1 }, timeout: 60)
    }

    func testAPastedLinkIsRememberedAsTheSourceAndUserItLedTo() throws {
        try MainActor.assumeIsolated {
            let folder = TemporaryFolder()
            defer { withExtendedLifetime(folder) {} }
            let ui = try UIHarness(endpoints: [.deviantArt: UIHarness.demoServerEndpoint], stateFile: folder.path + "/state.ini")
            defer { ui.close() }
            let clipboard = gtk_clipboard_get(gdk_atom_intern("CLIPBOARD", 0))
            gtk_clipboard_set_text(clipboard, "https://www.deviantart.com/aurora/gallery", -1)
            ui.window.header.usernameEntry.focusAndSelectAll()
            ui.press(GDK_KEY_v, GDK_CONTROL_MASK)
            XCTAssertTrue(ui.waitForRows(24))
            XCTAssertTrue(Self.waitUntilFirst(RecentSearch(source: .deviantArt, username: "aurora"), in: ui.window.header.recentGalleries))
            XCTAssertEqual(ui.window.header.recentGalleries.entries.count, 1, "the link itself is not remembered")
        }
    }

    /// Waits until `entry` heads the list: the window takes a gallery in once its first page was shown.
    @MainActor
    static func waitUntilFirst(_ entry: RecentSearch, in menu: RecentGalleriesMenu) -> Bool {
        iterateMainLoop(until: { menu.entries.first == entry }, timeout: 60)
    }

    /// The texts of the completion popup's rows while it is open; nil while it is closed.
    @MainActor
    static func completionTexts() -> [String]? {
        let toplevels = gtk_window_list_toplevels()
        defer { g_list_free(toplevels) }
        var node = toplevels
        while let current = node {
            node = current.pointee.next
            let widget = current.pointee.data.assumingMemoryBound(to: GtkWidget.self)
            guard gtk_window_get_window_type(widget.raw.as(GtkWindow.self)) == GTK_WINDOW_POPUP,
                  gtk_widget_get_mapped(widget) != 0, let treeView = firstDescendant(of: widget, type: gtk_tree_view_get_type()),
                  let model = gtk_tree_view_get_model(treeView.raw.as(GtkTreeView.self)) else { continue }
            var texts: [String] = []
            var iter = GtkTreeIter()
            var valid = gtk_tree_model_get_iter_first(model, &iter) != 0
            while valid {
                var value = GValue()
                gtk_tree_model_get_value(model, &iter, 0, &value)
                texts.append(string(g_value_get_string(&value)) ?? "")
                g_value_unset(&value)
                valid = gtk_tree_model_iter_next(model, &iter) != 0
            }
            return texts
        }
        return nil
    }

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
}
