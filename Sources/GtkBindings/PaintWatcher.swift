internal import CGLib
internal import CGtk
import GObjectBindings

/// Runs a callback after each frame a widget's window paints, until it returns false: to learn when
/// something was on screen, without asking for frames of its own (a `FrameTicker` does).
@MainActor
public final class PaintWatcher {
    private var afterPaint: SignalConnection?

    public init() {}

    isolated deinit { stop() }

    /// Calls `paint` after each paint of `widget`'s window until it returns false or `stop()` is called.
    /// Returns false (and calls nothing) when the widget has no frame clock yet (not realized).
    @discardableResult
    public func start(on widget: Widget, _ paint: @escaping @MainActor () -> Bool) -> Bool {
        stop()
        guard let frameClock = gtk_widget_get_frame_clock(widget.widget) else { return false }
        let clock = ObjectRef(UnsafeMutableRawPointer(frameClock), transfer: .none)
        afterPaint = clock.connect("after-paint") { [weak self] in
            if !paint() { self?.stop() }
        }
        return true
    }

    public func stop() {
        afterPaint?.disconnect()
        afterPaint = nil
    }
}
