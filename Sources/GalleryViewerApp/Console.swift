#if canImport(Glibc)
import Glibc
#endif

/// Messages for the terminal. Standard error is written with write(2), which needs no shared FILE state.
enum Console {
    static func error(_ message: String) {
        let line = "gallery-viewer: \(message)\n"
        _ = line.utf8CString.withUnsafeBufferPointer { write(STDERR_FILENO, $0.baseAddress, $0.count - 1) }
    }
}
