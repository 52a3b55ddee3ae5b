import CGLib
import CGtk
import GObjectBindings
import GtkBindings
import TestSupport
import XCTest
@testable import GalleryUI

/// Mouse input as the X server would deliver it: events on a widget's own GdkWindow, through
/// gtk_main_do_event, so the widget's handlers and gestures (drag, double-click) see what a user's mouse does.
extension UIHarness {
    /// Clicks (or double-clicks) `button` at `x`, `y` in `widget`'s window, with the modifiers in `state`
    /// (GDK_CONTROL_MASK for a Ctrl+click) held.
    func click(_ widget: Widget, x: Double, y: Double, button: UInt32 = 1, double: Bool = false, state: UInt32 = 0) {
        send(GDK_BUTTON_PRESS, to: widget, x: x, y: y, button: button, state: state)
        send(GDK_BUTTON_RELEASE, to: widget, x: x, y: y, button: button, state: state)
        if double {
            send(GDK_BUTTON_PRESS, to: widget, x: x, y: y, button: button)
            send(GDK_2BUTTON_PRESS, to: widget, x: x, y: y, button: button)
            send(GDK_BUTTON_RELEASE, to: widget, x: x, y: y, button: button)
        }
        drainMainLoop()
    }

    /// Presses the primary button at `from`, moves in `steps` to `to`, releases.
    func drag(_ widget: Widget, from: (x: Double, y: Double), to: (x: Double, y: Double), steps: Int = 8) {
        send(GDK_BUTTON_PRESS, to: widget, x: from.x, y: from.y, button: 1)
        for step in 1...steps {
            let t = Double(step) / Double(steps)
            send(GDK_MOTION_NOTIFY, to: widget, x: from.x + (to.x - from.x) * t, y: from.y + (to.y - from.y) * t,
                 button: 0, state: GDK_BUTTON1_MASK.rawValue)
            drainMainLoop()
        }
        send(GDK_BUTTON_RELEASE, to: widget, x: to.x, y: to.y, button: 1, state: GDK_BUTTON1_MASK.rawValue)
        drainMainLoop()
    }

    /// One wheel click up (`up`) or down at `x`, `y`, with Ctrl held when `control`.
    func wheel(_ widget: Widget, x: Double, y: Double, up: Bool, control: Bool) {
        guard let window = gtk_widget_get_window(widget.widget) else { return XCTFail("not realized") }
        sendScroll(to: window, x: x, y: y, up: up, control: control)
    }

    /// A mouse-wheel click down (or up) over the list (on its scrolled bin window, where the rows are).
    func wheel(down: Bool = true) {
        guard let binWindow = gtk_layout_get_bin_window(list.viewport.widget.raw.as(GtkLayout.self)) else {
            return XCTFail("the list is not realized")
        }
        sendScroll(to: binWindow, x: 200, y: 200, up: !down, control: false)
    }

    private func sendScroll(to window: OpaquePointer, x: Double, y: Double, up: Bool, control: Bool) {
        guard let event = gdk_event_new(GDK_SCROLL) else { return XCTFail("no scroll event") }
        event.pointee.scroll.window = window
        g_object_ref(UnsafeMutableRawPointer(window))
        event.pointee.scroll.send_event = 1
        event.pointee.scroll.direction = up ? GDK_SCROLL_UP : GDK_SCROLL_DOWN
        event.pointee.scroll.x = x
        event.pointee.scroll.y = y
        event.pointee.scroll.state = control ? GDK_CONTROL_MASK.rawValue : 0
        event.pointee.scroll.time = UInt32(truncatingIfNeeded: g_get_monotonic_time() / 1000)
        gdk_event_set_device(event, pointer)
        gtk_main_do_event(event)
        gdk_event_free(event)
        drainMainLoop()
    }

    private var pointer: OpaquePointer? {
        gdk_seat_get_pointer(gdk_display_get_default_seat(gdk_display_get_default()))
    }

    fileprivate func send(_ type: GdkEventType, to widget: Widget, x: Double, y: Double, button: UInt32, state: UInt32 = 0) {
        guard let window = gtk_widget_get_window(widget.widget) else { return XCTFail("not realized") }
        var originX: Int32 = 0
        var originY: Int32 = 0
        gdk_window_get_origin(window, &originX, &originY)
        guard let event = gdk_event_new(type) else { return XCTFail("no pointer event") }
        let time = UInt32(truncatingIfNeeded: g_get_monotonic_time() / 1000)
        g_object_ref(UnsafeMutableRawPointer(window))
        if type == GDK_MOTION_NOTIFY {
            event.pointee.motion.window = window
            event.pointee.motion.send_event = 1
            event.pointee.motion.x = x
            event.pointee.motion.y = y
            event.pointee.motion.x_root = Double(originX) + x
            event.pointee.motion.y_root = Double(originY) + y
            event.pointee.motion.state = state
            event.pointee.motion.time = time
        } else {
            event.pointee.button.window = window
            event.pointee.button.send_event = 1
            event.pointee.button.x = x
            event.pointee.button.y = y
            event.pointee.button.x_root = Double(originX) + x
            event.pointee.button.y_root = Double(originY) + y
            event.pointee.button.button = button
            event.pointee.button.state = state
            event.pointee.button.time = time
        }
        gdk_event_set_device(event, pointer)
        gdk_event_set_source_device(event, pointer)
        gtk_main_do_event(event)
        gdk_event_free(event)
    }
}

/// A drag that has not been let go: a drag and drop it starts stays under way until the test ends it.
extension UIHarness {
    /// Presses the primary button at `from` and moves in `steps` to `to`, without releasing.
    func pressAndMove(_ widget: Widget, from: (x: Double, y: Double), to: (x: Double, y: Double), steps: Int = 8) {
        send(GDK_BUTTON_PRESS, to: widget, x: from.x, y: from.y, button: 1)
        for step in 1...steps {
            let t = Double(step) / Double(steps)
            send(GDK_MOTION_NOTIFY, to: widget, x: from.x + (to.x - from.x) * t, y: from.y + (to.y - from.y) * t,
                 button: 0, state: GDK_BUTTON1_MASK.rawValue)
            drainMainLoop()
        }
    }

    func release(_ widget: Widget, at point: (x: Double, y: Double)) {
        send(GDK_BUTTON_RELEASE, to: widget, x: point.x, y: point.y, button: 1, state: GDK_BUTTON1_MASK.rawValue)
        drainMainLoop()
    }
}
