import CGLib

/// A file being written by GIO's synchronous calls on a GTask worker, a batch of steps at a time (`perform`):
/// each call returns at once and calls back on the main loop, so writing a large download never stalls the
/// main loop and never needs the whole file in memory. A download is usually smaller than one batch: opening
/// the file, writing, closing and renaming it are then one round trip to a worker and back, not four, each of
/// which the connection's slot would wait for. The stream is used by one thread at a time: the worker's, until
/// it hands it back.
public final class FileOutputStream {
    public enum Mode: Sendable {
        /// A new file; fails with `G_IO_ERROR_EXISTS` if there is one already (two writers never share it).
        /// Permissions follow the umask, as for any file the user saves.
        case create
        /// Continues at the end of an existing file (a resumed download).
        case append
    }

    public let ref: ObjectRef

    private init(handOver: HandOver) { ref = handOver.ref }

    /// What `perform` does with the stream once it has written.
    public enum Ending {
        case keepOpen
        case close
        /// Closes the stream and renames its file to this one (replacing a file there; within one directory
        /// a rename(2), so the destination appears complete or not at all). Not if closing failed.
        case closeAndMove(to: File)
    }

    /// The step of `perform` that failed.
    public enum StepError: Error, Sendable {
        case open(GLibError)
        case write(GLibError)
        case close(GLibError)
        case move(GLibError)

        public var error: GLibError {
            switch self {
            case .open(let error), .write(let error), .close(let error), .move(let error): error
            }
        }
    }

    /// On one worker thread: opens `file` as `mode` says (unless `stream` is already its open stream), writes
    /// `chunks` one after another, then keeps the stream open (handed back to `completion`), or closes it, or
    /// closes it and renames the file. A failed write closes the stream, and a file this call created is
    /// deleted again: the caller never learns of it. Not cancellable, on purpose: what a download received is
    /// written and its file closed properly also while it is being stopped, for the next run to resume.
    @MainActor
    public static func perform(on stream: FileOutputStream?, file: File, mode: Mode, writing chunks: [Bytes],
                               then ending: Ending, completion: @escaping @MainActor (Result<FileOutputStream?, StepError>) -> Void) {
        let opened = stream.map { HandOver($0.ref) }
        let source = HandOver(file.ref)
        let target: HandOver?
        let closes: Bool
        switch ending {
        case .keepOpen: (target, closes) = (nil, false)
        case .close: (target, closes) = (nil, true)
        case .closeAndMove(let destination): (target, closes) = (HandOver(destination.ref), true)
        }
        WorkerTask.run({ () -> Result<HandOver?, StepError> in
            Result { () throws(StepError) -> HandOver? in
                let handOver: HandOver
                if let opened { handOver = opened } else { handOver = try open(source, mode: mode) }
                let output: UnsafeMutablePointer<GOutputStream> = handOver.ref.typed()
                if !chunks.isEmpty {
                    do throws(GLibError) {
                        try write(chunks, to: output)
                    } catch {
                        // Closed here, not by the last reference on the main thread.
                        g_output_stream_close(output, nil, nil)
                        if opened == nil && mode == .create { g_file_delete(source.ref.opaque, nil, nil) }
                        throw .write(error)
                    }
                }
                guard closes else { return handOver }
                do throws(GLibError) {
                    _ = try GLibError.check { error in g_output_stream_close(output, nil, error) }
                } catch {
                    throw .close(error)
                }
                if let target {
                    do throws(GLibError) {
                        try File.moveNow(source.ref, to: target.ref)
                    } catch {
                        throw .move(error)
                    }
                }
                return nil
            }
        }, completion: { result in completion(result.map { $0.map { FileOutputStream(handOver: $0) } }) })
    }

    /// Opens `file` for writing, on the worker thread that calls it.
    private nonisolated static func open(_ file: HandOver, mode: Mode) throws(StepError) -> HandOver {
        do throws(GLibError) {
            let stream = try GLibError.check { error in
                switch mode {
                case .create: g_file_create(file.ref.opaque, G_FILE_CREATE_NONE, nil, error)
                case .append: g_file_append_to(file.ref.opaque, G_FILE_CREATE_NONE, nil, error)
                }
            }
            return HandOver(ObjectRef(stream!, transfer: .full))
        } catch {
            throw .open(error)
        }
    }

    /// Writes all of `chunks`, in order, with writev(2) where it can (GIO retries short writes), on the worker
    /// thread that calls it: no copy of them joined.
    private nonisolated static func write(_ chunks: [Bytes], to output: UnsafeMutablePointer<GOutputStream>)
        throws(GLibError) {
        // Each GBytes' data stays where it is while `chunks` holds it.
        var vectors = chunks.map { chunk in
            var size: gsize = 0
            let data = g_bytes_get_data(chunk.pointer, &size)
            return GOutputVector(buffer: data, size: size)
        }
        let count = gsize(vectors.count)
        try withExtendedLifetime(chunks) { () throws(GLibError) in
            var written: gsize = 0
            // GIO may change the vectors as it goes (after a short write): they are this call's own copy.
            _ = try GLibError.check { error in
                g_output_stream_writev_all(output, &vectors, count, &written, nil, error)
            }
        }
    }

}

/// An object handed between the main thread and one worker. @unchecked Sendable: a stream is used by only
/// the thread that holds it, and the hand-over (GTask's completion on the main loop) orders the two; a GFile
/// is immutable and documented thread-safe; GObject reference counting is atomic.
private struct HandOver: @unchecked Sendable {
    let ref: ObjectRef
    init(_ ref: ObjectRef) { self.ref = ref }
}
