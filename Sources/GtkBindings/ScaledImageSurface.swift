import CGtk
import GObjectBindings

/// A pixbuf scaled once into a cairo image surface of a fixed size, then painted 1:1 as often as needed —
/// cheaper per frame than letting cairo filter the pixbuf on every paint. On HiDPI screens the surface holds
/// device pixels and paints at logical size.
@MainActor
public final class ScaledImageSurface {
    public let pixelWidth: Int
    public let pixelHeight: Int
    private let surface: OpaquePointer

    /// Scales `pixbuf` to `pixelWidth` × `pixelHeight` device pixels (bilinear filtering).
    public init(_ pixbuf: Pixbuf, pixelWidth: Int, pixelHeight: Int, deviceScale: Int) {
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(pixelWidth), Int32(pixelHeight))!
        let context = cairo_create(surface)!
        cairo_scale(context, Double(pixelWidth) / Double(pixbuf.width), Double(pixelHeight) / Double(pixbuf.height))
        gdk_cairo_set_source_pixbuf(context, pixbuf.pointer, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(context), CAIRO_FILTER_BILINEAR)
        cairo_paint(context)
        cairo_destroy(context)
        cairo_surface_set_device_scale(surface, Double(deviceScale), Double(deviceScale))
    }

    isolated deinit { cairo_surface_destroy(surface) }

    /// Paints the surface with its top-left corner at `x`, `y` (logical pixels, rounded to whole pixels so
    /// the copy stays 1:1) on the cairo context of a `draw` handler.
    public func paint(on cairo: OpaquePointer, x: Double, y: Double) {
        cairo_set_source_surface(cairo, surface, x.rounded(), y.rounded())
        cairo_paint(cairo)
    }
}
