import CGLib
import CGtk
import GObjectBindings
import Glibc
import Histogram

/// Measures how promptly the GLib main loop gets back to its sources while the app works.
///
/// A repeating timer at G_PRIORITY_HIGH fires every 5 ms and records the time since its previous firing.
/// GLib dispatches one priority level per iteration and nothing pre-empts a callback, so a gap much longer
/// than 5 ms means some single piece of main-loop work (a signal handler, a completion, a GTK layout or
/// paint) ran that long — exactly what a user feels as a frozen window. Being higher priority than
/// everything else in the app, the probe measures blocking, not queueing behind other ready sources.
///
/// With each gap goes what the main thread did in it, from the kernel's own account of the thread
/// (/proc/thread-self/schedstat): its CPU time (the app's own work: one long callback or frame) and the time it
/// was ready to run but waited for a core. Taking that wait out leaves the gap the app makes itself — its work
/// and its synchronous waits (an X server round trip) — whatever else the machine runs: the *own* gap. On the
/// project's shared 2-core machines other engineers' compilers take cores for tens of milliseconds; the app's
/// own worker threads, which yield to the main thread (nice 10), rarely do. `GALLERY_BENCH_GAP_LOG=PATH`
/// appends every gap of 8 ms or more to PATH ("start end gap cpu own-gap page-faults steal"; times in µs of the
/// monotonic clock, steal in ms: the machine's, all cores, as /proc/stat counts it), to line it up with a profile
/// (`perf record -k CLOCK_MONOTONIC`) and with the hypervisor's pauses, which the guest may charge to the
/// thread that was running.
///
/// Two distributions are kept (HdrHistogram, µs, 3 significant digits):
/// - the raw gaps, one sample per firing — the worst gap and its percentiles;
/// - the same with coordinated-omission correction: a 200 ms stall also counts the firings it swallowed
///   (195, 190, … 5 ms late), so its percentiles answer "how late would an event arriving at a random
///   moment have been handled", which a single long gap in thousands of samples would otherwise hide.
@MainActor
final class MainLoopProbe {
    static let intervalMilliseconds: UInt32 = 5

    struct Summary {
        var samples: Int
        var seconds: Double
        var worstMilliseconds: Double
        /// The most main-thread CPU time between two firings: the longest piece of the app's own work, as the
        /// thread's CPU clock counts it.
        var worstBusyMilliseconds: Double
        /// The main-thread CPU time between two firings that only one window in a thousand exceeds: what
        /// `Report.mainThreadWorkGoal` checks (see `Goals.mainThreadWorkMilliseconds` for why not the worst).
        /// Under a thousand windows it is the worst.
        var workMilliseconds: Double
        /// Page faults the main thread took in that piece of work. Each first touch of a page is a fault,
        /// paid in this thread's CPU time, at a price that varies on the project's virtual machines (their
        /// balloon hands freed pages back to the host): thousands of faults in the worst piece of work say
        /// much of it was memory coming in, not the app's code.
        var worstBusyPageFaults: Int
        /// The longest gap less the time the main thread waited for a core in it (see above).
        var worstOwnMilliseconds: Double
        var ownP99Milliseconds: Double
        var p50Milliseconds: Double
        var p99Milliseconds: Double
        var correctedP99Milliseconds: Double
        /// Gaps of 50 ms or more (several missed frames at 60 Hz).
        var gapsOver50: Int
        /// When the worst gap ended, in seconds of recording, to line it up with the scenario's log.
        var worstAtSeconds: Double
    }

    private var source: MainLoopSource?
    private var started: Int = 0
    private var last: Int = 0
    private var lastCPU: Int = 0
    private var worst: Int = 0
    private var worstBusy: Int = 0
    /// The most main-thread CPU time between two firings since `takeRoundWorstBusyMilliseconds`.
    private var roundWorstBusy: Int = 0
    private var worstBusyFaults: Int = 0
    private var lastFaults: Int = 0
    private var worstOwn: Int = 0
    private var lastWait: Int = 0
    private var lastSteal: Int = 0
    private let schedstat = open("/proc/thread-self/schedstat", O_RDONLY)
    private let gapLog: UnsafeMutablePointer<FILE>? = getenv("GALLERY_BENCH_GAP_LOG").flatMap { fopen($0, "a") }
    /// Recording time (pauses excluded) at the end of the worst gap.
    private var worstAt: Int = 0
    private var over50 = 0
    private var raw = Histogram<UInt64>(highestTrackableValue: 120_000_000, numberOfSignificantValueDigits: .three)
    private var corrected = Histogram<UInt64>(highestTrackableValue: 120_000_000, numberOfSignificantValueDigits: .three)
    private var own = Histogram<UInt64>(highestTrackableValue: 120_000_000, numberOfSignificantValueDigits: .three)
    /// The main thread's CPU time in each window between two firings.
    private var busyWindows = Histogram<UInt64>(highestTrackableValue: 120_000_000, numberOfSignificantValueDigits: .three)

    isolated deinit {
        if let gapLog { fclose(gapLog) }
        if schedstat >= 0 { close(schedstat) }
    }

    /// Microseconds this thread has waited, runnable, for a core (0 where the kernel keeps no account).
    private func runQueueWaitMicroseconds() -> Int {
        guard schedstat >= 0 else { return 0 }
        var buffer = [UInt8](repeating: 0, count: 96)
        let count = buffer.withUnsafeMutableBytes { pread(schedstat, $0.baseAddress, 95, 0) }
        guard count > 0 else { return 0 }
        let fields = String(decoding: buffer.prefix(count), as: UTF8.self).split(separator: " ")
        return fields.count > 1 ? (Int(fields[1]) ?? 0) / 1000 : 0
    }

    /// Milliseconds the hypervisor took from the machine's cores (/proc/stat's steal column); read only for the gap log.
    private func machineStealMilliseconds() -> Int {
        guard gapLog != nil else { return 0 }
        let file = open("/proc/stat", O_RDONLY)
        guard file >= 0 else { return 0 }
        defer { close(file) }
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = buffer.withUnsafeMutableBytes { read(file, $0.baseAddress, 256) }
        guard count > 0 else { return 0 }
        let fields = String(decoding: buffer.prefix(count), as: UTF8.self).prefix { $0 != "\n" }.split(separator: " ")
        // "cpu user nice system idle iowait irq softirq steal …", in 1/100 s.
        return fields.count > 8 ? (Int(fields[8]) ?? 0) * 10 : 0
    }

    /// Page faults, minor and major, this thread has taken.
    private func threadPageFaults() -> Int {
        var usage = rusage()
        // RUSAGE_THREAD (1): glibc declares it only under _GNU_SOURCE, which Swift's Glibc module is not built with.
        guard getrusage(__rusage_who_t(1), &usage) == 0 else { return 0 }
        return usage.ru_minflt + usage.ru_majflt
    }

    /// Probes recording now, for `pausing`.
    private static var recording: [ObjectIdentifier: WeakProbe] = [:]

    private struct WeakProbe {
        weak var probe: MainLoopProbe?
    }

    /// Runs harness work with every recording probe paused: starting or reaping a child process (xdotool, a
    /// key's release) forks this large process or waits for the child, which is the benchmark's own stall,
    /// not the app's. The time counts neither as a gap nor in `seconds`.
    static func pausing<T>(_ body: () -> T) -> T {
        let probes = recording.values.compactMap(\.probe).filter { $0.source != nil }
        probes.forEach { $0.pause() }
        defer { probes.forEach { $0.resume() } }
        return body()
    }

    private func pause() {
        source?.cancel()
        source = nil
    }

    /// Starts (or resumes) recording; a resumed probe adds to what it recorded before, and the time it
    /// was stopped counts neither as a gap nor in `seconds`.
    func start() {
        precondition(source == nil, "probe already running")
        Self.recording[ObjectIdentifier(self)] = WeakProbe(probe: self)
        resume()
    }

    private func resume() {
        let now = g_get_monotonic_time()
        started = now - (last - started)
        last = now
        lastCPU = threadCPUMicroseconds()
        lastFaults = threadPageFaults()
        lastWait = runQueueWaitMicroseconds()
        lastSteal = machineStealMilliseconds()
        source = MainLoopSource.every(milliseconds: Self.intervalMilliseconds, priority: G_PRIORITY_HIGH) { [weak self] in
            self?.tick()
            return true
        }
    }

    /// The most main-thread CPU time between two firings since the last call (or the start): one round's
    /// longest piece of work, in a scenario that repeats its rounds on one probe.
    func takeRoundWorstBusyMilliseconds() -> Double {
        defer { roundWorstBusy = 0 }
        return Double(roundWorstBusy) / 1000
    }

    /// Stops recording; the summary covers everything recorded so far.
    @discardableResult
    func stop() -> Summary {
        Self.recording[ObjectIdentifier(self)] = nil
        source?.cancel()
        source = nil
        if let gapLog { fflush(gapLog) }
        return summary
    }

    var summary: Summary {
        let ms = { (microseconds: UInt64) in Double(microseconds) / 1000 }
        return Summary(samples: Int(raw.totalCount), seconds: Double(last - started) / 1_000_000,
                       worstMilliseconds: Double(worst) / 1000, worstBusyMilliseconds: Double(worstBusy) / 1000,
                       workMilliseconds: ms(busyWindows.valueAtPercentile(99.9)),
                       worstBusyPageFaults: worstBusyFaults,
                       worstOwnMilliseconds: Double(worstOwn) / 1000, ownP99Milliseconds: ms(own.valueAtPercentile(99)),
                       p50Milliseconds: ms(raw.valueAtPercentile(50)),
                       p99Milliseconds: ms(raw.valueAtPercentile(99)),
                       correctedP99Milliseconds: ms(corrected.valueAtPercentile(99)),
                       gapsOver50: over50, worstAtSeconds: Double(worstAt) / 1_000_000)
    }

    private func tick() {
        let now = g_get_monotonic_time()
        let cpuNow = threadCPUMicroseconds()
        let gap = now - last
        let busy = cpuNow - lastCPU
        let faultsNow = threadPageFaults()
        let faults = faultsNow - lastFaults
        let waitNow = runQueueWaitMicroseconds()
        let ownGap = max(0, gap - (waitNow - lastWait))
        let stealNow = machineStealMilliseconds()
        if gap >= 8000, let gapLog { fputs("\(last) \(now) \(gap) \(busy) \(ownGap) \(faults) \(stealNow - lastSteal)\n", gapLog) }
        lastSteal = stealNow
        last = now
        lastCPU = cpuNow
        lastFaults = faultsNow
        lastWait = waitNow
        if busy > worstBusy { (worstBusy, worstBusyFaults) = (busy, faults) }
        roundWorstBusy = max(roundWorstBusy, busy)
        worstOwn = max(worstOwn, ownGap)
        own.record(UInt64(ownGap))
        busyWindows.record(UInt64(max(0, busy)))
        raw.record(UInt64(gap))
        corrected.recordCorrectedValue(UInt64(gap), expectedInterval: UInt64(Self.intervalMilliseconds) * 1000)
        if gap >= 50_000 { over50 += 1 }
        if gap > worst {
            worst = gap
            worstAt = now - started
        }
    }
}

extension Report {
    /// Issue 14's goal for every scenario that watches the main loop while the app is in use: no piece of the
    /// app's own work on the main thread longer than a 60 Hz frame (`Goals.mainThreadWorkMilliseconds`).
    /// `milliseconds` is a `Summary.workMilliseconds`, or the median round's worst window in a scenario of
    /// repeated rounds (see `Goals.mainThreadWorkMilliseconds`).
    func mainThreadWorkGoal(_ name: String = "main-thread-work", work milliseconds: Double) {
        goal(name, measured: milliseconds, atMost: Goals.mainThreadWorkMilliseconds, unit: "ms")
    }

    /// The probe's numbers as table rows under a section.
    func loopRows(_ summary: MainLoopProbe.Summary, title: String) {
        section("\(title): main-loop gaps (5 ms high-priority timer)")
        row("worst gap", Format.milliseconds(summary.worstMilliseconds),
            "at \(Format.number(summary.worstAtSeconds, digits: 2)) s")
        row("worst gap of its own", Format.milliseconds(summary.worstOwnMilliseconds),
            "less the main thread's wait for a core; p99 \(Format.milliseconds(summary.ownP99Milliseconds))")
        row("worst main-thread work", Format.milliseconds(summary.worstBusyMilliseconds),
            "most CPU time between two firings; \(summary.worstBusyPageFaults) page faults in it")
        row("main-thread work, p99.9", Format.milliseconds(summary.workMilliseconds),
            "CPU time between two firings that one window in a thousand exceeds")
        row("p99 gap", Format.milliseconds(summary.p99Milliseconds))
        row("p50 gap", Format.milliseconds(summary.p50Milliseconds))
        row("p99, omission-corrected", Format.milliseconds(summary.correctedP99Milliseconds),
            "stalls also count the ticks they swallowed")
        row("gaps ≥ 50 ms", "\(summary.gapsOver50)",
            "of \(summary.samples) samples over \(Format.number(summary.seconds, digits: 1)) s")
    }
}
