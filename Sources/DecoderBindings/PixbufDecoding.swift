import CGLib

/// What a decode produced: the pixbuf (possibly downscaled) and the size the encoded image declared.
public struct DecodedPixbuf: Sendable {
    public let pixbuf: Pixbuf
    public let originalWidth: Int
    public let originalHeight: Int
    /// Frames in the file: more than one for an animation (GIF, WebP), of which `pixbuf` is the first. Set by
    /// whoever read the file's header (GalleryCore's ImageDecoder), not by the loader.
    public var frameCount = 1
    /// An animation too costly to decode whole: `pixbuf` is its first frame, decoded alone.
    public var isFirstFrameOnly = false
    /// An animation's frames to play, composited, `pixbuf` the first (a decode that asked for them:
    /// `DecodeRequest.maxFrames`); empty for a still image, or when they did not fit.
    public var frames: [AnimationFrame] = []

    public init(pixbuf: Pixbuf, originalWidth: Int, originalHeight: Int) {
        self.pixbuf = pixbuf
        self.originalWidth = originalWidth
        self.originalHeight = originalHeight
    }

    public var isAnimated: Bool { frameCount > 1 }
}

/// One frame of an animation, whole (composited onto the canvas), and how long the loader shows it.
public struct AnimationFrame: Sendable {
    public let pixbuf: Pixbuf
    /// Milliseconds as the loader states it (0 when it gave none).
    public let delay: Int

    public init(pixbuf: Pixbuf, delay: Int) {
        self.pixbuf = pixbuf
        self.delay = delay
    }
}

/// Why `PixbufDecoding.decode` gave no image.
public enum PixbufDecodingError: Error, Equatable, Sendable {
    /// The loader reported a size other than the one expected, or one over the pixel limit; it was stopped
    /// before allocating anything for it.
    case refused(width: Int, height: Int)
    /// No loader of that type is installed (e.g. "webp" without webp-pixbuf-loader).
    case noLoader(String)
    /// The loader's own error: corrupt or cut-off data, cancelled.
    case failed(GLibError)

    public var isCancelled: Bool { if case .failed(let error) = self { error.isCancelled } else { false } }
}

/// Synchronous decoding with GdkPixbufLoader, for GTask worker threads (see `WorkerTask`); never call it on
/// the main loop with big images.
///
/// The loader is told the target size as soon as the image header is parsed (`size-prepared`), so large
/// images are downsampled while decoding (JPEG scales in the DCT) instead of being decoded at full size
/// first. The same signal is the last line of defence against decompression bombs: a size that is not the
/// one the caller read from the header, or is over `maxPixels`, sets the size to 0 × 0, which every loader
/// takes as "stop, allocate nothing".
public enum PixbufDecoding {
    /// Loads the loader of each of `types` and returns those gdk-pixbuf has none for; for a worker thread.
    ///
    /// gdk-pixbuf loads a format's loader (most are shared libraries) on its first decode in a process, from
    /// disk, likely under a lock its other users wait for, GTK's own icon loading on the main loop among them
    /// (seen with perf in gridend100k's new search: the main loop off its core right after a call
    /// into gdk-pixbuf, while two workers opened loaders). Loaded once ahead of need, a later first decode
    /// finds them in memory.
    public static func loadLoaders(_ types: [String]) -> [String] {
        types.filter { type in
            guard let loader = gdk_pixbuf_loader_new_with_type(type, nil) else { return true }
            // librsvg's loader leaks its context when closed with no data (LeakSanitizer, in C too), so it is
            // given a document of its own; the others fail to close ("premature end"), quietly.
            if type == "svg" {
                var document = emptySVG
                document.withUTF8 { _ = gdk_pixbuf_loader_write(loader, $0.baseAddress, gsize($0.count), nil) }
            }
            gdk_pixbuf_loader_close(loader, nil)
            g_object_unref(UnsafeMutableRawPointer(loader))
            return false
        }
    }

    private static let emptySVG = "<svg xmlns='http://www.w3.org/2000/svg' width='1' height='1'/>"

    /// - Parameters:
    ///   - loaderType: gdk-pixbuf's loader name ("png", "jpeg"): the loader whose format the caller checked.
    ///     Nil lets gdk-pixbuf pick one from the bytes (only for data the app made itself).
    ///   - maxPixelSize: bound for the longer side; nil keeps the original size.
    ///   - expectedSize: the size the caller read from the header; the loader must see the same.
    ///   - maxPixels: the largest area the loader may go on with.
    public static func decode(_ bytes: Bytes, loaderType: String? = nil, maxPixelSize: Int?,
                              expectedSize: (width: Int, height: Int)? = nil, maxPixels: Int? = nil,
                              cancellable: Cancellable?) -> Result<DecodedPixbuf, PixbufDecodingError> {
        decodeKeepingAnimation(bytes, loaderType: loaderType, maxPixelSize: maxPixelSize, expectedSize: expectedSize,
                               maxPixels: maxPixels, keepsAnimation: false, cancellable: cancellable).map(\.image)
    }

    /// `decode`, and with `keepsAnimation` the loader's animation too when the file is one (nil for a still
    /// image): the frames to play, scaled as the first one was. The first frame is then a copy, because GIF's
    /// loader hands out its compositing canvas as the first frame, which playing the animation overwrites.
    public static func decodeKeepingAnimation(
        _ bytes: Bytes, loaderType: String? = nil, maxPixelSize: Int?, expectedSize: (width: Int, height: Int)? = nil,
        maxPixels: Int? = nil, keepsAnimation: Bool, cancellable: Cancellable?
    ) -> Result<(image: DecodedPixbuf, animation: PixbufAnimation?), PixbufDecodingError> {
        let sizing = Sizing(maxPixelSize: maxPixelSize, expectedSize: expectedSize, maxPixels: maxPixels)
        var failure: UnsafeMutablePointer<GError>?
        guard let loader = loaderType.map({ gdk_pixbuf_loader_new_with_type($0, &failure) }) ?? gdk_pixbuf_loader_new() else {
            if let failure { g_error_free(failure) }
            return .failure(.noLoader(loaderType ?? "?"))
        }
        let loaderObject = UnsafeMutableRawPointer(loader)
        defer { g_object_unref(loaderObject) }
        let handler = g_signal_connect_data(
            loaderObject, "size-prepared", unsafeBitCast(sizePrepared, to: GCallback.self),
            Unmanaged.passUnretained(sizing).toOpaque(), nil, GConnectFlags(rawValue: 0))
        defer {
            g_signal_handler_disconnect(loaderObject, handler)
            withExtendedLifetime(sizing) {}
        }

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
                // Refused: the loader has been told to stop; nothing more goes in.
                if sizing.refused { return }
                offset += length
            }
        }
        // A failed write has already closed the loader (closing it again is a critical); otherwise it must be
        // closed, also when cancelled or refused, or it complains when finalized.
        if !writeFailed {
            if failure == nil && !sizing.refused {
                gdk_pixbuf_loader_close(loader, &failure)
            } else {
                gdk_pixbuf_loader_close(loader, nil)
            }
        }
        if sizing.refused {
            if let failure { g_error_free(failure) }
            return .failure(.refused(width: sizing.width, height: sizing.height))
        }
        if let failure { return .failure(.failed(GLibError(consuming: failure))) }

        guard let decoded = gdk_pixbuf_loader_get_pixbuf(loader) else { return .failure(.failed(unreadable)) }
        if keepsAnimation, let animation = gdk_pixbuf_loader_get_animation(loader),
           gdk_pixbuf_animation_is_static_image(animation) == 0 {
            guard let first = gdk_pixbuf_copy(decoded) else { return .failure(.failed(unreadable)) }
            return .success((DecodedPixbuf(pixbuf: Pixbuf(owning: first), originalWidth: sizing.width,
                                           originalHeight: sizing.height),
                             PixbufAnimation(retaining: animation)))
        }
        // Photos often store their rotation in EXIF; apply it so they are shown upright.
        let oriented = Pixbuf(owning: gdk_pixbuf_apply_embedded_orientation(decoded))
        let rotated = (oriented.width > oriented.height) != (sizing.width > sizing.height)
        return .success((DecodedPixbuf(pixbuf: oriented,
                                       originalWidth: rotated ? sizing.height : sizing.width,
                                       originalHeight: rotated ? sizing.width : sizing.height), nil))
    }

    private static var unreadable: GLibError {
        GLibError(domain: gdk_pixbuf_error_quark(), code: Int32(GDK_PIXBUF_ERROR_CORRUPT_IMAGE.rawValue),
                  message: tr("The data did not contain an image"))
    }

    /// Written by `size-prepared` during `gdk_pixbuf_loader_write`, on the decoding thread only.
    private final class Sizing {
        let maxPixelSize: Int?
        let expectedSize: (width: Int, height: Int)?
        let maxPixels: Int?
        var width = 0
        var height = 0
        var refused = false

        init(maxPixelSize: Int?, expectedSize: (width: Int, height: Int)?, maxPixels: Int?) {
            self.maxPixelSize = maxPixelSize
            self.expectedSize = expectedSize
            self.maxPixels = maxPixels
        }

        func isAcceptable(width: Int, height: Int) -> Bool {
            if let expectedSize, expectedSize != (width, height) { return false }
            guard let maxPixels else { return true }
            let (area, overflow) = width.multipliedReportingOverflow(by: height)
            return !overflow && area <= maxPixels
        }
    }

    private static let sizePrepared: @convention(c) (UnsafeMutablePointer<GdkPixbufLoader>?, Int32, Int32, gpointer?) -> Void = {
        loader, width, height, data in
        let sizing = Unmanaged<Sizing>.fromOpaque(data!).takeUnretainedValue()
        sizing.width = Int(width)
        sizing.height = Int(height)
        guard sizing.isAcceptable(width: Int(width), height: Int(height)) else {
            sizing.refused = true
            gdk_pixbuf_loader_set_size(loader, 0, 0)
            return
        }
        guard let bound = sizing.maxPixelSize, max(width, height) > bound, width > 0, height > 0 else { return }
        let scale = Double(bound) / Double(max(width, height))
        gdk_pixbuf_loader_set_size(loader, max(1, Int32((Double(width) * scale).rounded())),
                                   max(1, Int32((Double(height) * scale).rounded())))
    }
}
