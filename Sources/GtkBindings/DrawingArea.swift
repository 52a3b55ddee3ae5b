internal import CGLib
internal import CGtk
import GObjectBindings

/// A widget drawn by Swift code with cairo.
@MainActor
public final class DrawingArea: Widget {
    public init() {
        super.init(gtk_drawing_area_new())
    }

    /// `draw` receives the context to paint with (already clipped to the widget); return true when done.
    public func onDraw(_ draw: @escaping @MainActor (DrawingContext) -> Bool) {
        ref.connectEvent("draw") { cairo in
            guard let cairo else { return false }
            return draw(DrawingContext(cairo: cairo.opaque))
        }
    }

    /// Paints the CSS background (a drawing area does not do it by itself).
    public func renderBackground(_ context: DrawingContext) {
        gtk_render_background(gtk_widget_get_style_context(widget), context.cairo, 0, 0,
                              Double(allocatedWidth), Double(allocatedHeight))
    }
}
