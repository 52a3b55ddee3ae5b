import CGtk
import GObjectBindings

/// The large view's image at exactly the size it is painted. Scaling a monitor-sized pixbuf on every frame
/// (converting it to a cairo surface, then filtering) cost 17–21 ms of the main loop per paint; instead the
/// image is scaled once per image and size into a surface of that size, and each frame copies it 1:1.
/// Measured alternatives (`make bench`, mainloop and memory): scaling on a worker thread with
/// GDK_INTERP_HYPER gave a worse p99 main-loop gap (28–32 ms against 16–17 ms: two cores shared with the
/// decoders) and left the worker threads' malloc arenas ~25 MiB larger; gdk_pixbuf_scale_simple instead of
/// cairo was no faster. The price here is one longer frame when an image first appears.
@MainActor
final class FittedImage {
    private var source: Pixbuf?
    private var surface: OpaquePointer?
    private var surfaceSize: (width: Int, height: Int) = (0, 0)

    isolated deinit { dropSurface() }

    /// Paints `pixbuf` into the rectangle (logical pixels) at `x`, `y`, `width` × `height`.
    func paint(_ pixbuf: Pixbuf, in cairo: OpaquePointer, x: Double, y: Double, width: Double, height: Double,
               deviceScale: Int) {
        let size = (width: Int((width * Double(deviceScale)).rounded()),
                    height: Int((height * Double(deviceScale)).rounded()))
        guard size.width > 0, size.height > 0 else { return }
        if pixbuf !== source || surfaceSize != size {
            render(pixbuf, size: size, deviceScale: deviceScale)
        }
        guard let surface else { return }
        cairo_set_source_surface(cairo, surface, x.rounded(), y.rounded())
        cairo_paint(cairo)
    }

    private func render(_ pixbuf: Pixbuf, size: (width: Int, height: Int), deviceScale: Int) {
        dropSurface()
        let target = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(size.width), Int32(size.height))!
        let context = cairo_create(target)!
        cairo_scale(context, Double(size.width) / Double(pixbuf.width), Double(size.height) / Double(pixbuf.height))
        gdk_cairo_set_source_pixbuf(context, pixbuf.pointer, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(context), CAIRO_FILTER_BILINEAR)
        cairo_paint(context)
        cairo_destroy(context)
        // Device scale: the surface holds device pixels and paints at logical size on HiDPI screens.
        cairo_surface_set_device_scale(target, Double(deviceScale), Double(deviceScale))
        source = pixbuf
        surface = target
        surfaceSize = size
    }

    private func dropSurface() {
        if let surface { cairo_surface_destroy(surface) }
        surface = nil
        surfaceSize = (0, 0)
    }
}
