import CGLib
#if canImport(Glibc)
import Glibc
#endif

/// The few synchronous file-system calls the app makes on the main loop: each a system call or two of a few
/// microseconds, once per launch or per user action, not worth a thread. Anything that reads a file or walks
/// a directory is `File` (GIO's async API) or `DirectoryScan` (on a worker).
public enum FileSystem {
    /// `$XDG_CONFIG_HOME`, else ~/.config, as GLib resolves it.
    public static var userConfigDirectory: String { string(g_get_user_config_dir()) ?? "." }

    /// `$XDG_CACHE_HOME`, else ~/.cache, as GLib resolves it.
    public static var userCacheDirectory: String { string(g_get_user_cache_dir()) ?? "." }

    /// `$XDG_DATA_HOME`, else ~/.local/share, as GLib resolves it.
    public static var userDataDirectory: String { string(g_get_user_data_dir()) ?? "." }

    /// Everything before the last path component ("." when there is none).
    public static func directoryName(of path: String) -> String { takeString(g_path_get_dirname(path)) ?? "." }

    /// The last path component.
    public static func baseName(of path: String) -> String { takeString(g_path_get_basename(path)) ?? path }

    /// Makes `path`, and any parent it lacks, a directory only its owner may enter (0700), and narrows an
    /// existing one made with wider permissions: what is kept there says what the user looks at. False when
    /// it is not such a directory afterwards.
    @discardableResult
    public static func makePrivateDirectory(_ path: String) -> Bool {
        g_mkdir_with_parents(path, 0o700) == 0 && chmod(path, 0o700) == 0
    }

    /// Renames `path` to `destination` (rename(2): within one file system the destination appears whole or
    /// not at all, replacing what was there). False when it failed (e.g. `path` does not exist).
    @discardableResult
    public static func rename(_ path: String, to destination: String) -> Bool {
        Glibc.rename(path, destination) == 0
    }

    /// Writes `bytes` to `path` whole or not at all: a temporary file beside it, readable by its owner only,
    /// renamed over it (a link planted at `path` is replaced, never followed). Synchronous, for the quit, when
    /// no frame waits (a few megabytes); anything else writes through `File.replaceContents`.
    @discardableResult
    public static func replaceContents(of path: String, with bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { characters in
                g_file_set_contents_full(path, characters.baseAddress, gssize(characters.count),
                                         G_FILE_SET_CONTENTS_CONSISTENT, 0o600, nil) != 0
            }
        }
    }
}

/// An exclusive lock on a file (flock(2), advisory), held while this object lives and released when it goes
/// or the process ends: how a process claims a directory that two processes must not share.
public final class FileLock: Sendable {
    private let descriptor: Int32

    /// Takes the lock on `path` (made 0600 when missing) without waiting; nil when the file cannot be opened
    /// or another process holds the lock.
    public init?(path: String) {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return nil }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            return nil
        }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }
}
