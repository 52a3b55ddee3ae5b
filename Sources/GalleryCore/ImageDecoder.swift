import GObjectBindings

/// Turns downloaded bytes into a pixbuf no larger than needed, on a GTask worker thread, so decoding a
/// 4000 px photo never stalls the main loop. The result is delivered on the main loop.
public enum ImageDecoder {
    /// Decodes `bytes`, downsampling while decoding so the longer side is at most `maxPixelSize`.
    @MainActor
    public static func decode(_ bytes: Bytes, maxPixelSize: Int?, cancellable: Cancellable,
                              completion: @escaping @MainActor (Result<DecodedPixbuf, ImageLoadError>) -> Void) {
        WorkerTask.run(cancellable: cancellable, {
            PixbufDecoding.decode(bytes, maxPixelSize: maxPixelSize, cancellable: cancellable)
        }, completion: { result in
            completion(result.mapError { error in
                error.isCancelled ? .http(.cancelled) : .decode(error.message)
            })
        })
    }
}
