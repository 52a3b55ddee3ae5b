import CGLib
import CGtk
import GObjectBindings
import Glibc

/// Numbers from /proc/self/status beyond the resident size (see Memory): the peak, and the thread count.
enum ProcessStats {
    /// VmHWM: the highest VmRSS this process ever had, in MiB (each scenario is its own process).
    static func peakResidentMiB() -> Double { field("VmHWM:").map { $0 / 1024 } ?? .nan }

    /// CPU time of the whole process so far (every thread), in seconds.
    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1_000_000
    }

    /// Threads of this process now: GTK's, GLib's worker pool, libsoup's resolver, and any the app made.
    static func threads() -> Int { field("Threads:").map { Int($0) } ?? -1 }

    /// A "Name:  value [kB]" line's value.
    static func field(_ name: String) -> Double? {
        var contents: UnsafeMutablePointer<CChar>?
        guard g_file_get_contents("/proc/self/status", &contents, nil, nil) != 0,
              let text = takeString(contents) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(name) {
            return line.dropFirst(name.count).split(whereSeparator: { $0 == " " || $0 == "\t" }).first.flatMap { Double($0) }
        }
        return nil
    }
}

/// Samples resident memory and threads on a timer while a scenario runs, keeping the maxima.
@MainActor
final class ProcessSampler {
    private(set) var maxThreads = 0
    private(set) var maxResidentMiB = 0.0
    private var source: MainLoopSource?

    func start(everyMilliseconds interval: UInt32 = 250) {
        sample()
        source = MainLoopSource.every(milliseconds: interval) { [weak self] in
            self?.sample()
            return true
        }
    }

    func stop() {
        source?.cancel()
        source = nil
        sample()
    }

    private func sample() {
        maxThreads = max(maxThreads, ProcessStats.threads())
        maxResidentMiB = max(maxResidentMiB, Memory.residentMiB())
    }
}
