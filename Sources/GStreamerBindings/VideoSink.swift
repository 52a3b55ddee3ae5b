internal import CGStreamer
import GObjectBindings

/// GStreamer's `gtksink`: decoded frames drawn by a GTK widget of its own, made on the main thread. GtkBindings
/// wraps that widget (`VideoView`); nothing here shows a GTK type.
@MainActor
public final class VideoSink {
    let element: ObjectRef

    /// nil when gstreamer1.0-gtk3 is not installed.
    public convenience init?() {
        self.init(factory: "gtksink")
        // The aspect ratio is kept (letterboxed).
        element.set("force-aspect-ratio", true)
    }

    private init?(factory: String) {
        guard GStreamer.initialize(), let element = gst_element_factory_make(factory, nil) else { return nil }
        self.element = ObjectRef(UnsafeMutableRawPointer(element), transfer: .floating)
    }

    /// A sink that takes every frame in time and shows none (`fakesink`, synchronised to the clock): what
    /// plays without a display (tests of the core, `make bench`'s bare pipeline).
    public static func discarding() -> VideoSink? {
        guard let sink = VideoSink(factory: "fakesink") else { return nil }
        sink.element.set("sync", true)
        return sink
    }

    /// The sink's GtkWidget (transfer none; the sink makes it on first use, on this thread).
    @_spi(GtkInterop) public var widgetPointer: UnsafeMutableRawPointer? {
        guard g_object_class_find_property(
            UnsafeMutableRawPointer(element.object.pointee.g_type_instance.g_class).assumingMemoryBound(to: GObjectClass.self),
            "widget") != nil else { return nil }
        var value = GValue()
        g_value_init(&value, gv_type_object())
        g_object_get_property(element.object, "widget", &value)
        defer { g_value_unset(&value) }
        return g_value_get_object(&value)
    }
}
