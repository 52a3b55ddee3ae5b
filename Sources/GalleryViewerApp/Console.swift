#if canImport(Glibc)
import Glibc
#endif
import GalleryCore

/// Messages for the terminal. Standard error is written with write(2), which needs no shared FILE state.
enum Console {
    /// Writes `message` without control characters: it carries usernames, server replies and reasons that
    /// could otherwise move the cursor or recolour the terminal.
    static func error(_ message: String) {
        let line = "gallery-viewer: \(DisplayText.clean(message, limit: 2000))\n"
        _ = line.utf8CString.withUnsafeBufferPointer { write(STDERR_FILENO, $0.baseAddress, $0.count - 1) }
    }
}
