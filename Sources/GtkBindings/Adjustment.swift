internal import CGLib
internal import CGtk
import GObjectBindings

/// A scroll position and range: the vertical adjustment of a scrolled window, or one of our own driving a
/// scrollbar.
@MainActor
public final class Adjustment {
    @_spi(GtkInterop) public let ref: ObjectRef

    /// Wraps an adjustment owned elsewhere (transfer none).
    init(retaining pointer: UnsafeMutablePointer<GtkAdjustment>) {
        ref = ObjectRef(pointer, transfer: .none)
    }

    /// A new adjustment of our own, empty until configured.
    public init() {
        ref = ObjectRef(gtk_adjustment_new(0, 0, 0, 1, 10, 0), transfer: .floating)
    }

    var adjustment: UnsafeMutablePointer<GtkAdjustment> { ref.typed() }

    /// Clamped by GTK to `lower…upper - pageSize`.
    public var value: Double {
        get { gtk_adjustment_get_value(adjustment) }
        set { gtk_adjustment_set_value(adjustment, newValue) }
    }

    public var lower: Double { gtk_adjustment_get_lower(adjustment) }
    public var upper: Double { gtk_adjustment_get_upper(adjustment) }
    public var pageSize: Double { gtk_adjustment_get_page_size(adjustment) }
    public var stepIncrement: Double { gtk_adjustment_get_step_increment(adjustment) }
    public var pageIncrement: Double { gtk_adjustment_get_page_increment(adjustment) }

    /// The highest value: the end of the range in view.
    public var maximumValue: Double { max(lower, upper - pageSize) }

    /// Sets everything at once: one `changed` and at most one `value-changed`, instead of one per property.
    public func configure(value: Double, upper: Double, stepIncrement: Double, pageIncrement: Double, pageSize: Double) {
        gtk_adjustment_configure(adjustment, value, 0, upper, stepIncrement, pageIncrement, pageSize)
    }

    /// The user scrolled, or the value was set.
    public func onValueChanged(_ handler: @escaping @MainActor () -> Void) {
        ref.connect("value-changed", handler)
    }

    /// Bounds or page size changed (content grew, window resized).
    public func onChanged(_ handler: @escaping @MainActor () -> Void) {
        ref.connect("changed", handler)
    }
}
