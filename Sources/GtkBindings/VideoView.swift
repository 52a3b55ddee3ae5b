internal import CGLib
internal import CGtk
import GObjectBindings
@_spi(GtkInterop) import GStreamerBindings

/// The widget a `VideoSink` draws its frames on (gtksink's own), placed like any other widget.
@MainActor
public final class VideoView: Widget {
    /// nil when the sink has no widget (it could not make one).
    public init?(sink: VideoSink) {
        guard let pointer = sink.widgetPointer else { return nil }
        // Transfer none: the sink holds the widget; this wrapper takes a reference of its own.
        super.init(pointer.assumingMemoryBound(to: GtkWidget.self))
    }
}
