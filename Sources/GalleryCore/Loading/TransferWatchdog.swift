import GObjectBindings

/// Ends a request whose data arrives too slowly to ever finish in reasonable time: a server that drips a few
/// bytes every second never trips libsoup's "no data for N s" timeout, and would hold one of a host's few
/// connections forever. The rule is a throughput floor over a window, not a total deadline, so a big original
/// on a slow line (which moves kilobytes per second) still arrives however long it takes.
@MainActor
final class TransferWatchdog {
    let minimumBytesPerSecond: Int
    let windowSeconds: Int
    private let abandon: @MainActor () -> Void
    private var receivedInWindow = 0
    private var timer: MainLoopSource?
    private var started = false
    private(set) var fired = false

    /// `abandon` runs once if, after `start`, a window passes with less than its share of bytes (time to
    /// the response headers counts, so a server that never answers is caught too).
    init(minimumBytesPerSecond: Int, windowSeconds: Int, abandon: @escaping @MainActor () -> Void) {
        self.minimumBytesPerSecond = minimumBytesPerSecond
        self.windowSeconds = windowSeconds
        self.abandon = abandon
    }

    /// Starts the first window: when the request leaves libsoup's queue for a connection, not when it is
    /// queued — a request waiting its turn behind a host's busy connections is not slow. Later calls (and
    /// calls after `stop`) do nothing.
    func start() {
        guard !started else { return }
        started = true
        guard minimumBytesPerSecond > 0, windowSeconds > 0 else { return }
        let minimumPerWindow = minimumBytesPerSecond * windowSeconds
        timer = MainLoopSource.every(milliseconds: UInt32(windowSeconds) * 1000) { [weak self] in
            guard let self else { return false }
            guard self.receivedInWindow >= minimumPerWindow else {
                self.fired = true
                self.timer = nil
                self.abandon()
                return false
            }
            self.receivedInWindow = 0
            return true
        }
    }

    isolated deinit { timer?.cancel() }

    func received(_ count: Int) { receivedInWindow += count }

    func stop() {
        started = true
        timer?.cancel()
        timer = nil
    }
}
