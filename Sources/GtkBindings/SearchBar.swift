internal import CGLib
internal import CGtk
import GObjectBindings

/// A bar that slides down with its search entry (Ctrl+F), as GNOME apps find within what they show. The
/// entry is connected to it, so Escape in the entry closes the bar.
@MainActor
public final class SearchBar: Widget {
    public init() {
        super.init(gtk_search_bar_new())
    }

    /// What the bar holds (the entry, and what goes beside it). Not a `Bin`'s `setChild`: the bar's own child
    /// is its revealer, which takes what is added.
    public func setContent(_ content: Widget) {
        gtk_container_add(widget.raw.as(GtkContainer.self), content.widget)
    }

    private var bar: UnsafeMutablePointer<GtkSearchBar> { widget.raw.as(GtkSearchBar.self) }

    /// The bar is shown (and its entry ready for typing).
    public var isSearchModeEnabled: Bool {
        get { gtk_search_bar_get_search_mode(bar) != 0 }
        set { gtk_search_bar_set_search_mode(bar, newValue.gboolean) }
    }

    /// The entry the bar opens for and closes on Escape; it must be inside the bar.
    public func connect(entry: Entry) {
        gtk_search_bar_connect_entry(bar, entry.widget.raw.as(GtkEntry.self))
    }

    /// The bar opened or closed, whoever did it (Ctrl+F, Escape, the app).
    public func onSearchModeChanged(_ handler: @escaping @MainActor (Bool) -> Void) {
        _ = ref.connectWithEmitter("notify::search-mode-enabled") { (emitter: SignalEmitter, _: UnsafeMutableRawPointer?) in
            handler(ObjectRef(emitter.pointer, transfer: .none).bool("search-mode-enabled"))
        }
    }
}
