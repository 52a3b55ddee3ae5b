import CGLib

/// A decoded image (GdkPixbuf), immutable: no method writes its pixels.
///
/// @unchecked Sendable because it is immutable and GObject reference counting is atomic: a pixbuf made on a
/// GTask worker (a decode) is read on the main loop, and one made on the main loop may be encoded on a worker.
/// What keeps it immutable: a `Pixbuf` is only ever made from a finished pixbuf (a decoder's, a closed loader's,
/// the clipboard's, a widget's, `PixbufCanvas.finish()`), and pixels are written only through `PixbufCanvas`,
/// before anyone else can see them. Code that reaches the C pointer must not write through it either.
public final class Pixbuf: @unchecked Sendable {
    public let ref: ObjectRef

    /// Takes a reference the caller owns (transfer full) to a finished pixbuf that no one writes any more.
    public init(owning pointer: OpaquePointer) { ref = ObjectRef(pointer, transfer: .full) }

    /// Adds a reference to a finished pixbuf owned elsewhere (transfer none), such as the one a GtkImage
    /// shows. Never a GdkPixbufLoader's while it loads: the loader is still writing it.
    public init(retaining pointer: OpaquePointer) { ref = ObjectRef(pointer, transfer: .none) }

    public var pointer: OpaquePointer { ref.opaque }
    public var width: Int { Int(gdk_pixbuf_get_width(pointer)) }
    public var height: Int { Int(gdk_pixbuf_get_height(pointer)) }

    /// Lets `body` read the pixel data: rows `rowStride` bytes apart, `channels` bytes a pixel (RGB or RGBA).
    public func withUnsafePixels<R>(_ body: (UnsafePointer<UInt8>, _ rowStride: Int, _ channels: Int) -> R) -> R {
        body(gdk_pixbuf_read_pixels(pointer), Int(gdk_pixbuf_get_rowstride(pointer)), Int(gdk_pixbuf_get_n_channels(pointer)))
    }

    /// Approximate memory held by the pixel data.
    public var byteCount: Int { Int(gdk_pixbuf_get_rowstride(pointer)) * height }

    public var hasAlpha: Bool { gdk_pixbuf_get_has_alpha(pointer) != 0 }
    public var rowStride: Int { Int(gdk_pixbuf_get_rowstride(pointer)) }
    /// The pixel data's exact length: `rowStride` bytes a row but the last, which may end at its last pixel.
    public var pixelByteLength: Int { Int(gdk_pixbuf_get_byte_length(pointer)) }

    /// A pixbuf of 8-bit RGB (RGBA with `hasAlpha`) over a copy of `pixels`, laid out as `pixelByteLength`
    /// says; nil when the sizes do not describe exactly those bytes.
    public convenience init?(copying pixels: UnsafeRawBufferPointer, width: Int, height: Int, rowStride: Int,
                             hasAlpha: Bool) {
        let rowBytes = width * (hasAlpha ? 4 : 3)
        guard width > 0, height > 0, width <= Int(Int32.max) / 4, height <= Int(Int32.max), rowStride >= rowBytes,
              rowStride <= Int(Int32.max), height.multipliedReportingOverflow(by: rowStride).overflow == false,
              pixels.count == (height - 1) * rowStride + rowBytes else { return nil }
        let bytes = g_bytes_new(pixels.baseAddress, gsize(pixels.count))
        defer { g_bytes_unref(bytes) }
        guard let pixbuf = gdk_pixbuf_new_from_bytes(bytes, GDK_COLORSPACE_RGB, hasAlpha.gboolean, 8, Int32(width),
                                                     Int32(height), Int32(rowStride)) else { return nil }
        self.init(owning: pixbuf)
    }

    /// A solid pixbuf with alpha, for placeholders and tests.
    public static func filled(width: Int, height: Int, rgba: UInt32) -> Pixbuf {
        PixbufCanvas(width: width, height: height, rgba: rgba).finish()
    }

    /// The image composited over an opaque colour (0xRRGGBB), without an alpha channel; itself when it has none.
    public func flattened(onto rgb: UInt32) -> Pixbuf {
        guard gdk_pixbuf_get_has_alpha(pointer) != 0 else { return self }
        var canvas = PixbufCanvas(width: width, height: height, hasAlpha: false, rgba: rgb << 8 | 0xFF)
        canvas.draw(self)
        return canvas.finish()
    }

    /// Encodes to PNG or JPEG bytes (`type` is gdk-pixbuf's format name: "png", "jpeg").
    public func encoded(as type: String, options: [(String, String)] = []) throws(GLibError) -> Bytes {
        var buffer: UnsafeMutablePointer<gchar>?
        var size: gsize = 0
        var keys = options.map { strdup($0.0) } + [nil]
        var values = options.map { strdup($0.1) } + [nil]
        defer { (keys + values).forEach { free($0) } }
        _ = try GLibError.check { error in
            gdk_pixbuf_save_to_bufferv(pointer, &buffer, &size, type, &keys, &values, error)
        }
        defer { g_free(buffer) }
        return Bytes(Array(UnsafeRawBufferPointer(start: buffer, count: Int(size))))
    }
}

/// A pixbuf being made in code (a rendered demo image, a test's noise): the only place pixels are written. It
/// is non-copyable and hands its pixbuf over with `finish()`, which consumes it, so nothing can write to a
/// `Pixbuf` that another thread may already be reading.
public struct PixbufCanvas: ~Copyable {
    private let pixbuf: Pixbuf

    /// `width` × `height` pixels of 8-bit RGB (with alpha when `hasAlpha`), filled with `rgba` (0xRRGGBBAA).
    public init(width: Int, height: Int, hasAlpha: Bool = true, rgba: UInt32 = 0) {
        pixbuf = Pixbuf(owning: gdk_pixbuf_new(GDK_COLORSPACE_RGB, hasAlpha.gboolean, 8, Int32(width), Int32(height)))
        gdk_pixbuf_fill(pixbuf.pointer, rgba)
    }

    /// Lets `body` write the pixel data: rows `rowStride` bytes apart, 3 bytes a pixel (4 with alpha).
    public mutating func withMutablePixels<R>(_ body: (UnsafeMutablePointer<UInt8>, _ rowStride: Int) -> R) -> R {
        body(gdk_pixbuf_get_pixels(pixbuf.pointer), Int(gdk_pixbuf_get_rowstride(pixbuf.pointer)))
    }

    /// Blends `image` (its alpha applied) over the canvas's pixels, both the same size.
    public mutating func draw(_ image: Pixbuf) {
        gdk_pixbuf_composite(image.pointer, pixbuf.pointer, 0, 0, Int32(image.width), Int32(image.height),
                             0, 0, 1, 1, GDK_INTERP_NEAREST, 255)
    }

    /// The finished image; the canvas is gone.
    public consuming func finish() -> Pixbuf { pixbuf }
}
