import CGLib

/// A file being written through GIO's asynchronous output stream. Every call returns at once; GIO does the
/// blocking write(2)/close(2) on its own worker threads and calls back on the main loop, so writing a large
/// download never stalls the main loop and never needs the whole file in memory.
public final class FileOutputStream {
    public enum Mode: Sendable {
        /// A new file; fails with `G_IO_ERROR_EXISTS` if there is one already (two writers never share it).
        case create
        /// Continues at the end of an existing file (a resumed download).
        case append
    }

    public let ref: ObjectRef

    private init(owning pointer: UnsafeMutablePointer<GFileOutputStream>) {
        ref = ObjectRef(pointer, transfer: .full)
    }

    private var stream: UnsafeMutablePointer<GOutputStream> { ref.typed() }

    /// Opens `file` for writing. Permissions follow the umask, as for any file the user saves.
    @MainActor
    public static func open(_ file: File, mode: Mode, cancellable: Cancellable,
                            completion: @escaping @MainActor (Result<FileOutputStream, GLibError>) -> Void) {
        let callback = AsyncCallback { _, result in
            do throws(GLibError) {
                let stream = try GLibError.check { error in
                    switch mode {
                    case .create: g_file_create_finish(file.ref.opaque, result, error)
                    case .append: g_file_append_to_finish(file.ref.opaque, result, error)
                    }
                }
                completion(.success(FileOutputStream(owning: stream!)))
            } catch {
                completion(.failure(error))
            }
        }
        switch mode {
        case .create:
            callback.pass { g_file_create_async(file.ref.opaque, G_FILE_CREATE_NONE, G_PRIORITY_DEFAULT, cancellable.pointer,
                                                $0, $1) }
        case .append:
            callback.pass { g_file_append_to_async(file.ref.opaque, G_FILE_CREATE_NONE, G_PRIORITY_DEFAULT, cancellable.pointer,
                                                   $0, $1) }
        }
    }

    /// Writes all of `bytes` (GIO retries short writes). The callback keeps `bytes` alive until GIO is done
    /// with the buffer.
    @MainActor
    public func write(_ bytes: Bytes, cancellable: Cancellable,
                      completion: @escaping @MainActor (Result<Void, GLibError>) -> Void) {
        let stream = self.stream
        let callback = AsyncCallback { _, result in
            withExtendedLifetime((self, bytes)) {
                var written: gsize = 0
                do throws(GLibError) {
                    _ = try GLibError.check { error in g_output_stream_write_all_finish(stream, result, &written, error) }
                    completion(.success(()))
                } catch {
                    completion(.failure(error))
                }
            }
        }
        callback.pass { function, data in
            bytes.withUnsafeBytes { buffer in
                g_output_stream_write_all_async(stream, buffer.baseAddress, gsize(buffer.count), G_PRIORITY_DEFAULT,
                                                cancellable.pointer, function, data)
            }
        }
    }

    /// Flushes and closes. Not cancellable on purpose: a download that is being stopped still closes its
    /// file properly, so what was written is on disk for the next run to resume.
    @MainActor
    public func close(completion: @escaping @MainActor (Result<Void, GLibError>) -> Void) {
        let stream = self.stream
        let callback = AsyncCallback { _, result in
            withExtendedLifetime(self) {
                do throws(GLibError) {
                    _ = try GLibError.check { error in g_output_stream_close_finish(stream, result, error) }
                    completion(.success(()))
                } catch {
                    completion(.failure(error))
                }
            }
        }
        callback.pass { g_output_stream_close_async(stream, G_PRIORITY_DEFAULT, nil, $0, $1) }
    }
}
