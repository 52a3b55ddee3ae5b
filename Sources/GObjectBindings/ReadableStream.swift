import CGLib

/// A GInputStream read asynchronously in chunks on the main loop.
public final class ReadableStream {
    public let ref: ObjectRef

    public init(owning pointer: UnsafeMutableRawPointer) { ref = ObjectRef(pointer, transfer: .full) }

    /// Reads up to `maxBytes`; an empty result means end of stream.
    @MainActor
    public func read(maxBytes: Int, cancellable: Cancellable,
                     completion: @escaping @MainActor (Result<Bytes, GLibError>) -> Void) {
        let stream: UnsafeMutablePointer<GInputStream> = ref.typed()
        AsyncCallback { _, result in
            do throws(GLibError) {
                let bytes = try GLibError.check { error in g_input_stream_read_bytes_finish(stream, result, error) }
                completion(.success(Bytes(owning: bytes!)))
            } catch {
                completion(.failure(error))
            }
        }.pass { g_input_stream_read_bytes_async(stream, gsize(maxBytes), G_PRIORITY_DEFAULT, cancellable.pointer, $0, $1) }
    }

    /// Closes the stream without waiting; libsoup drops the connection if the body was not read to the end.
    @MainActor
    public func close() {
        let stream: UnsafeMutablePointer<GInputStream> = ref.typed()
        g_input_stream_close_async(stream, G_PRIORITY_DEFAULT, nil, nil, nil)
    }
}
