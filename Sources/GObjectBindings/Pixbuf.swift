import CGLib

/// A decoded image (GdkPixbuf). Pixbufs are immutable once decoded, so sharing one between threads is safe.
public final class Pixbuf: @unchecked Sendable {
    public let ref: ObjectRef

    /// Takes a reference the caller owns (transfer full).
    public init(owning pointer: OpaquePointer) { ref = ObjectRef(pointer, transfer: .full) }

    /// Adds a reference to a pixbuf owned elsewhere (transfer none).
    public init(retaining pointer: OpaquePointer) { ref = ObjectRef(pointer, transfer: .none) }

    public var pointer: OpaquePointer { ref.opaque }
    public var width: Int { Int(gdk_pixbuf_get_width(pointer)) }
    public var height: Int { Int(gdk_pixbuf_get_height(pointer)) }

    /// Approximate memory held by the pixel data.
    public var byteCount: Int { Int(gdk_pixbuf_get_rowstride(pointer)) * height }

    /// A solid pixbuf, for placeholders and tests.
    public static func filled(width: Int, height: Int, rgba: UInt32) -> Pixbuf {
        let pixbuf = Pixbuf(owning: gdk_pixbuf_new(GDK_COLORSPACE_RGB, 1, 8, Int32(width), Int32(height)))
        gdk_pixbuf_fill(pixbuf.pointer, rgba)
        return pixbuf
    }

    /// Lets `body` write the pixel data (rows `rowStride` bytes apart), for images made in code.
    public func withMutablePixels<R>(_ body: (UnsafeMutablePointer<UInt8>, _ rowStride: Int) -> R) -> R {
        body(gdk_pixbuf_get_pixels(pointer), Int(gdk_pixbuf_get_rowstride(pointer)))
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
