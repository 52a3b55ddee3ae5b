internal import CGLib
internal import CGtk
import GObjectBindings

/// A mouse button press, as a handler sees it: which button, single or double, where (widget coordinates).
/// A menu opened from the handler opens at it (`PopupMenu.popUpAtPointer(for:)`).
public struct ButtonPress {
    public let button: UInt32
    public let isDoubleClick: Bool
    public let x: Double
    public let y: Double
    /// On the screen: for widgets other than the one whose window got the event.
    public let rootX: Double
    public let rootY: Double
    /// The press that opens a context menu (right button, as the desktop configures it).
    public let triggersContextMenu: Bool
    /// Ctrl, Shift, Alt held with the click (Ctrl+click and Shift+click select several items).
    public let modifiers: KeyModifiers
    /// The GdkEvent, valid during the handler only: GTK places a menu from it, and grabs the pointer for it.
    let event: UnsafeMutableRawPointer

    /// The primary button: the left one, or the right one on a mouse set up for the left hand.
    public var isPrimaryButton: Bool { button == UInt32(GDK_BUTTON_PRIMARY) }
}

/// A scroll over a widget: smooth deltas (a wheel click is ±1) and whether Ctrl was held.
public struct ScrollInput {
    public let dx: Double
    public let dy: Double
    public let x: Double
    public let y: Double
    public let withControl: Bool
    /// Two fingers on a touchpad (libinput turns their motion into smooth scrolling), not a wheel.
    public var isFromTouchpad = false
    /// The fingers lifted: the last event of a touchpad scroll, without a delta.
    public var isStop = false
    /// The event's time in milliseconds (the X server's clock): how far apart two scrolls were.
    public var time: UInt32 = 0
}

extension Widget {
    /// Calls `handler` on button presses (also the second press of a double-click); true stops other handlers.
    public func onButtonPress(_ handler: @escaping @MainActor (ButtonPress) -> Bool) {
        addEvents(GDK_BUTTON_PRESS_MASK)
        ref.connectEvent("button-press-event") { event in
            guard let event else { return false }
            let button = event.as(GdkEventButton.self).pointee
            return handler(ButtonPress(button: button.button, isDoubleClick: button.type == GDK_2BUTTON_PRESS,
                                       x: button.x, y: button.y, rootX: button.x_root, rootY: button.y_root,
                                       triggersContextMenu: gdk_event_triggers_context_menu(event.as(GdkEvent.self)) != 0,
                                       modifiers: KeyModifiers(state: button.state),
                                       event: event))
        }
    }

    /// Calls `handler` for every wheel click or touchpad scroll; true when handled.
    public func onScrollInput(_ handler: @escaping @MainActor (ScrollInput) -> Bool) {
        addEvents(GdkEventMask(rawValue: GDK_SCROLL_MASK.rawValue | GDK_SMOOTH_SCROLL_MASK.rawValue))
        ref.connectEvent("scroll-event") { event in
            guard let scroll = event?.as(GdkEventScroll.self).pointee else { return false }
            var dx = 0.0
            var dy = 0.0
            switch scroll.direction {
            case GDK_SCROLL_UP: dy = -1
            case GDK_SCROLL_DOWN: dy = 1
            case GDK_SCROLL_LEFT: dx = -1
            case GDK_SCROLL_RIGHT: dx = 1
            default: (dx, dy) = (scroll.delta_x, scroll.delta_y)
            }
            let source = gdk_event_get_source_device(event?.as(GdkEvent.self))
            return handler(ScrollInput(dx: dx, dy: dy, x: scroll.x, y: scroll.y,
                                       withControl: scroll.state & GDK_CONTROL_MASK.rawValue != 0,
                                       isFromTouchpad: source.map { gdk_device_get_source($0) == GDK_SOURCE_TOUCHPAD } ?? false,
                                       isStop: scroll.is_stop != 0, time: scroll.time))
        }
    }

    /// Follows the pointer over the widget: its position, or nil when it left.
    public func onPointerMoved(_ handler: @escaping @MainActor ((x: Double, y: Double)?) -> Void) {
        addEvents(GdkEventMask(rawValue: GDK_POINTER_MOTION_MASK.rawValue | GDK_LEAVE_NOTIFY_MASK.rawValue
                                | GDK_ENTER_NOTIFY_MASK.rawValue))
        ref.connectEvent("motion-notify-event") { event in
            guard let motion = event?.as(GdkEventMotion.self).pointee else { return false }
            handler((motion.x, motion.y))
            return false
        }
        ref.connectEvent("enter-notify-event") { event in
            guard let crossing = event?.as(GdkEventCrossing.self).pointee else { return false }
            handler((crossing.x, crossing.y))
            return false
        }
        ref.connectEvent("leave-notify-event") { event in
            // A grab (a drag, a menu) also sends leave events with the pointer still over the widget.
            guard let crossing = event?.as(GdkEventCrossing.self).pointee, crossing.mode == GDK_CROSSING_NORMAL else {
                return false
            }
            handler(nil)
            return false
        }
    }

    /// A point on the screen in the widget's coordinates (for a widget with a window of its own).
    public func point(fromRootX x: Double, y: Double) -> (x: Double, y: Double)? {
        guard let window = gtk_widget_get_window(widget) else { return nil }
        var originX: Int32 = 0
        var originY: Int32 = 0
        gdk_window_get_origin(window, &originX, &originY)
        return (x - Double(originX), y - Double(originY))
    }

    /// The pointer's shape over the widget ("grab", "grabbing", "zoom-in"; nil: the parent's).
    public func setCursor(_ name: String?) {
        guard let window = gtk_widget_get_window(widget) else { return }
        let cursor = name.flatMap { gdk_cursor_new_from_name(gdk_window_get_display(window), $0) }
        gdk_window_set_cursor(window, cursor)
        if let cursor { g_object_unref(UnsafeMutableRawPointer(cursor)) }
    }
}

/// A drag with the primary button (GtkGestureDrag): where it started, then how far it went.
@MainActor
public final class DragGesture {
    private let ref: ObjectRef

    /// In GTK 3 the widget does not own its gestures: this object keeps it alive.
    public init(on widget: Widget) {
        widget.addEvents(GdkEventMask(rawValue: GDK_BUTTON_PRESS_MASK.rawValue | GDK_BUTTON_RELEASE_MASK.rawValue
                                      | GDK_BUTTON1_MOTION_MASK.rawValue))
        ref = ObjectRef(gtk_gesture_drag_new(widget.widget).raw, transfer: .full)
        gtk_gesture_single_set_button(ref.opaque, guint(GDK_BUTTON_PRIMARY))
    }

    public func onBegin(_ handler: @escaping @MainActor (_ x: Double, _ y: Double) -> Void) {
        ref.connect("drag-begin") { (x: Double, y: Double) in handler(x, y) }
    }

    /// The offset from where the drag began.
    public func onUpdate(_ handler: @escaping @MainActor (_ dx: Double, _ dy: Double) -> Void) {
        ref.connect("drag-update") { (dx: Double, dy: Double) in handler(dx, dy) }
    }

    public func onEnd(_ handler: @escaping @MainActor (_ dx: Double, _ dy: Double) -> Void) {
        ref.connect("drag-end") { (dx: Double, dy: Double) in handler(dx, dy) }
    }

    /// The event that moved the drag last (transfer none, valid while the gesture handles it): a drag and drop
    /// started from the gesture takes its device and time from it.
    var lastEvent: UnsafePointer<GdkEvent>? {
        gtk_gesture_get_last_event(ref.opaque, gtk_gesture_get_last_updated_sequence(ref.opaque))
    }
}
