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

    public var verticalAdjustment: Adjustment {
        Adjustment(retaining: gtk_scrolled_window_get_vadjustment(scrolled))
    }
}
