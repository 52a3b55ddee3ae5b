internal import CGLib
internal import CGtk
import GObjectBindings

/// GTK's shortcuts window (the one Ctrl+? opens in GNOME apps), built from plain data. GtkShortcutsWindow
/// lays its sections and groups out only when they come from GtkBuilder, so the data is turned into a
/// builder document, every text escaped.
@MainActor
public final class ShortcutsWindow: Widget {
    public struct Group {
        public var title: String
        /// (title, GTK accelerators such as "<Primary>l")
        public var shortcuts: [(title: String, accelerators: [String])]

        public init(title: String, shortcuts: [(title: String, accelerators: [String])]) {
            self.title = title
            self.shortcuts = shortcuts
        }
    }

    /// `searchButtonName`: the accessible name of the window's search toggle, which GTK leaves unnamed.
    public init(title: String, searchButtonName: String, groups: [Group]) {
        let builder = ObjectRef(gtk_builder_new()!, transfer: .full)
        var error: UnsafeMutablePointer<GError>?
        let added = gtk_builder_add_from_string(builder.typed(), Self.document(groups), gsize.max, &error)
        precondition(added != 0, "shortcuts window: \(error.map { String(cString: $0.pointee.message) } ?? "?")")
        let window = gtk_builder_get_object(builder.typed(), "shortcuts")!
        super.init(window.raw.as(GtkWidget.self))
        gtk_window_set_title(widget.raw.as(GtkWindow.self), title)
        nameSearchButton(searchButtonName)
    }

    /// Wraps a shortcuts window made elsewhere (a window's help overlay).
    fileprivate init(existing window: UnsafeMutablePointer<GtkShortcutsWindow>) {
        super.init(window.raw.as(GtkWidget.self))
    }

    /// GTK 3 gives the window's search button (an icon-only toggle in its header bar) no accessible name,
    /// so a screen reader announces just "toggle button".
    private func nameSearchButton(_ name: String) {
        guard let titlebar = gtk_window_get_titlebar(widget.raw.as(GtkWindow.self)) else { return }
        GtkBindings.forEachDescendant(of: titlebar) { child in
            guard isInstance(child, of: gtk_toggle_button_get_type()),
                  let accessible = gtk_widget_get_accessible(child),
                  (string(atk_object_get_name(accessible)) ?? "").isEmpty else { return }
            atk_object_set_name(accessible, name)
        }
    }

    private static func document(_ groups: [Group]) -> String {
        func escaped(_ text: String) -> String { takeString(g_markup_escape_text(text, -1)) ?? "" }
        var xml = """
            <interface><object class="GtkShortcutsWindow" id="shortcuts"><property name="modal">1</property>
            <child><object class="GtkShortcutsSection"><property name="visible">1</property>
            <property name="section-name">shortcuts</property><property name="max-height">12</property>
            """
        for group in groups {
            xml += "<child><object class=\"GtkShortcutsGroup\"><property name=\"visible\">1</property>"
                + "<property name=\"title\">\(escaped(group.title))</property>"
            for shortcut in group.shortcuts {
                xml += "<child><object class=\"GtkShortcutsShortcut\"><property name=\"visible\">1</property>"
                    + "<property name=\"title\">\(escaped(shortcut.title))</property>"
                    + "<property name=\"accelerator\">\(escaped(shortcut.accelerators.joined(separator: " ")))</property>"
                    + "</object></child>"
            }
            xml += "</object></child>"
        }
        return xml + "</object></child></object></interface>"
    }
}

extension ApplicationWindow {
    /// The window's shortcuts window: adds the `win.show-help-overlay` action that opens it.
    public func setHelpOverlay(_ overlay: ShortcutsWindow) {
        gtk_application_window_set_help_overlay(widget.raw.as(GtkApplicationWindow.self),
                                                overlay.widget.raw.as(GtkShortcutsWindow.self))
    }

    /// The shortcuts window set with `setHelpOverlay`, if any.
    public var helpOverlay: ShortcutsWindow? {
        gtk_application_window_get_help_overlay(widget.raw.as(GtkApplicationWindow.self)).map {
            ShortcutsWindow(existing: $0)
        }
    }
}
