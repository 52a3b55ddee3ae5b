internal import CGLib
internal import CGtk
import GObjectBindings

/// A scrollbar on an adjustment: dragging it, clicking its trough and scrolling over it change the value.
@MainActor
public final class Scrollbar: Widget {
    public let adjustment: Adjustment

    public init(_ orientation: Orientation, adjustment: Adjustment) {
        self.adjustment = adjustment
        super.init(gtk_scrollbar_new(orientation.gtk, adjustment.adjustment))
    }
}
