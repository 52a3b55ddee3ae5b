import CGtk

/// What a decode produced: the pixbuf (possibly downscaled) and the size the encoded image declared.
public struct DecodedPixbuf: Sendable {
    public let pixbuf: Pixbuf
    public let originalWidth: Int
    public let originalHeight: Int

    public init(pixbuf: Pixbuf, originalWidth: Int, originalHeight: Int) {
        self.pixbuf = pixbuf
        self.originalWidth = originalWidth
        self.originalHeight = originalHeight
    }
}

/// Synchronous decoding with GdkPixbufLoader, for GTask worker threads (see `WorkerTask`); never call it on
/// the main loop with big images.
///
/// The loader is told the target size as soon as the image header is parsed (`size-prepared`), so large
/// images are downsampled while decoding (JPEG scales in the DCT) instead of being decoded at full size
/// first. The format comes from the bytes themselves, not from the URL or the Content-Type.
public enum PixbufDecoding {
    /// - Parameter maxPixelSize: bound for the longer side; nil keeps the original size.
    public static func decode(_ bytes: Bytes, maxPixelSize: Int?,
                              cancellable: Cancellable?) -> Result<DecodedPixbuf, GLibError> {
        let sizing = Sizing(maxPixelSize: maxPixelSize)
        let loader = gdk_pixbuf_loader_new()!
        let loaderObject = UnsafeMutableRawPointer(loader)
        defer { g_object_unref(loaderObject) }
        let handler = g_signal_connect_data(
            loaderObject, "size-prepared", unsafeBitCast(sizePrepared, to: GCallback.self),
            Unmanaged.passUnretained(sizing).toOpaque(), nil, GConnectFlags(rawValue: 0))
        defer {
            g_signal_handler_disconnect(loaderObject, handler)
            withExtendedLifetime(sizing) {}
        }

        var failure: UnsafeMutablePointer<GError>?
        var writeFailed = false
        let chunkSize = 256 * 1024
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                if let cancellable, cancellable.isCancelled {
                    failure = g_error_new_literal(gv_io_error_quark(), Int32(G_IO_ERROR_CANCELLED.rawValue),
                                                  "Operation was cancelled")
                    return
                }
                let length = min(chunkSize, buffer.count - offset)
                let start = buffer.baseAddress!.advanced(by: offset).assumingMemoryBound(to: guchar.self)
                guard gdk_pixbuf_loader_write(loader, start, gsize(length), &failure) != 0 else {
                    writeFailed = true
                    return
                }
                offset += length
            }
        }
        // A failed write has already closed the loader (closing it again is a critical); otherwise it must be
        // closed, also when cancelled, or it complains when finalized.
        if !writeFailed {
            if failure == nil {
                gdk_pixbuf_loader_close(loader, &failure)
            } else {
                gdk_pixbuf_loader_close(loader, nil)
            }
        }
        if let failure { return .failure(GLibError(consuming: failure)) }

        guard let decoded = gdk_pixbuf_loader_get_pixbuf(loader) else {
            return .failure(GLibError(domain: gdk_pixbuf_error_quark(),
                                      code: Int32(GDK_PIXBUF_ERROR_CORRUPT_IMAGE.rawValue),
                                      message: "The data did not contain an image"))
        }
        // Photos often store their rotation in EXIF; apply it so they are shown upright.
        let oriented = Pixbuf(owning: gdk_pixbuf_apply_embedded_orientation(decoded))
        let rotated = (oriented.width > oriented.height) != (sizing.width > sizing.height)
        return .success(DecodedPixbuf(pixbuf: oriented,
                                      originalWidth: rotated ? sizing.height : sizing.width,
                                      originalHeight: rotated ? sizing.width : sizing.height))
    }

    /// Written by `size-prepared` during `gdk_pixbuf_loader_write`, on the decoding thread only.
    private final class Sizing {
        let maxPixelSize: Int?
        var width = 0
        var height = 0
        init(maxPixelSize: Int?) { self.maxPixelSize = maxPixelSize }
    }

    private static let sizePrepared: @convention(c) (UnsafeMutablePointer<GdkPixbufLoader>?, Int32, Int32, gpointer?) -> Void = {
        loader, width, height, data in
        let sizing = Unmanaged<Sizing>.fromOpaque(data!).takeUnretainedValue()
        sizing.width = Int(width)
        sizing.height = Int(height)
        guard let bound = sizing.maxPixelSize, max(width, height) > bound, width > 0, height > 0 else { return }
        let scale = Double(bound) / Double(max(width, height))
        gdk_pixbuf_loader_set_size(loader, max(1, Int32((Double(width) * scale).rounded())),
                                   max(1, Int32((Double(height) * scale).rounded())))
    }
}
