import CGLib
import Glibc

/// A GFile. Reading goes through GIO's asynchronous API (done on GIO's worker threads), so the main loop never
/// blocks on the disk.
public final class File {
    public let ref: ObjectRef

    public init(path: String) {
        ref = ObjectRef(g_file_new_for_path(path), transfer: .full)
    }

    public var path: String? { takeString(g_file_get_path(ref.opaque)) }

    /// Whether anything (a file, a folder…) is at `path`. A quick look for start-up, not a check before use.
    public static func exists(atPath path: String) -> Bool {
        g_file_test(path, G_FILE_TEST_EXISTS) != 0
    }

    /// Creates the folder at `path` and any missing parent, with `mode` (e.g. 0o755); a folder already there is
    /// fine. Synchronous: a few mkdir(2) calls, for a command's start.
    public static func makeDirectories(atPath path: String, mode: Int32) throws(GLibError) {
        guard g_mkdir_with_parents(path, mode) != 0 else { return }
        let number = errno
        throw GLibError(domain: gv_io_error_quark(), code: Int32(g_io_error_from_errno(number).rawValue),
                        message: string(g_strerror(number)) ?? "errno \(number)")
    }

    /// Reads a small text file (a stylesheet, a stamp, a key file) synchronously; nil if it cannot be read.
    /// Only for files of a few kilobytes: anything bigger goes through `loadContents`.
    public static func smallText(atPath path: String) -> String? {
        var contents: UnsafeMutablePointer<CChar>?
        guard g_file_get_contents(path, &contents, nil, nil) != 0 else { return nil }
        return takeString(contents)
    }

    /// `smallText`, or nil for a file over `maxBytes` (a file of the app's that something else filled).
    public static func smallText(atPath path: String, maxBytes: Int) -> String? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_size <= maxBytes else { return nil }
        return smallText(atPath: path)
    }

    /// Reads the whole file; `completion` runs on the main loop with its bytes or the GIO error
    /// (e.g. `G_IO_ERROR_NOT_FOUND`).
    @MainActor
    public func loadContents(cancellable: Cancellable? = nil,
                             completion: @escaping @MainActor (Result<Bytes, GLibError>) -> Void) {
        // The callback captures `self`, so this wrapper (and its GFile reference) lives until it ran.
        AsyncCallback { _, result in
            let file = self.ref.opaque
            var contents: UnsafeMutablePointer<CChar>?
            var length: gsize = 0
            do throws(GLibError) {
                _ = try GLibError.check { error in
                    g_file_load_contents_finish(file, result, &contents, &length, nil, error)
                }
                completion(.success(Bytes(owning: g_bytes_new_take(contents, length))))
            } catch {
                completion(.failure(error))
            }
        }.pass { g_file_load_contents_async(ref.opaque, cancellable?.pointer, $0, $1) }
    }

    /// Replaces the file's contents without blocking: GIO writes a temporary file next to it and renames it
    /// over the old one, so a crash mid-write leaves the old file, never half a new one. With `private`, a new
    /// file is readable by its owner only (0600). `completion` runs on the main loop.
    @MainActor
    public func replaceContents(_ bytes: Bytes, private: Bool = false, cancellable: Cancellable? = nil,
                                completion: @escaping @MainActor (GLibError?) -> Void) {
        let flags = GFileCreateFlags(rawValue: G_FILE_CREATE_REPLACE_DESTINATION.rawValue
                                     | (`private` ? G_FILE_CREATE_PRIVATE.rawValue : 0))
        AsyncCallback { _, result in
            let file = self.ref.opaque
            do throws(GLibError) {
                _ = try GLibError.check { error in g_file_replace_contents_finish(file, result, nil, error) }
                completion(nil)
            } catch {
                completion(error)
            }
        }.pass { g_file_replace_contents_bytes_async(ref.opaque, bytes.pointer, nil, 0, flags, cancellable?.pointer, $0, $1) }
    }
}
