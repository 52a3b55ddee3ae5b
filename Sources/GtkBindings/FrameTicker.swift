internal import CGLib
internal import CGtk
import GObjectBindings

/// Runs a callback on every frame of a widget's frame clock (the display's refresh), for animations: a
/// glide after a flick, a zoom easing to its target. Nothing runs between frames and nothing once stopped.
@MainActor
public final class FrameTicker {
    private let widget: Widget
    private var clock: ObjectRef?
    private var update: SignalConnection?

    public init(widget: Widget) {
        self.widget = widget
    }

    isolated deinit { stop() }

    public var isRunning: Bool { clock != nil }

    /// The frame clock's time of the frame being prepared (microseconds), nil while the widget is not realized.
    public var frameTime: Int? {
        gtk_widget_get_frame_clock(widget.widget).map { Int(gdk_frame_clock_get_frame_time($0)) }
    }

    /// The number of the frame being prepared, or of the last one outside a frame (it changes only when a
    /// frame starts); nil while the widget is not realized.
    public var frameCounter: Int? {
        gtk_widget_get_frame_clock(widget.widget).map { Int(gdk_frame_clock_get_frame_counter($0)) }
    }

    /// Calls `frame` with each frame's time until it returns false or `stop()` is called. Returns false
    /// (and calls nothing) when the widget has no frame clock yet.
    @discardableResult
    public func start(_ frame: @escaping @MainActor (_ frameTime: Int) -> Bool) -> Bool {
        stop()
        guard let frameClock = gtk_widget_get_frame_clock(widget.widget) else { return false }
        let clock = ObjectRef(UnsafeMutableRawPointer(frameClock), transfer: .none)
        self.clock = clock
        update = clock.connectWithEmitter("update") { [weak self] emitter in
            let time = Int(gdk_frame_clock_get_frame_time(emitter.opaque))
            if !frame(time) { self?.stop() }
        }
        gdk_frame_clock_begin_updating(frameClock)
        return true
    }

    public func stop() {
        guard let clock else { return }
        update?.disconnect()
        update = nil
        gdk_frame_clock_end_updating(clock.opaque)
        self.clock = nil
    }
}
