import CGtk
import GObjectBindings

/// A widget drawn by Swift code with cairo.
@MainActor
public final class DrawingArea: Widget {
    public init() {
        super.init(gtk_drawing_area_new())
    }

    /// `draw` receives the cairo context (already clipped to the widget); return true when done.
    public func onDraw(_ draw: @escaping @MainActor (OpaquePointer) -> Bool) {
        ref.connectEvent("draw") { cairo in
            guard let cairo else { return false }
            return draw(cairo.opaque)
        }
    }
}
