internal import CGLib
internal import CGtk
import GObjectBindings

/// A decoded image as a cairo image surface, made once per image and painted at any zoom through a pattern
/// matrix: cairo then samples only the pixels that land in the clip (the visible region), so a frame of a
/// 4000 px image zoomed in costs what the window's area costs, not what the image's does.
///
/// Converting a pixbuf (RGB, unpremultiplied) into a surface (premultiplied ARGB) touches every pixel: for a
/// 12-megapixel photo that is tens of milliseconds, so `make(from:)` does it on a GTask worker. A surface made
/// from a pixbuf is never written again, and cairo's reference counting is atomic, so it may be handed between
/// threads; a view buffer (`init(width:height:)`) is drawn into on the main thread only.
public final class ImageSurface: @unchecked Sendable {
    public enum Filter: Sendable {
        /// While the view moves: bilinear, cheap at any scale.
        case fast
        /// At rest: cairo's GOOD, which averages all the pixels a shrunk image folds into one.
        case good
    }

    public let pixelWidth: Int
    public let pixelHeight: Int
    private let surface: OpaquePointer

    /// Converts `pixbuf` (on the calling thread: use `make(from:)` for big images on the main loop).
    public init(_ pixbuf: Pixbuf) {
        surface = gdk_cairo_surface_create_from_pixbuf(pixbuf.pointer, 1, nil)
        pixelWidth = Int(cairo_image_surface_get_width(surface))
        pixelHeight = Int(cairo_image_surface_get_height(surface))
    }

    /// A blank (transparent) surface of `width` × `height` pixels, to draw into.
    public init(width: Int, height: Int) {
        surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(max(1, width)), Int32(max(1, height)))
        pixelWidth = max(1, width)
        pixelHeight = max(1, height)
    }

    deinit { cairo_surface_destroy(surface) }

    /// False when cairo could not make the surface (out of memory, or a side over cairo's 32767 px).
    public var isValid: Bool { cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS && pixelWidth > 0 && pixelHeight > 0 }

    /// Above this many pixels `make` converts on a worker thread (a quarter megapixel is about a millisecond).
    public static let workerPixels = 250_000

    /// Converts `pixbuf` and calls `completion` with the surface on the main loop: anything bigger than a small
    /// thumbnail on a GTask worker thread (a screen-sized image is several milliseconds, a full-resolution
    /// photo tens), a small one at once. The surface's buffer, made on the worker, is a mapping of its own
    /// (`WorkerTask.returnLargeBlocksWhenFreed`), so freeing it on the main thread leaves nothing in the
    /// worker's malloc arena.
    @MainActor
    public static func make(from pixbuf: Pixbuf, cancellable: Cancellable? = nil,
                            completion: @escaping @MainActor (ImageSurface) -> Void) {
        guard pixbuf.width * pixbuf.height > workerPixels else { return completion(ImageSurface(pixbuf)) }
        WorkerTask.run(cancellable: cancellable, { ImageSurface(pixbuf) }, completion: completion)
    }

    /// The pixel at `x`, `y` of a surface made from a pixbuf, as cairo holds it (premultiplied 0xAARRGGBB, an
    /// image without alpha opaque): what a paint of it shows. Without a flush, which would drop the JPEG
    /// `attachJPEG` gave it.
    public func argb(x: Int, y: Int) -> UInt32 {
        guard isValid, (0..<pixelWidth).contains(x), (0..<pixelHeight).contains(y),
              let data = cairo_image_surface_get_data(surface) else { return 0 }
        let stride = Int(cairo_image_surface_get_stride(surface))
        let value = UnsafeRawPointer(data + y * stride + x * 4).loadUnaligned(as: UInt32.self)
        return cairo_image_surface_get_format(surface) == CAIRO_FORMAT_RGB24 ? value | 0xFF00_0000 : value
    }

    /// Gives cairo `jpeg`, an encoding of these same pixels, for surfaces that can embed it (PDF, PostScript):
    /// a print then carries that file instead of the pixels compressed again on the main loop. Only for a
    /// surface made from a pixbuf that `jpeg` was encoded from, and before the surface is painted anywhere.
    public func attachJPEG(_ jpeg: Bytes) {
        let data = g_bytes_get_data(jpeg.pointer, nil)
        cairo_surface_set_mime_data(surface, "image/jpeg", data?.assumingMemoryBound(to: UInt8.self), UInt(jpeg.count),
                                    { g_bytes_unref(OpaquePointer($0)) }, UnsafeMutableRawPointer(jpeg.retainedPointer()))
    }

    /// Paints the surface with its top-left corner at `x`, `y` and each of its pixels `scale` units wide (in
    /// the context's user space), clipped to the surface's own rectangle and whatever clip `cairo` already
    /// has. PAD extension keeps the edges sharp instead of blending them into transparency; `padEdges` false
    /// leaves it out where a vector surface must embed the image as it is (a print: cairo pads a copy, which
    /// loses the JPEG attached with `attachJPEG`).
    func paint(on cairo: OpaquePointer, x: Double, y: Double, scale: Double, filter: Filter, padEdges: Bool = true,
               quarterTurns: Int = 0) {
        guard scale > 0 else { return }
        let turns = ((quarterTurns % 4) + 4) % 4
        let (width, height) = (Double(pixelWidth), Double(pixelHeight))
        // The rectangle the image covers once turned.
        let (shownWidth, shownHeight) = turns % 2 == 0 ? (width, height) : (height, width)
        cairo_save(cairo)
        cairo_rectangle(cairo, x, y, shownWidth * scale, shownHeight * scale)
        cairo_clip(cairo)
        if abs(scale - 1) < 1e-9, turns == 0 {
            // 1:1 copy: no filtering at all, at whole pixels.
            cairo_set_source_surface(cairo, surface, x.rounded(), y.rounded())
        } else {
            cairo_translate(cairo, x, y)
            cairo_scale(cairo, scale, scale)
            // Clockwise turns about the image's corner, then back into the rectangle it covers.
            switch turns {
            case 1: cairo_translate(cairo, height, 0)
            case 2: cairo_translate(cairo, width, height)
            case 3: cairo_translate(cairo, 0, width)
            default: break
            }
            cairo_rotate(cairo, Double(turns) * Double.pi / 2)
            cairo_set_source_surface(cairo, surface, 0, 0)
            let pattern = cairo_get_source(cairo)
            if padEdges { cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD) }
            cairo_pattern_set_filter(pattern, filter == .good ? CAIRO_FILTER_GOOD : CAIRO_FILTER_BILINEAR)
        }
        cairo_paint(cairo)
        cairo_restore(cairo)
    }

    /// Replaces this surface's pixels with `source` drawn at `x`, `y` (pixels of this surface), each source
    /// pixel `scale` wide, turned `quarterTurns` times clockwise (the turned image's corner at `x`, `y`): the
    /// part of a large image that a view shows, rendered on the CPU into a buffer of the view's size. Painting
    /// that 1:1 into a window sends only the view's pixels to the X server; painting the large image with a
    /// matrix there would first upload all of it (ARCHITECTURE.md: "The large view").
    public func draw(_ source: ImageSurface, x: Double, y: Double, scale: Double, filter: Filter, quarterTurns: Int = 0) {
        guard isValid, let context = cairo_create(surface) else { return }
        cairo_set_operator(context, CAIRO_OPERATOR_CLEAR)
        cairo_paint(context)
        cairo_set_operator(context, CAIRO_OPERATOR_OVER)
        source.paint(on: context, x: x, y: y, scale: scale, filter: filter, quarterTurns: quarterTurns)
        cairo_destroy(context)
    }

    /// Paints this surface's pixels 1:1 onto the screen's (device) pixels, its top-left corner at `x`, `y`
    /// (logical pixels of `context`, whose device scale is `deviceScale`).
    public func paintUnscaled(on context: DrawingContext, x: Double, y: Double, deviceScale: Double) {
        let cairo = context.cairo
        cairo_save(cairo)
        cairo_translate(cairo, x, y)
        cairo_scale(cairo, 1 / deviceScale, 1 / deviceScale)
        cairo_set_source_surface(cairo, surface, 0, 0)
        cairo_paint(cairo)
        cairo_restore(cairo)
    }
}
