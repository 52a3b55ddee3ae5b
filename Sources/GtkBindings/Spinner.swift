import CGtk
import GObjectBindings

@MainActor
public final class Spinner: Widget {
    public init() {
        super.init(gtk_spinner_new())
    }

    private var spinner: UnsafeMutablePointer<GtkSpinner> { widget.raw.as(GtkSpinner.self) }

    /// Whether it turns. An inactive spinner is also hidden, so it takes no attention when nothing loads.
    public var isSpinning: Bool {
        get { ref.bool("active") && isVisible }
        set {
            if newValue {
                gtk_spinner_start(spinner)
                show()
            } else {
                gtk_spinner_stop(spinner)
                hide()
            }
        }
    }
}
