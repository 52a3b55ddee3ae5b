internal import CGStreamer
import GObjectBindings

/// GStreamer's `gtksink`: decoded frames drawn by a GTK widget of its own, made on the main thread. GtkBindings
/// wraps that widget (`VideoView`); nothing here shows a GTK type.
@MainActor
public final class VideoSink {
    let element: ObjectRef

    /// nil when gstreamer1.0-gtk3 is not installed.
    public init?() {
        guard GStreamer.initialize(), let element = gst_element_factory_make("gtksink", nil) else { return nil }
        self.element = ObjectRef(UnsafeMutableRawPointer(element), transfer: .floating)
        // The last frame stays shown while paused and after the end; the aspect ratio is kept (letterboxed).
        self.element.set("force-aspect-ratio", true)
    }

    /// The sink's GtkWidget (transfer none; the sink makes it on first use, on this thread).
    @_spi(GtkInterop) public var widgetPointer: UnsafeMutableRawPointer? {
        var value = GValue()
        g_value_init(&value, gv_type_object())
        g_object_get_property(element.object, "widget", &value)
        defer { g_value_unset(&value) }
        return g_value_get_object(&value)
    }
}
