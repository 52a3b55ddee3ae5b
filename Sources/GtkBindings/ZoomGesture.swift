internal import CGLib
internal import CGtk
import GObjectBindings

/// A two-finger pinch (GtkGestureZoom): on a touchscreen, and on a touchpad, whose pinch GDK delivers as
/// GDK_TOUCHPAD_PINCH events once the widget asks for them. Runs in the capture phase, as in Eye of GNOME, so
/// that the widget's other gestures (a one-finger drag) see the pinch only after it has claimed the fingers.
@MainActor
public final class ZoomGesture {
    private let ref: ObjectRef

    /// In GTK 3 the widget does not own its gestures: this object keeps it alive.
    public init(on widget: Widget) {
        widget.addEvents(GdkEventMask(rawValue: GDK_TOUCHPAD_GESTURE_MASK.rawValue | GDK_TOUCH_MASK.rawValue))
        ref = ObjectRef(gtk_gesture_zoom_new(widget.widget).raw, transfer: .full)
        gtk_event_controller_set_propagation_phase(ref.opaque, GTK_PHASE_CAPTURE)
    }

    /// The fingers came down: the centre between them (widget coordinates). The gesture claims them, as Eye of
    /// GNOME's does, so that a one-finger gesture of the widget (a drag that pans) lets go of them.
    public func onBegin(_ handler: @escaping @MainActor (_ x: Double, _ y: Double) -> Void) {
        ref.connectWithEmitter("begin") { (emitter: SignalEmitter, _: UnsafeMutableRawPointer?) in
            gtk_gesture_set_state(emitter.opaque, GTK_EVENT_SEQUENCE_CLAIMED)
            let centre = Self.centre(of: emitter)
            handler(centre.x, centre.y)
        }
    }

    /// The fingers moved: the distance between them relative to when they came down (2 = twice as far apart),
    /// and their centre now.
    public func onUpdate(_ handler: @escaping @MainActor (_ scale: Double, _ x: Double, _ y: Double) -> Void) {
        ref.connectWithEmitter("update") { (emitter: SignalEmitter, _: UnsafeMutableRawPointer?) in
            let centre = Self.centre(of: emitter)
            handler(gtk_gesture_zoom_get_scale_delta(emitter.opaque), centre.x, centre.y)
        }
    }

    /// The fingers lifted, or the gesture was cancelled (another took the fingers).
    public func onEnd(_ handler: @escaping @MainActor () -> Void) {
        ref.connect("end") { (_: UnsafeMutableRawPointer?) in handler() }
        ref.connect("cancel") { (_: UnsafeMutableRawPointer?) in handler() }
    }

    private static func centre(of emitter: SignalEmitter) -> (x: Double, y: Double) {
        var x = 0.0
        var y = 0.0
        gtk_gesture_get_bounding_box_center(emitter.opaque, &x, &y)
        return (x, y)
    }
}
