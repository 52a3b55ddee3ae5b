internal import CGLib
internal import CGtk
import GObjectBindings

/// A GtkLayout: children at positions of our choosing, clipped to the layout's own window, and no size
/// request of its own (it takes what its parent gives). Its built-in scrolling is not used: callers move the
/// children instead, so every coordinate stays small.
@MainActor
public final class Layout: Widget {
    public init() {
        super.init(gtk_layout_new(nil, nil))
    }

    private var layout: UnsafeMutablePointer<GtkLayout> { widget.raw.as(GtkLayout.self) }

    public func put(_ child: Widget, x: Int, y: Int) {
        gtk_layout_put(layout, child.widget, Int32(x), Int32(y))
    }

    public func move(_ child: Widget, x: Int, y: Int) {
        gtk_layout_move(layout, child.widget, Int32(x), Int32(y))
    }
}
