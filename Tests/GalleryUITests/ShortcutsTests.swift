import CGLib
import CGtk
import GObjectBindings
@_spi(GtkInterop) import GtkBindings
import GalleryCore
import TestSupport
import XCTest
@testable import GalleryUI

/// The one table of shortcuts against what the real window installs and shows, and against the README.
final class ShortcutsTests: GLibTestCase {
    func testTheShortcutsWindowListsEveryShortcutOfTheTable() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            XCTAssertNil(ui.window.window.helpOverlay, "made only when asked for")
            // The main menu opens it, and the action it uses exists on the window.
            ui.window.header.menuButton.installMenu()
            let menu = try XCTUnwrap(gtk_menu_button_get_menu_model(ui.window.header.menuButton.widget.raw.as(GtkMenuButton.self)))
            XCTAssertTrue(Self.menuActions(menu).contains("win.show-help-overlay"), "\(Self.menuActions(menu))")
            let overlay = try Self.openShortcutsWindow(ui)
            // The sections' shortcuts; the window's search page holds copies of them, left out here.
            var sections: [Widget] = []
            overlay.forEachDescendant { widget in
                if isInstance(widget.widget, of: gtk_shortcuts_section_get_type()) { sections.append(widget) }
            }
            XCTAssertEqual(sections.count, 1)
            var listed: [String] = []
            for section in sections {
                section.forEachDescendant { widget in
                    guard isInstance(widget.widget, of: gtk_shortcuts_shortcut_get_type()) else { return }
                    let object = widget.ref
                    listed.append("\(object.string("title") ?? "") = \(object.string("accelerator") ?? "")")
                }
            }
            XCTAssertEqual(listed, Shortcuts.all.map { "\($0.title) = \($0.accelerators.joined(separator: " "))" })
            gtk_widget_hide(overlay.widget)

            // Asked for again: the same window, shown again.
            ui.window.window.activateAction("show-help-overlay")
            XCTAssertTrue(iterateMainLoop(until: { gtk_widget_get_mapped(overlay.widget) != 0 }, timeout: 60))
            XCTAssertEqual(ui.window.window.helpOverlay?.widget, overlay.widget)
            gtk_widget_hide(overlay.widget)
        }
    }

    /// win.show-help-overlay, as Ctrl+? and the main menu activate it: the shortcuts window, made then, shows.
    @MainActor
    static func openShortcutsWindow(_ ui: UIHarness) throws -> ShortcutsWindow {
        ui.window.window.activateAction("show-help-overlay")
        XCTAssertTrue(iterateMainLoop(until: {
            ui.window.window.helpOverlay.map { gtk_widget_get_mapped($0.widget) != 0 } ?? false
        }, timeout: 60), "win.show-help-overlay shows the shortcuts window")
        return try XCTUnwrap(ui.window.window.helpOverlay)
    }

    /// GTK 3's shortcuts window does not destroy its inner box (search bar, pages) with itself: the box stayed
    /// behind naming the freed window as its parent, and the next style change walked into freed memory
    /// (ReadabilityTests, adding the app's stylesheet after OfflineWindowTests had closed two windows, died
    /// of a gtk_widget_get_scale_factor critical).
    func testAClosedWindowsShortcutsWindowLeavesNoWidgetNamingItAsParent() throws {
        try MainActor.assumeIsolated {
            let innerBox: ObjectRef
            do {
                let ui = try UIHarness()
                let overlay = try Self.openShortcutsWindow(ui)
                gtk_widget_hide(overlay.widget)
                innerBox = ObjectRef(try XCTUnwrap(gtk_bin_get_child(overlay.widget.raw.as(GtkBin.self))), transfer: .none)
                ui.close()
            }
            XCTAssertNil(gtk_widget_get_parent(innerBox.typed()), "the inner box left the destroyed shortcuts window")
            drainMainLoop()
            // A style change now reaches no widget of the closed window.
            let provider = ObjectRef(gtk_css_provider_new()!, transfer: .full)
            gtk_style_context_add_provider_for_screen(gdk_screen_get_default(), provider.opaque,
                                                      guint(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
            gtk_style_context_remove_provider_for_screen(gdk_screen_get_default(), provider.opaque)
        }
    }

    func testEveryActionShortcutIsInstalledOnTheApplication() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            for shortcut in Shortcuts.all {
                guard let action = shortcut.action else { continue }
                var installed: [String] = []
                if let accels = gtk_application_get_accels_for_action(ui.application.ref.typed(), action) {
                    var index = 0
                    while let accel = accels[index] {
                        installed.append(String(cString: accel))
                        index += 1
                    }
                    g_strfreev(accels)
                }
                XCTAssertEqual(installed, shortcut.accelerators, action)
            }
        }
    }

    /// The README's table is what the app has: a shortcut added to the table and not to the README (or the
    /// other way round) fails here, with the rows to paste.
    func testTheReadmeTableMatchesTheTable() throws {
        let readme = try XCTUnwrap(File.smallText(atPath: Self.readmePath), "README.md at \(Self.readmePath)")
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let heading = try XCTUnwrap(lines.firstIndex(of: "### Keyboard shortcuts"))
        let rows = lines[heading...].drop { !$0.hasPrefix("| ---") }.dropFirst().prefix { $0.hasPrefix("|") }
        let expected = MainActor.assumeIsolated {
            Shortcuts.all.map { "| \(Shortcuts.markdownKeys($0.accelerators)) | \($0.title) |" }
        }
        XCTAssertEqual(Array(rows), expected, "README.md's shortcut rows should be:\n" + expected.joined(separator: "\n"))
    }

    func testKeysAreWrittenAsOnTheKeyboard() {
        MainActor.assumeIsolated {
            XCTAssertEqual(Shortcuts.markdownKeys(["<Primary>question"]), "<kbd>Ctrl</kbd>+<kbd>?</kbd>")
            XCTAssertEqual(Shortcuts.markdownKeys(["<Alt>Left", "Page_Down"]),
                           "<kbd>Alt</kbd>+<kbd>←</kbd>, <kbd>Page Down</kbd>")
            XCTAssertEqual(Shortcuts.markdownKeys(["<Primary><Shift>c", "F11"]),
                           "<kbd>Ctrl</kbd>+<kbd>Shift</kbd>+<kbd>C</kbd>, <kbd>F11</kbd>")
        }
    }

    func testEveryItemActionIsInOneMenuGroup() {
        MainActor.assumeIsolated {
            let grouped = ItemMenus.groups.flatMap { $0 }
            XCTAssertEqual(grouped.sorted { $0.rawValue < $1.rawValue }, ItemAction.allCases.sorted { $0.rawValue < $1.rawValue },
                           "each action appears in the menus exactly once")
        }
    }

    // MARK: Helpers

    private static var readmePath: String {
        let file = #filePath
        let root = file.firstRange(of: "/Tests/GalleryUITests/").map { String(file[..<$0.lowerBound]) } ?? "."
        return root + "/README.md"
    }

    /// The action of every item in a menu model, sections included.
    @MainActor
    private static func menuActions(_ model: UnsafeMutablePointer<GMenuModel>) -> [String] {
        var actions: [String] = []
        for index in 0..<g_menu_model_get_n_items(model) {
            if let value = g_menu_model_get_item_attribute_value(model, index, "action", nil) {
                actions.append(String(cString: g_variant_get_string(value, nil)))
                g_variant_unref(value)
            }
            if let section = g_menu_model_get_item_link(model, index, "section") {
                actions += menuActions(section)
                g_object_unref(section)
            }
        }
        return actions
    }
}
