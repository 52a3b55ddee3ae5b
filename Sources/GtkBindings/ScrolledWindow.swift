internal import CGLib
internal import CGtk
import GObjectBindings

@MainActor
public final class ScrolledWindow: Bin {
    public init() {
        super.init(gtk_scrolled_window_new(nil, nil))
        gtk_scrolled_window_set_policy(scrolled, GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
    }

    private var scrolled: UnsafeMutablePointer<GtkScrolledWindow> { widget.raw.as(GtkScrolledWindow.self) }

    /// Grows with its content up to `maxContentHeight` before it scrolls (a popover's list).
    public func growWithContent(upTo maxHeight: Int) {
        gtk_scrolled_window_set_propagate_natural_height(scrolled, 1)
        gtk_scrolled_window_set_max_content_height(scrolled, Int32(maxHeight))
    }

    public var verticalAdjustment: Adjustment {
        Adjustment(retaining: gtk_scrolled_window_get_vadjustment(scrolled))
    }
}
