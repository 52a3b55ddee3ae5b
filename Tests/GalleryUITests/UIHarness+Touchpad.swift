import CGLib
import CGtk
import GObjectBindings
@_spi(GtkInterop) import GtkBindings
import TestSupport
import XCTest

/// Touchpad input as GDK delivers it: pinch events (GDK_TOUCHPAD_PINCH) and smooth scrolls from a device whose
/// source is a touchpad, through gtk_main_do_event on a widget's own GdkWindow. Xvfb has no touchpad, so the
/// scrolls' source device is one made here: a GdkX11DeviceXI2 that says it is a touchpad, known to no X server
/// (GTK reads only its source from a scroll).
@MainActor
enum Touchpad {
    private static var pointer: OpaquePointer? {
        gdk_seat_get_pointer(gdk_display_get_default_seat(gdk_display_get_default()))
    }

    /// One pinch event at (`x`, `y`) of `widget`'s window, `scale` being the fingers' spread since they came down.
    static func pinch(_ phase: GdkTouchpadGesturePhase, on widget: Widget, x: Double, y: Double, scale: Double) {
        guard let window = gtk_widget_get_window(widget.widget), let event = gdk_event_new(GDK_TOUCHPAD_PINCH) else {
            return XCTFail("not realized")
        }
        g_object_ref(UnsafeMutableRawPointer(window))
        event.pointee.touchpad_pinch.window = window
        event.pointee.touchpad_pinch.send_event = 1
        event.pointee.touchpad_pinch.phase = Int8(phase.rawValue)
        event.pointee.touchpad_pinch.n_fingers = 2
        event.pointee.touchpad_pinch.x = x
        event.pointee.touchpad_pinch.y = y
        event.pointee.touchpad_pinch.scale = scale
        event.pointee.touchpad_pinch.time = UInt32(truncatingIfNeeded: g_get_monotonic_time() / 1000)
        gdk_event_set_device(event, pointer)
        gdk_event_set_source_device(event, pointer)
        gtk_main_do_event(event)
        gdk_event_free(event)
        drainMainLoop()
    }

    /// One smooth scroll by (`dx`, `dy`) over the middle of `widget`, from a touchpad (or, `fromTouchpad` false,
    /// the mouse); `stop`: the fingers lifted.
    static func scroll(_ widget: Widget, dx: Double, dy: Double = 0, time: UInt32, stop: Bool = false, fromTouchpad: Bool = true) {
        guard let window = gtk_widget_get_window(widget.widget), let event = gdk_event_new(GDK_SCROLL) else {
            return XCTFail("not realized")
        }
        g_object_ref(UnsafeMutableRawPointer(window))
        event.pointee.scroll.window = window
        event.pointee.scroll.send_event = 1
        event.pointee.scroll.direction = GDK_SCROLL_SMOOTH
        event.pointee.scroll.delta_x = dx
        event.pointee.scroll.delta_y = dy
        event.pointee.scroll.is_stop = stop ? 1 : 0
        event.pointee.scroll.x = Double(widget.allocatedWidth) / 2
        event.pointee.scroll.y = Double(widget.allocatedHeight) / 2
        event.pointee.scroll.time = time
        gdk_event_set_device(event, pointer)
        gdk_event_set_source_device(event, fromTouchpad ? touchpad : pointer)
        gtk_main_do_event(event)
        gdk_event_free(event)
        drainMainLoop()
    }

    /// A touchpad device for the scrolls' source, made once.
    private static let touchpad: OpaquePointer? = {
        let type = g_type_from_name("GdkX11DeviceXI2")
        guard type != 0, let display = gdk_display_get_default() else { return nil }
        var values = [GValue](repeating: GValue(), count: 5)
        g_value_init(&values[0], gdk_display_get_type())
        g_value_set_object(&values[0], UnsafeMutableRawPointer(display))
        g_value_init(&values[1], gv_type_string())
        g_value_set_string(&values[1], "Test touchpad")
        g_value_init(&values[2], gdk_device_type_get_type())
        g_value_set_enum(&values[2], Int32(GDK_DEVICE_TYPE_SLAVE.rawValue))
        g_value_init(&values[3], gdk_input_source_get_type())
        g_value_set_enum(&values[3], Int32(GDK_SOURCE_TOUCHPAD.rawValue))
        g_value_init(&values[4], gv_type_int())
        g_value_set_int(&values[4], 4242)
        let names = ["display", "name", "type", "input-source", "device-id"]
        var pointers = names.map { UnsafePointer(strdup($0)) }
        defer { pointers.forEach { free(UnsafeMutableRawPointer(mutating: $0)) } }
        let device = g_object_new_with_properties(type, UInt32(names.count), &pointers, &values)
        for index in values.indices { g_value_unset(&values[index]) }
        return device.map { OpaquePointer($0) }
    }()
}
