import GObjectBindings

/// Ends a request whose data arrives too slowly to ever finish in reasonable time: a server that drips a few
/// bytes every second never trips libsoup's "no data for N s" timeout, and would hold one of a host's few
/// connections forever. The rule is a throughput floor over a window, not a total deadline, so a big original
/// on a slow line (which moves kilobytes per second) still arrives however long it takes.
@MainActor
final class TransferWatchdog {
    let minimumBytesPerSecond: Int
    let windowSeconds: Int
    private var receivedInWindow = 0
    private var timer: MainLoopSource?
    private(set) var fired = false

    /// Starts watching; `abandon` runs once if a window passes with less than its share of bytes (time to
    /// the response headers counts, so a server that never answers is caught too).
    init(minimumBytesPerSecond: Int, windowSeconds: Int, abandon: @escaping @MainActor () -> Void) {
        self.minimumBytesPerSecond = minimumBytesPerSecond
        self.windowSeconds = windowSeconds
        guard minimumBytesPerSecond > 0, windowSeconds > 0 else { return }
        timer = MainLoopSource.every(milliseconds: UInt32(windowSeconds) * 1000) { [weak self] in
            guard let self else { return false }
            guard self.receivedInWindow >= minimumBytesPerSecond * windowSeconds else {
                self.fired = true
                self.timer = nil
                abandon()
                return false
            }
            self.receivedInWindow = 0
            return true
        }
    }

    isolated deinit { timer?.cancel() }

    func received(_ count: Int) { receivedInWindow += count }

    func stop() {
        timer?.cancel()
        timer = nil
    }
}
