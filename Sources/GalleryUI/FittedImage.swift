import GObjectBindings
import GtkBindings

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
    private var scaled: ScaledImageSurface?

    /// Paints `pixbuf` into the rectangle (logical pixels) at `x`, `y`, `width` × `height`.
    func paint(_ pixbuf: Pixbuf, in cairo: OpaquePointer, x: Double, y: Double, width: Double, height: Double,
               deviceScale: Int) {
        let size = (width: Int((width * Double(deviceScale)).rounded()),
                    height: Int((height * Double(deviceScale)).rounded()))
        guard size.width > 0, size.height > 0 else { return }
        if pixbuf !== source || scaled?.pixelWidth != size.width || scaled?.pixelHeight != size.height {
            scaled = nil  // the old surface goes before the new one is made
            scaled = ScaledImageSurface(pixbuf, pixelWidth: size.width, pixelHeight: size.height, deviceScale: deviceScale)
            source = pixbuf
        }
        scaled?.paint(on: cairo, x: x, y: y)
    }
}
