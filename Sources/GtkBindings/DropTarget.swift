internal import CGLib
internal import CGtk
import GObjectBindings

/// Drops onto a widget of what browsers drag out of their address bar (a link) and what file managers drag
/// (`text/uri-list`). The widget takes the first kind, in the order of `Kind`, that the source offers.
@MainActor
public final class DropTarget {
    /// The kinds of data taken, in the order they are preferred.
    public enum Kind: UInt32, Sendable, CaseIterable {
        /// Lines of URIs (`#` lines are comments).
        case uriList = 1
        /// Firefox's and Chromium's link: UTF-8 "URL\ntitle".
        case netscapeURL
        /// The same as UTF-16 "URL\ntitle" (Chromium on X11 offers no uri-list for a link).
        case mozURL
        /// Plain text, UTF-8 (GTK's text targets: UTF8_STRING, text/plain;charset=utf-8…).
        case text
    }

    /// What was dropped: its kind, the first `maxBytes` of its bytes, and whether it came from a widget of the
    /// same window.
    public struct Drop: Sendable {
        public let kind: Kind
        public let bytes: [UInt8]
        public let isFromSameWindow: Bool
        public init(kind: Kind, bytes: [UInt8], isFromSameWindow: Bool) {
            self.kind = kind
            self.bytes = bytes
            self.isFromSameWindow = isFromSameWindow
        }
    }

    private let widget: Widget
    private let maxBytes: Int
    private var handler: (@MainActor (Drop) -> Void)?

    /// `maxBytes`: what is read of a drop at most (a drop can carry megabytes of text; a link is short).
    public init(on widget: Widget, maxBytes: Int) {
        self.widget = widget
        self.maxBytes = maxBytes
        let targets = gtk_target_list_new(nil, 0)
        gtk_target_list_add_uri_targets(targets, Kind.uriList.rawValue)
        gtk_target_list_add(targets, gdk_atom_intern("_NETSCAPE_URL", 0), 0, Kind.netscapeURL.rawValue)
        gtk_target_list_add(targets, gdk_atom_intern("text/x-moz-url", 0), 0, Kind.mozURL.rawValue)
        gtk_target_list_add_text_targets(targets, Kind.text.rawValue)
        gtk_drag_dest_set(widget.widget, GTK_DEST_DEFAULT_ALL, nil, 0,
                          GdkDragAction(rawValue: GDK_ACTION_COPY.rawValue | GDK_ACTION_LINK.rawValue))
        gtk_drag_dest_set_target_list(widget.widget, targets)
        gtk_target_list_unref(targets)
        widget.ref.connectDragDataReceived { [weak self] context, selection, info in
            guard let self, let selection else { return }
            self.received(selection, info: info, context: context)
        }
    }

    public func onDrop(_ handler: @escaping @MainActor (Drop) -> Void) { self.handler = handler }

    /// `drag-data-received`: reads at most `maxBytes` of the data, whatever its length says.
    private func received(_ selection: UnsafeMutableRawPointer, info: UInt32, context: UnsafeMutableRawPointer?) {
        guard let kind = Kind(rawValue: info) else { return }
        let data = OpaquePointer(selection)
        let length = Int(gtk_selection_data_get_length(data))
        var bytes: [UInt8] = []
        if length > 0, let start = gtk_selection_data_get_data(data) {
            bytes = Array(UnsafeBufferPointer(start: start, count: min(length, maxBytes)))
        }
        handler?(Drop(kind: kind, bytes: bytes, isFromSameWindow: isFromSameWindow(context)))
    }

    /// The drag started in a widget of this widget's window (GTK knows the source widget of drags of its own
    /// process only).
    private func isFromSameWindow(_ context: UnsafeMutableRawPointer?) -> Bool {
        guard let context, let source = gtk_drag_get_source_widget(OpaquePointer(context)) else { return false }
        return gtk_widget_get_toplevel(source) == gtk_widget_get_toplevel(widget.widget)
    }
}
