import CGLib
#if canImport(Glibc)
import Glibc
#endif

/// Blocking walks over one flat directory (a cache's files), for GTask worker threads only: a cache holds
/// tens of thousands of files, and stat-ing or deleting them all takes the disk's time, never the main loop's.
public enum DirectoryScan {
    /// Bytes in the regular files directly inside `path` (subdirectories are not entered). 0 when it
    /// cannot be read.
    public static func totalFileBytes(in path: String) -> Int {
        var total = 0
        forEachEntry(in: path) { _, entryPath in
            var info = stat()
            if lstat(entryPath, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG { total += Int(info.st_size) }
        }
        return total
    }

    /// Deletes the regular files directly inside `path`, then the directory itself if it is then empty.
    /// Returns the bytes the deleted files held. Symbolic links are removed, never followed.
    @discardableResult
    public static func removeFlatDirectory(_ path: String) -> Int {
        var freed = 0
        forEachEntry(in: path) { _, entryPath in
            var info = stat()
            guard lstat(entryPath, &info) == 0, (info.st_mode & S_IFMT) != S_IFDIR else { return }
            if unlink(entryPath) == 0, (info.st_mode & S_IFMT) == S_IFREG { freed += Int(info.st_size) }
        }
        rmdir(path)
        return freed
    }

    /// Deletes the regular files and links directly inside `path` last modified more than `seconds` ago, but
    /// not those named in `keeping` (one being written now under an old name). Returns how many were deleted.
    @discardableResult
    public static func removeFiles(in path: String, olderThan seconds: Int, keeping: [String] = []) -> Int {
        let now = time(nil)
        var removed = 0
        forEachEntry(in: path) { name, entryPath in
            var info = stat()
            guard !keeping.contains(name), lstat(entryPath, &info) == 0, (info.st_mode & S_IFMT) != S_IFDIR,
                  now - info.st_mtim.tv_sec > seconds else { return }
            if unlink(entryPath) == 0 { removed += 1 }
        }
        return removed
    }

    /// Deletes what writes through a temporary file left directly inside `path` when their process was killed
    /// before the rename: `g_file_set_contents` writes NAME.XXXXXX beside each of `names`, GIO's replace
    /// `.goutputstream-XXXXXX`. Only regular files last changed before `changedBefore` (seconds since the epoch)
    /// go, so a write under way since then (this process's own) is never cut off. Returns how many were deleted.
    @discardableResult
    public static func removeInterruptedWrites(in path: String, of names: [String], changedBefore: Int) -> Int {
        let prefixes = names.map { $0 + "." } + [".goutputstream-"]
        var removed = 0
        forEachEntry(in: path) { name, entryPath in
            guard let prefix = prefixes.first(where: name.hasPrefix), isTemporarySuffix(name.dropFirst(prefix.count)) else { return }
            var info = stat()
            guard lstat(entryPath, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_mtim.tv_sec < changedBefore else { return }
            if unlink(entryPath) == 0 { removed += 1 }
        }
        return removed
    }

    /// The six letters and digits `g_mkstemp` puts in place of XXXXXX.
    private static func isTemporarySuffix(_ suffix: Substring) -> Bool {
        suffix.utf8.count == 6 && suffix.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
    }

    /// The size of the regular file at `path`; nil when there is none. One stat: cheap enough for the main
    /// loop, and it lets a caller refuse to read a file bigger than it should be.
    public static func fileBytes(at path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(info.st_size)
    }

    /// Names of the entries directly inside `path` ("." and ".." excluded); empty when it cannot be read.
    public static func names(in path: String) -> [String] {
        var names: [String] = []
        forEachEntry(in: path) { name, _ in names.append(name) }
        return names
    }

    private static func forEachEntry(in path: String, _ body: (_ name: String, _ path: String) -> Void) {
        guard let directory = g_dir_open(path, 0, nil) else { return }
        defer { g_dir_close(directory) }
        while let cName = g_dir_read_name(directory) {
            let name = String(cString: cName)
            body(name, path + "/" + name)
        }
    }
}
