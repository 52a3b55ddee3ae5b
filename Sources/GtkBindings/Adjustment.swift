import CGtk
import GObjectBindings

/// A scroll position and range (the vertical adjustment of a scrolled window).
@MainActor
public final class Adjustment {
    public let ref: ObjectRef

    /// Wraps an adjustment owned elsewhere (transfer none).
    public init(retaining pointer: UnsafeMutablePointer<GtkAdjustment>) {
        ref = ObjectRef(pointer, transfer: .none)
    }

    private var adjustment: UnsafeMutablePointer<GtkAdjustment> { ref.typed() }

    public var value: Double {
        get { gtk_adjustment_get_value(adjustment) }
        set { gtk_adjustment_set_value(adjustment, newValue) }
    }

    public var lower: Double { gtk_adjustment_get_lower(adjustment) }
    public var upper: Double { gtk_adjustment_get_upper(adjustment) }
    public var pageSize: Double { gtk_adjustment_get_page_size(adjustment) }

    /// The user scrolled, or the value was set.
    public func onValueChanged(_ handler: @escaping @MainActor () -> Void) {
        ref.connect("value-changed", handler)
    }

    /// Bounds or page size changed (content grew, window resized).
    public func onChanged(_ handler: @escaping @MainActor () -> Void) {
        ref.connect("changed", handler)
    }
}
