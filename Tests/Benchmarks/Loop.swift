import CGLib
import CGtk
import GObjectBindings
import GtkBindings

/// A scenario step that did not finish in time: the scenario reports it as a failed goal.
struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
}

/// Drives the default GLib main context from the benchmark, as the app's `g_application_run` would, and
/// checks conditions between iterations. Nothing here sleeps or blocks the loop: every wait is iterations.
@MainActor
enum Loop {
    static func now() -> Int { g_get_monotonic_time() }

    static func milliseconds(since start: Int) -> Double { Double(now() - start) / 1000 }

    /// Iterates until `condition` holds; throws after `timeout` seconds. `afterEach` runs after every
    /// iteration (e.g. to timestamp what the iteration changed).
    static func run(until condition: () -> Bool, timeout seconds: Double, _ what: @autoclosure () -> String,
                    afterEach: (() -> Void)? = nil) throws(BenchmarkError) {
        let deadline = now() + Int(seconds * 1_000_000)
        // A periodic wake-up so a blocking iteration re-checks the deadline even when nothing else happens.
        let ticker = MainLoopSource.every(milliseconds: 20) { true }
        defer { ticker.cancel() }
        while !condition() {
            guard now() < deadline else {
                throw BenchmarkError(description: "\(what()) did not happen within \(Format.number(seconds, digits: 0)) s")
            }
            g_main_context_iteration(nil, 1)
            afterEach?()
        }
    }

    /// Iterates for `seconds` (to let things settle, or to see that nothing more happens).
    static func run(for seconds: Double, afterEach: (() -> Void)? = nil) {
        let deadline = now() + Int(seconds * 1_000_000)
        try? run(until: { now() >= deadline }, timeout: seconds + 1, "the wait", afterEach: afterEach)
    }

    /// Runs what is pending without blocking.
    static func drain() {
        while g_main_context_iteration(nil, 0) != 0 {}
    }
}

/// A window's frames, from its GdkFrameClock: when the last paint ended (so "the thumbnail is showing" can
/// be measured to the frame that shows it rather than to the model change that asked for it), and how long
/// each frame's layout and paint phases took — to tell a main-loop gap caused by drawing from one caused
/// by the app's own callbacks.
///
/// GTK connects its own layout and paint handlers when the window is realized; ours, connected later, run
/// after them, so "layout" marks the end of GTK's layout and "paint" the end of GTK's drawing.
/// `GALLERY_BENCH_FRAME_LOG=PATH` appends every frame of 8 ms of main-thread CPU time or more to PATH ("start end
/// update-and-layout-cpu paint-cpu"; start and end in µs of the monotonic clock, as the gap log's, CPU in µs), to
/// tell a long piece of work that is a frame from one that is not.
@MainActor
final class FrameWatcher {
    struct Summary {
        var frames = 0
        var worstLayoutMilliseconds = 0.0
        var worstPaintMilliseconds = 0.0
        var paintsOver16 = 0

        /// Combines the frames of several windows (rounds of a scenario).
        mutating func add(_ other: Summary) {
            frames += other.frames
            worstLayoutMilliseconds = max(worstLayoutMilliseconds, other.worstLayoutMilliseconds)
            worstPaintMilliseconds = max(worstPaintMilliseconds, other.worstPaintMilliseconds)
            paintsOver16 += other.paintsOver16
        }
    }

    private(set) var lastPaint = 0
    private(set) var summary = Summary()
    private var frameStart = 0
    private var layoutEnd = 0
    private var frameStartCPU = 0
    private var layoutEndCPU = 0
    private let frameLog: UnsafeMutablePointer<FILE>? = getenv("GALLERY_BENCH_FRAME_LOG").flatMap { fopen($0, "a") }
    private var connections: [SignalConnection] = []

    /// Call once the widget is realized (its window has a frame clock).
    init(_ widget: Widget) {
        guard let clock = gtk_widget_get_frame_clock(widget.widget) else { return }
        let clockRef = ObjectRef(UnsafeMutableRawPointer(clock), transfer: .none)
        connections = [
            clockRef.connect("before-paint") { [weak self] in
                self?.frameStart = Loop.now()
                if self?.frameLog != nil { self?.frameStartCPU = threadCPUMicroseconds() }
            },
            clockRef.connect("layout") { [weak self] in
                self?.layoutEnd = Loop.now()
                if self?.frameLog != nil { self?.layoutEndCPU = threadCPUMicroseconds() }
            },
            clockRef.connect("paint") { [weak self] in
                self?.paintEnded(Loop.now())
            },
            clockRef.connect("after-paint") { [weak self] in
                guard let self else { return }
                lastPaint = Loop.now()
                if let awaited, awaited() {
                    self.awaited = nil
                    awaitedPaint = lastPaint
                }
            },
        ]
    }

    isolated deinit {
        connections.forEach { $0.disconnect() }
        if let frameLog { fclose(frameLog) }
    }

    /// Starts a new summary (e.g. when the measured phase begins).
    func resetSummary() { summary = Summary() }

    private func paintEnded(_ now: Int) {
        guard frameStart > 0 else { return }
        let layoutStart = frameStart
        let paintStart = max(layoutEnd, frameStart)
        let paint = Double(now - paintStart) / 1000
        summary.frames += 1
        summary.worstLayoutMilliseconds = max(summary.worstLayoutMilliseconds, Double(paintStart - layoutStart) / 1000)
        summary.worstPaintMilliseconds = max(summary.worstPaintMilliseconds, paint)
        if paint > 16 { summary.paintsOver16 += 1 }
        if let frameLog {
            let cpu = threadCPUMicroseconds()
            let layoutCPU = max(0, layoutEndCPU - frameStartCPU)
            let paintCPU = cpu - max(layoutEndCPU, frameStartCPU)
            if layoutCPU + paintCPU >= 8000 { fputs("\(frameStart) \(now) \(layoutCPU) \(paintCPU)\n", frameLog) }
        }
    }

    /// Watches for the first frame that shows what `condition` says (asked after each paint: the frame just
    /// painted showed the state it reads); its end is `awaitedPaint` from then on.
    func await(_ condition: @escaping @MainActor () -> Bool) {
        awaited = condition
        awaitedPaint = nil
    }

    private var awaited: (@MainActor () -> Bool)?
    /// The end of the first paint that showed what `await`'s condition says; nil until one did.
    private(set) var awaitedPaint: Int?

    /// Waits for the first paint after `time`: the frame that shows what changed at `time`. When nothing
    /// was left to paint (the change caused no redraw), the change time itself is the answer.
    func paint(after time: Int, timeout seconds: Double = 0.5) -> Int {
        try? Loop.run(until: { self.lastPaint > time }, timeout: seconds, "a paint")
        return lastPaint > time ? lastPaint : time
    }
}

extension Report {
    func frameRows(_ summary: FrameWatcher.Summary) {
        row("frames painted", "\(summary.frames)")
        row("worst frame layout", Format.milliseconds(summary.worstLayoutMilliseconds))
        row("worst frame paint", Format.milliseconds(summary.worstPaintMilliseconds),
            "\(summary.paintsOver16) paints over 16 ms")
    }
}
