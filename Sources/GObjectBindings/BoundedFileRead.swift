#if canImport(Glibc)
import Glibc
#endif

/// Reads a regular file of at most `maxBytes` (a list the user picked to import, a file the app kept):
/// synchronous, so run it on a worker. Anything else — a device, a FIFO, a directory, a larger file — is refused
/// without reading it whole: at most one byte more than the limit is read, and a FIFO cannot hold the worker
/// (opened without waiting).
public enum BoundedFileRead {
    public enum Problem: Error, Sendable, Equatable {
        case tooLarge
        case notAFile
        case failed(String)
    }

    public static func read(atPath path: String, maxBytes: Int) -> Result<[UInt8], Problem> {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(.failed(String(cString: strerror(errno)))) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return .failure(.failed(String(cString: strerror(errno)))) }
        guard info.st_mode & S_IFMT == S_IFREG else { return .failure(.notAFile) }
        guard info.st_size <= maxBytes else { return .failure(.tooLarge) }
        // Room for the size it has and one byte more (which tells that it grew while read), then more as it
        // grows, never past one byte over the limit: a small file of a large bound costs its own size.
        let limit = maxBytes + 1
        var bytes = [UInt8](repeating: 0, count: min(limit, Int(info.st_size) + 1))
        var count = 0
        while count < limit {
            if count == bytes.count { bytes += [UInt8](repeating: 0, count: min(limit - count, max(count, 4096))) }
            let got = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + count, $0.count - count) }
            if got == 0 { break }
            if got < 0 {
                if errno == EINTR { continue }
                return .failure(.failed(String(cString: strerror(errno))))
            }
            count += got
        }
        // The file grew while it was read.
        guard count <= maxBytes else { return .failure(.tooLarge) }
        bytes.removeSubrange(count...)
        return .success(bytes)
    }
}
