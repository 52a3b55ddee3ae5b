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
        keepInnerBoxFromOutlivingTheWindow()
    }

    /// Wraps a shortcuts window made elsewhere (a window's help overlay).
    fileprivate init(existing window: UnsafeMutablePointer<GtkShortcutsWindow>) {
        super.init(window.raw.as(GtkWidget.self))
    }

    /// GTK 3's GtkShortcutsWindow never destroys its own inner box (search bar, pages): its destruction
    /// destroys only what its `forall` lists without internal children, the sections, and the box's own
    /// destruction is `#if 0`-ed out in its dispose. The box then outlives the freed window still naming it
    /// as its parent, and the next style change (a stylesheet added, a theme switched) walks from the box's
    /// widgets up into freed memory (a `gtk_widget_get_scale_factor` critical, or a crash). So, when the
    /// window is destroyed, the box is taken out of it — kept alive, as the window's own code still uses
    /// its search bar and stack — and let go only when the window is finalized.
    private func keepInnerBoxFromOutlivingTheWindow() {
        let window = widget
        onDestroy {
            guard let box = gtk_bin_get_child(window.raw.as(GtkBin.self)) else { return }
            g_object_set_data_full(window.raw.as(GObject.self), "gallery-viewer-inner-box", g_object_ref(box), g_object_unref)
            gtk_container_remove(window.raw.as(GtkContainer.self), box)
        }
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

extension ShortcutsWindow {
    public func present() { gtk_window_present(widget.raw.as(GtkWindow.self)) }
}

extension ApplicationWindow {
    /// The window's shortcuts window: adds the `win.show-help-overlay` action that opens it, unless the window
    /// has an action of that name already.
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
