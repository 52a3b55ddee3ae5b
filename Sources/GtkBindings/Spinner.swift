internal import CGLib
internal import CGtk
import GObjectBindings

/// A GtkSpinner that turns only while it is on screen. GTK keeps a started spinner's CSS animation running
/// when it is merely unmapped (its stack page hidden, its row recycled): the window then restyles itself on
/// every frame, 60 times a second, for a spinner nobody sees. So the animation follows map and unmap.
@MainActor
public final class Spinner: Widget {
    private var wantsToSpin = false

    public init() {
        super.init(gtk_spinner_new())
        onMap { [weak self] in self?.animate() }
        onUnmap { [weak self] in self?.animate() }
    }

    private var spinner: UnsafeMutablePointer<GtkSpinner> { widget.raw.as(GtkSpinner.self) }

    /// Whether it turns (when on screen). An inactive spinner is also hidden, so it takes no attention when
    /// nothing loads.
    public var isSpinning: Bool {
        get { wantsToSpin && isVisible }
        set {
            wantsToSpin = newValue
            if newValue { show() } else { hide() }
            animate()
        }
    }

    /// The GTK animation runs while the spinner is wanted and mapped.
    public var isAnimating: Bool { ref.bool("active") }

    private func animate() {
        if wantsToSpin && isMapped { gtk_spinner_start(spinner) } else { gtk_spinner_stop(spinner) }
    }
}
