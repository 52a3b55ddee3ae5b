internal import CGLib
internal import CGtk
import GObjectBindings

/// A horizontal slider over a range (a video's seek bar, its volume).
@MainActor
public final class Scale: Widget {
    public let adjustment: Adjustment

    public init(upper: Double, step: Double) {
        adjustment = Adjustment()
        adjustment.configure(value: 0, upper: upper, stepIncrement: step, pageIncrement: step * 10, pageSize: 0)
        super.init(gtk_scale_new(GTK_ORIENTATION_HORIZONTAL, adjustment.adjustment))
        gtk_scale_set_draw_value(widget.raw.as(GtkScale.self), 0)
    }

    public var value: Double {
        get { adjustment.value }
        set { adjustment.value = newValue }
    }

    /// Sets a new range, keeping the value within it.
    public func setRange(upper: Double) {
        guard upper != adjustment.upper else { return }
        gtk_range_set_range(widget.raw.as(GtkRange.self), 0, max(upper, 0.001))
    }
}
