#if canImport(Glibc)
import Glibc
#endif
import GObjectBindings
import GalleryCore

/// `--download`'s progress on standard error: on a terminal, one line redrawn ten times a second —
/// a bar, items done of the total, bytes, rate and time left; otherwise (a log, a pipe) one plain line
/// per finished item, so nothing is ever overwritten with carriage returns.
@MainActor
final class TerminalProgress {
    let isTerminal = isatty(STDERR_FILENO) != 0
    private var redraw: MainLoopSource?
    private var progress = GalleryDownloader.Progress()
    private var status: String?
    private var barShown = false
    /// (microseconds, bytes received) over the last few seconds, for the rate.
    private var samples: [(time: Int, bytes: Int)] = []
    private let started = MonotonicClock.microseconds

    /// A line about the current phase ("Reading aurora's gallery… page 2, 48 images").
    func showStatus(_ text: String) {
        status = text
        if isTerminal { draw() }
    }

    /// New counts. On a terminal the bar follows at its own pace; nothing is printed here otherwise.
    func update(_ progress: GalleryDownloader.Progress) {
        self.progress = progress
        status = nil
        guard isTerminal, redraw == nil else { return }
        redraw = MainLoopSource.every(milliseconds: 100) { [weak self] in
            self?.draw()
            return true
        }
    }

    /// A line that stays: above the bar on a terminal, with the counts in front otherwise. `text` may carry
    /// what a server sent (reasons): its control characters are dropped.
    func log(_ text: String) {
        let text = DisplayText.clean(text, limit: 2000)
        let line = isTerminal ? text : "[\(progress.finished)/\(progress.total)] \(text) · \(figures)"
        clearBar()
        Self.writeError(line + "\n")
        if isTerminal { draw() }
    }

    /// Removes the bar for the final summary.
    func finish() {
        redraw?.cancel()
        redraw = nil
        clearBar()
    }

    private func draw() {
        let line: String
        if let status {
            line = status
        } else {
            let counts = " \(progress.finished)/\(progress.total) · \(figures)"
            let barWidth = max(10, min(40, Self.columns - counts.count - 3))
            let done = progress.total == 0 ? 1 : Double(progress.finished) / Double(progress.total)
            let filled = Int(done * Double(barWidth))
            let bar: String = String(repeating: "#", count: filled) + String(repeating: ".", count: barWidth - filled)
            line = "[\(bar)]\(counts)"
        }
        // Carriage return, the line cut to the terminal's width, then erase what an older, longer line left.
        Self.writeError("\r" + String(line.prefix(Self.columns - 1)) + "\u{1B}[K")
        barShown = true
    }

    private func clearBar() {
        guard isTerminal, barShown else { return }
        Self.writeError("\r\u{1B}[K")
        barShown = false
    }

    /// "34.2 MB · 5.1 MB/s · ETA 0:07"
    private var figures: String {
        let rate = bytesPerSecond
        var text = Self.size(progress.bytesReceived)
        if rate > 0 { text += " · \(Self.size(Int(rate)))/s" }
        let startedCount = progress.saved + progress.running
        if rate > 0, startedCount > 0 {
            let averageFile = Double(progress.bytesReceived + progress.activeRemainingBytes) / Double(startedCount)
            let remaining = Double(progress.activeRemainingBytes) + averageFile * Double(max(0, progress.notStarted))
            // TRANSLATORS: the time left of --download, such as 0:07 (estimated time of arrival).
            text += " · " + tr("ETA {time}", ["time": Self.duration(remaining / rate)])
        }
        return text
    }

    /// Over the last five seconds, so the figure follows changes without jumping at every chunk.
    private var bytesPerSecond: Double {
        let now = MonotonicClock.microseconds
        if samples.last.map({ now - $0.time >= 250_000 }) ?? true { samples.append((now, progress.bytesReceived)) }
        samples.removeAll { now - $0.time > 5_000_000 }
        guard let oldest = samples.first, now - oldest.time >= 500_000 else {
            let elapsed = Double(now - started) / 1_000_000
            return elapsed > 0.5 ? Double(progress.bytesReceived) / elapsed : 0
        }
        return Double(progress.bytesReceived - oldest.bytes) / (Double(now - oldest.time) / 1_000_000)
    }

    static func size(_ bytes: Int) -> String { SizeText.format(bytes) }

    static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds < 360_000 else { return "--:--" }
        let total = Int(seconds.rounded(.up))
        let (hours, minutes, secs) = (total / 3600, total / 60 % 60, total % 60)
        let padded = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(padded(minutes)):\(padded(secs))" : "\(minutes):\(padded(secs))"
    }

    private static var columns: Int {
        var size = winsize()
        if ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return 80
    }

    static func writeError(_ text: String) {
        _ = text.utf8CString.withUnsafeBufferPointer { write(STDERR_FILENO, $0.baseAddress, $0.count - 1) }
    }
}
