import CGLib
import Glibc

/// A file being written by GIO's synchronous calls on a GTask worker, a batch of steps at a time (`perform`):
/// each call returns at once and calls back on the main loop, so writing a large download never stalls the
/// main loop and never needs the whole file in memory. A download is usually smaller than one batch: opening
/// the file, writing, closing and renaming it are then one round trip to a worker and back, not four, each of
/// which the connection's slot would wait for. The stream is used by one thread at a time: the worker's, until
/// it hands it back.
public final class FileOutputStream {
    public enum Mode: Sendable, Equatable {
        /// A new file; fails with `G_IO_ERROR_EXISTS` if there is one already, a symbolic link too (two writers
        /// never share it, and nothing is written through a link). Permissions follow the umask, as for any file
        /// the user saves.
        case create
        /// Continues at the end of an existing file (a resumed download), which must still be the one the caller
        /// saw: opened without following a symbolic link, a regular file of this user with no other name (a
        /// hard link would write into another file) and `expectedBytes` long. Anything else fails to open with
        /// `G_IO_ERROR_NOT_REGULAR_FILE` (see `isNotTheListedFile`), and nothing is written.
        case append(expectedBytes: Int)
    }

    /// The extended attribute (GIO's "xattr::" namespace, "user." on disk) a created file keeps its `tag` in:
    /// for a download, the validator its resume sends as `If-Range`.
    public static let resumeTagAttribute = "gallery-viewer.if-range"

    /// An `.open` failure of `.append` because the file is not the one expected (see `Mode.append`).
    public static func isNotTheListedFile(_ error: GLibError) -> Bool {
        error.matches(G_IO_ERROR_NOT_REGULAR_FILE) || error.matches(G_IO_ERROR_TOO_MANY_LINKS)
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
    /// deleted again: the caller never learns of it. A file this call creates keeps `tag` as its
    /// `resumeTagAttribute` where the file system has extended attributes. Not cancellable, on purpose: what a download received is
    /// written and its file closed properly also while it is being stopped, for the next run to resume.
    @MainActor
    public static func perform(on stream: FileOutputStream?, file: File, mode: Mode, writing chunks: [Bytes],
                               tag: String? = nil, then ending: Ending, completion: @escaping @MainActor (Result<FileOutputStream?, StepError>) -> Void) {
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
                if let opened { handOver = opened } else { handOver = try open(source, mode: mode, tag: tag) }
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
    private nonisolated static func open(_ file: HandOver, mode: Mode, tag: String?) throws(StepError) -> HandOver {
        do throws(GLibError) {
            switch mode {
            case .create:
                let stream = try GLibError.check { error in g_file_create(file.ref.opaque, G_FILE_CREATE_NONE, nil, error) }
                if let tag {
                    // Best effort: without the tag a resume is only checked by its Content-Range.
                    g_file_set_attribute_string(file.ref.opaque, "xattr::" + resumeTagAttribute, tag,
                                                G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS, nil, nil)
                }
                return HandOver(ObjectRef(stream!, transfer: .full))
            case .append(let expectedBytes):
                return try openForAppending(file, expectedBytes: expectedBytes)
            }
        } catch {
            throw .open(error)
        }
    }

    /// The checks of `Mode.append`, made on the descriptor that is then written: nothing can be swapped in
    /// between. O_NONBLOCK: opening a FIFO planted under the name must not wait for a reader.
    private nonisolated static func openForAppending(_ file: HandOver, expectedBytes: Int) throws(GLibError) -> HandOver {
        let path = takeString(g_file_get_path(file.ref.opaque)) ?? ""
        let fd = Glibc.open(path, O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            let code = errno
            // O_NOFOLLOW on a symbolic link: ELOOP.
            let ioCode = code == ELOOP ? G_IO_ERROR_NOT_REGULAR_FILE : g_io_error_from_errno(code)
            throw GLibError(domain: gv_io_error_quark(), code: Int32(ioCode.rawValue), message: String(cString: strerror(code)))
        }
        var info = stat()
        let listed = fstat(fd, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG && info.st_uid == geteuid()
            && info.st_nlink == 1 && Int(info.st_size) == expectedBytes
        guard listed, fcntl(fd, F_SETFL, O_WRONLY | O_APPEND) == 0 else {
            Glibc.close(fd)
            throw GLibError(domain: gv_io_error_quark(), code: Int32(G_IO_ERROR_NOT_REGULAR_FILE.rawValue),
                            message: "not the file that was listed")
        }
        return HandOver(ObjectRef(g_unix_output_stream_new(fd, 1)!, transfer: .full))
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
