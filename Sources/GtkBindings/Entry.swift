internal import CGLib
internal import CGtk
import GObjectBindings

@MainActor
public final class Entry: Widget {
    public init() {
        super.init(gtk_search_entry_new())
    }

    private var entry: UnsafeMutablePointer<GtkEntry> { widget.raw.as(GtkEntry.self) }

    public var text: String {
        get { string(gtk_entry_get_text(entry)) ?? "" }
        set { gtk_entry_set_text(entry, newValue) }
    }

    public var placeholder: String? {
        get { string(gtk_entry_get_placeholder_text(entry)) }
        set { gtk_entry_set_placeholder_text(entry, newValue) }
    }

    public var widthChars: Int {
        get { Int(gtk_entry_get_width_chars(entry)) }
        set { gtk_entry_set_width_chars(entry, Int32(newValue)) }
    }

    /// Enter pressed in the entry.
    public func onActivate(_ handler: @escaping @MainActor () -> Void) {
        ref.connect("activate", handler)
    }

    /// The text changed: typed, pasted, dropped, or set by the app.
    public func onChanged(_ handler: @escaping @MainActor () -> Void) {
        ref.connect("changed", handler)
    }

    /// The text changed and typing paused (GTK's search entry waits 150 ms): the moment to search.
    public func onSearchChanged(_ handler: @escaping @MainActor () -> Void) {
        ref.connect("search-changed", handler)
    }

    /// Emits `activate`, as pressing Enter in the entry does.
    public func activate() { gtk_widget_activate(widget) }

    /// Focuses the entry and selects its text, ready to be typed over (Ctrl+L).
    public func focusAndSelectAll() {
        gtk_widget_grab_focus(widget)
        gtk_editable_select_region(widget.raw.opaque, 0, -1)
    }
}
