internal import CGLib
internal import CGtk
import GObjectBindings

/// A drag out of a widget to other applications (Files, a mail, a chat): a file as `text/uri-list` and text,
/// with a picture under the pointer. GTK asks for the data only when the drop happens and wants it at once,
/// so whatever takes time must have been started when the drag began (`onBegin`).
@MainActor
public final class DragSource {
    /// What a drop receives: a file (offered as its `file://` URI) for those that take files, text for the others.
    public struct Content: Equatable, Sendable {
        public var filePath: String?
        public var text: String?
        public init(filePath: String? = nil, text: String? = nil) {
            self.filePath = filePath
            self.text = text
        }
    }

    static let uriInfo: UInt32 = 1
    static let textInfo: UInt32 = 2
    /// The drag picture's longer side at most: a thumbnail the size of a tile would hide where it goes.
    static let iconSize = 128

    private let widget: Widget
    private let targets: OpaquePointer
    private var provide: (@MainActor () -> Content)?
    /// The drag under way from this widget (transfer none: GTK holds it while the drag lasts).
    private var context: UnsafeMutableRawPointer?

    public init(on widget: Widget) {
        self.widget = widget
        targets = gtk_target_list_new(nil, 0)
        gtk_target_list_add_uri_targets(targets, Self.uriInfo)
        gtk_target_list_add_text_targets(targets, Self.textInfo)
        widget.ref.connect("drag-end") { [weak self] (_: UnsafeMutableRawPointer?) in self?.context = nil }
        widget.ref.connectDragDataGet { [weak self] _, selection, info in
            guard let self, let selection else { return }
            self.fill(selection, info: info)
        }
    }

    isolated deinit {
        gtk_target_list_unref(targets)
    }

    /// GTK starts a drag by itself on a press and move of the primary button (a list's rows).
    public func startsOnPrimaryDrag() {
        gtk_drag_source_set(widget.widget, GDK_BUTTON1_MASK, nil, 0, GDK_ACTION_COPY)
        gtk_drag_source_set_target_list(widget.widget, targets)
    }

    /// A drag began; `handler` says what it carries from now on (it may change as a file arrives) and gives the
    /// drag's picture, or nil for GTK's default one.
    public func onBegin(_ handler: @escaping @MainActor () -> (content: @MainActor () -> Content, icon: Pixbuf?)) {
        widget.ref.connect("drag-begin") { [weak self] (context: UnsafeMutableRawPointer?) in
            guard let self, let context else { return }
            self.context = context
            let (content, icon) = handler()
            self.provide = content
            if let icon { Self.setIcon(icon, on: context) }
        }
    }

    /// Starts a drag from where `gesture` began (`x`, `y`), for a widget whose drag gesture does something else
    /// too (pans a zoomed picture): gThumb's image dragger does the same. False when GTK would not start one.
    @discardableResult
    public func begin(from gesture: DragGesture, x: Double, y: Double) -> Bool {
        let event = UnsafeMutablePointer(mutating: gesture.lastEvent)
        return gtk_drag_begin_with_coordinates(widget.widget, targets, GDK_ACTION_COPY, Int32(GDK_BUTTON_PRIMARY),
                                               event, Int32(x), Int32(y)) != nil
    }

    /// A drag from this widget is under way.
    public var isDragging: Bool { context != nil }

    /// The GdkDragContext of the drag under way, for tests that deliver its drop themselves.
    @_spi(GtkInterop) public var dragContext: UnsafeMutableRawPointer? { context }

    /// Ends the drag under way without a drop (also for tests, which have no user to let go).
    public func cancel() {
        guard let context else { return }
        gtk_drag_cancel(OpaquePointer(context))
    }

    /// `drag-data-get`: the file for a file target, the text for a text target. A target left empty means the
    /// drop gets nothing of that kind.
    private func fill(_ selection: UnsafeMutableRawPointer, info: UInt32) {
        guard let content = provide?() else { return }
        let data = OpaquePointer(selection)
        switch info {
        case Self.uriInfo:
            guard let path = content.filePath, let uri = takeString(g_filename_to_uri(path, nil, nil)) else { return }
            uri.withCString { uri in
                var uris: [UnsafeMutablePointer<gchar>?] = [UnsafeMutablePointer(mutating: uri), nil]
                _ = gtk_selection_data_set_uris(data, &uris)
            }
        case Self.textInfo:
            guard let text = content.text else { return }
            _ = gtk_selection_data_set_text(data, text, -1)
        default: return
        }
    }

    private static func setIcon(_ pixbuf: Pixbuf, on context: UnsafeMutableRawPointer) {
        let longer = max(pixbuf.width, pixbuf.height)
        let scale = min(1, Double(iconSize) / Double(max(1, longer)))
        let width = max(1, Int32((Double(pixbuf.width) * scale).rounded()))
        let height = max(1, Int32((Double(pixbuf.height) * scale).rounded()))
        // The pointer holds the picture by its middle, as Files does (GTK keeps its own reference).
        guard scale < 1 else {
            return gtk_drag_set_icon_pixbuf(OpaquePointer(context), pixbuf.pointer, width / 2, height / 2)
        }
        guard let icon = gdk_pixbuf_scale_simple(pixbuf.pointer, width, height, GDK_INTERP_BILINEAR) else { return }
        gtk_drag_set_icon_pixbuf(OpaquePointer(context), icon, width / 2, height / 2)
        g_object_unref(icon.raw)
    }

    /// The drag threshold of the desktop's settings: moving less is a click, not a drag.
    public static func passesThreshold(on widget: Widget, dx: Double, dy: Double) -> Bool {
        gtk_drag_check_threshold(widget.widget, 0, 0, Int32(dx), Int32(dy)) != 0
    }
}
