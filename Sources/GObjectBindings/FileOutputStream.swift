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

    // MARK: Several steps on one worker thread

    // A small download is one chunk: creating the file, writing it and closing it are three round trips to
    // GIO's threads and back through the main loop, and the connection's slot waits for each. These do two
    // steps in one trip, with GIO's synchronous calls on a GTask worker thread (the stream is used by one
    // thread at a time: the worker's, until it hands it back).

    /// Creates `file` (as `open(_:mode: .create)`) and writes `bytes` into it, on a worker thread.
    @MainActor
    public static func create(_ file: File, writing bytes: Bytes, cancellable: Cancellable,
                              completion: @escaping @MainActor (Result<FileOutputStream, GLibError>) -> Void) {
        let target = HandOver(file.ref)
        WorkerTask.run(cancellable: cancellable, { () -> Result<HandOver, GLibError> in
            Result { () throws(GLibError) -> HandOver in
                let stream = try GLibError.check { error in
                    g_file_create(target.ref.opaque, G_FILE_CREATE_NONE, cancellable.pointer, error)
                }!
                let handOver = HandOver(ObjectRef(stream, transfer: .full))
                let output: UnsafeMutablePointer<GOutputStream> = handOver.ref.typed()
                let written = bytes.withUnsafeBytes { buffer in
                    Result { () throws(GLibError) in
                        var count: gsize = 0
                        _ = try GLibError.check { error in
                            g_output_stream_write_all(output, buffer.baseAddress, gsize(buffer.count), &count, cancellable.pointer, error)
                        }
                    }
                }
                if case .failure(let error) = written {
                    // Nothing half-made is left behind: the caller never learns of this file.
                    g_output_stream_close(output, nil, nil)
                    g_file_delete(target.ref.opaque, nil, nil)
                    throw error
                }
                return handOver
            }
        }, completion: { result in completion(result.map { FileOutputStream(handOver: $0) }) })
    }

    /// Which of `close(moving:to:)`'s two steps failed.
    public enum CloseAndMoveError: Error, Sendable {
        case close(GLibError)
        case move(GLibError)
    }

    /// Closes the stream and then renames its file to `destination` (replacing a file there; within one
    /// directory a rename(2), so the destination appears complete or not at all), on a worker thread. Not
    /// cancellable, as `close`. `file` is the file the stream writes; it is not renamed if closing failed.
    @MainActor
    public func close(moving file: File, to destination: File,
                      completion: @escaping @MainActor (Result<Void, CloseAndMoveError>) -> Void) {
        let handOver = HandOver(ref)
        let source = HandOver(file.ref)
        let target = HandOver(destination.ref)
        WorkerTask.run({ () -> Result<Void, CloseAndMoveError> in
            let output: UnsafeMutablePointer<GOutputStream> = handOver.ref.typed()
            do throws(GLibError) {
                _ = try GLibError.check { error in g_output_stream_close(output, nil, error) }
            } catch {
                return .failure(.close(error))
            }
            do throws(GLibError) {
                _ = try GLibError.check { error in
                    g_file_move(source.ref.opaque, target.ref.opaque, G_FILE_COPY_OVERWRITE, nil, nil, nil, error)
                }
            } catch {
                return .failure(.move(error))
            }
            return .success(())
        }, completion: completion)
    }

    private init(handOver: HandOver) { ref = handOver.ref }
}

/// An object handed between the main thread and one worker. @unchecked Sendable: a stream is used by only
/// the thread that holds it, and the hand-over (GTask's completion on the main loop) orders the two; a GFile
/// is immutable and documented thread-safe; GObject reference counting is atomic.
private struct HandOver: @unchecked Sendable {
    let ref: ObjectRef
    init(_ ref: ObjectRef) { self.ref = ref }
}
