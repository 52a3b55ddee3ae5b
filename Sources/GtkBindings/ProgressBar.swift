internal import CGLib
internal import CGtk
import GObjectBindings

/// A progress bar: a fraction when the total is known, a pulse when it is not.
@MainActor
public final class ProgressBar: Widget {
    public init() {
        super.init(gtk_progress_bar_new())
    }

    private var bar: UnsafeMutablePointer<GtkProgressBar> { widget.raw.as(GtkProgressBar.self) }

    /// 0…1.
    public var fraction: Double {
        get { gtk_progress_bar_get_fraction(bar) }
        set { gtk_progress_bar_set_fraction(bar, newValue) }
    }

    /// Moves the bouncing block a step: progress of unknown size.
    public func pulse() { gtk_progress_bar_pulse(bar) }
}
