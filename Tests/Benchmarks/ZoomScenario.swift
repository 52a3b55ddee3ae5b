import Glibc
import CGLib
import CGtk
import GObjectBindings
import GtkBindings
import GalleryCore
import GalleryUI

/// The large view's frames while a 4000 px photo is zoomed and panned with real input (xdotool through the X
/// server, as a user's mouse and keyboard): Ctrl+wheel twelve clicks in and twelve out around the pointer
/// (which passes the screen-sized decode, so the full-resolution decode runs and is swapped in meanwhile),
/// a drag across the image at 100 %, and the arrow keys held.
///
/// Each frame is timed from the frame clock's before-paint to after-paint (the app's drawing, client side),
/// and again after an XSync (the X server's compositing of it too). Frames painted while the view moves are
/// the goal's; the one well-filtered frame after it comes to rest is reported beside them. The main-loop probe
/// runs throughout.
@MainActor
enum ZoomScenario {
    static func run(_ report: Report) throws(BenchmarkError) {
        let server = try DemoServerProcess()
        guard let photo = try DemoData.largestLoadableItems(of: "aurora", count: 1).first else {
            throw BenchmarkError(description: "no large aurora photo")
        }
        let app = try AppUnderTest(serverURL: server.baseURL)
        try app.searchAndLoadAllPages("aurora", expected: 60)
        guard let download = app.window.gallery?.downloads.first(where: {
            $0.item.fullImageURL?.hasSuffix("/images/\(photo.fileName)") == true
        }) else { throw BenchmarkError(description: "\(photo.fileName) is not in the gallery") }
        let view = app.window.largeView
        app.window.openLargeView(download)
        try Loop.run(until: { view.isShowingFullImage }, timeout: 30, "the photo shown")
        Keyboard.focus(app.window.window)
        Loop.run(for: 0.5)
        guard let centre = rootCentre(of: view.container) else { throw BenchmarkError(description: "the view has no window") }
        let frames = FrameTimes(app.window.window) { view.zoom.isMoving }

        report.section("\(photo.fileName): \(photo.width) × \(photo.height), screen-sized decode \(view.shownPixbuf?.width ?? 0) px wide")
        let wheelIn = repeated(["click", "4", "sleep", "0.12"], 12)
        let wheelOut = repeated(["click", "5", "sleep", "0.12"], 12)
        let wheel = ["mousemove", "\(centre.x)", "\(centre.y)", "keydown", "ctrl"] + wheelIn + wheelOut + ["keyup", "ctrl"]
        let zoom = try phase("Ctrl+wheel: 12 clicks in, 12 out", wheel, view: view, frames: frames, report: report)
        let detailLoaded = view.fullResolutionPixbuf?.width ?? 0

        view.zoom.zoomToRealSize()
        try Loop.run(until: { !view.zoom.isMoving && view.fullResolutionPixbuf != nil }, timeout: 30, "100 % at full resolution")
        let away = repeated(["mousemove_relative", "--", "-12", "-7", "sleep", "0.016"], 45)
        let back = repeated(["mousemove_relative", "--", "12", "7", "sleep", "0.016"], 45)
        let dragInput = ["mousemove", "\(centre.x)", "\(centre.y)", "mousedown", "1"] + away + back + ["mouseup", "1"]
        let drag = try phase("drag at 100 %: 90 moves, 16 ms apart", dragInput, view: view, frames: frames, report: report)
        let arrows = repeated(["Right"], 15) + repeated(["Down"], 10) + repeated(["Left"], 15) + repeated(["Up"], 10)
        let keyInput = ["key", "--delay", "40"] + arrows
        let keys = try phase("arrow keys at 100 %: 50 presses, 40 ms apart", keyInput, view: view, frames: frames,
                             report: report)
        app.window.closeLargeView()
        app.close()
        _ = try server.stop()

        report.row("full-resolution decode", detailLoaded > 0 ? "\(detailLoaded) px wide, swapped in while zooming" : "not loaded")
        let moving = (zoom.moving + drag.moving + keys.moving).sorted()
        let cpu = zoom.cpu + drag.cpu + keys.cpu
        report.section("all \(moving.count) frames painted while moving")
        report.row("frame paint (app)", Format.percentiles(moving))
        report.row("  main thread CPU in it", Format.percentiles(cpu))
        report.goal("frame-cpu-worst", measured: cpu.max() ?? .infinity, atMost: Goals.zoomPanFrameMilliseconds, unit: "ms")
        let p99 = moving.isEmpty ? Double.infinity : moving[min(moving.count - 1, Int(Double(moving.count - 1) * 0.99))]
        report.goal("frame-p99", measured: p99, atMost: Goals.zoomPanFrameMilliseconds, unit: "ms")
        report.goal("frame-worst", measured: moving.last ?? .infinity, atMost: Goals.zoomPanWorstFrameMilliseconds, unit: "ms")
        // Every phase must have painted while it moved: a phase with none would leave its input unmeasured.
        let phasesWithFrames = [zoom, drag, keys].filter { !$0.moving.isEmpty }.count
        report.goal("moving-frames", count: phasesWithFrames, equals: 3, what: "of 3 phases with frames painted while moving")
        report.goal("full-resolution", count: detailLoaded, equals: photo.width, what: "px wide decode after zooming in")
        let gaps = [zoom.gaps, drag.gaps, keys.gaps].map(\.worstMilliseconds).max() ?? 0
        report.goal("worst-gap", measured: gaps, atMost: Goals.zoomPanWorstGapMilliseconds, unit: "ms")
        report.mainThreadWorkGoal(work: [zoom.gaps, drag.gaps, keys.gaps].map(\.workMilliseconds).max() ?? 0)
    }

    private static func repeated(_ words: [String], _ times: Int) -> [String] {
        Array(repeating: words, count: times).flatMap { $0 }
    }

    struct PhaseResult {
        var moving: [Double]
        var cpu: [Double]
        var gaps: MainLoopProbe.Summary
    }

    /// Runs one xdotool input sequence while recording frames and gaps, then waits for the view to rest.
    private static func phase(_ title: String, _ input: [String], view: LargeImageView, frames: FrameTimes,
                              report: Report) throws(BenchmarkError) -> PhaseResult {
        frames.reset()
        let probe = MainLoopProbe()
        probe.start()
        let process = try ChildProcess.spawn(["xdotool"] + input)
        defer { g_object_unref(UnsafeMutableRawPointer(process)) }
        try Loop.run(until: { g_subprocess_get_identifier(process) == nil }, timeout: 60, "the input of \(title)")
        try Loop.run(until: { !view.zoom.isMoving }, timeout: 10, "the view resting after \(title)")
        Loop.run(for: 0.3)
        let gaps = probe.stop()
        let moving = frames.frames.filter(\.moving)
        let resting = frames.frames.filter { !$0.moving }
        report.section(title)
        report.row("frames while moving", "\(moving.count)", "over \(Format.number(gaps.seconds, digits: 1)) s")
        report.row("frame paint (app), moving", Format.percentiles(moving.map(\.work)))
        report.row("  main thread CPU in it", Format.percentiles(moving.map(\.cpu)), "the rest: waiting for a core")
        report.row("frame incl. X server, moving", Format.percentiles(moving.map(\.withServer)))
        report.row("frame interval, moving", Format.percentiles(moving.dropFirst().map(\.interval)), "60 Hz = 16.7 ms")
        report.row("frames at rest after it", "\(resting.count), worst \(Format.milliseconds(resting.map(\.work).max() ?? 0))",
                   "the well-filtered rest frame among them")
        report.row("main-loop worst gap", Format.milliseconds(gaps.worstMilliseconds),
                   "p99 \(Format.milliseconds(gaps.p99Milliseconds)); of its own \(Format.milliseconds(gaps.worstOwnMilliseconds)); "
                   + "main-thread work \(Format.milliseconds(gaps.worstBusyMilliseconds))")
        return PhaseResult(moving: moving.map(\.work), cpu: moving.map(\.cpu), gaps: gaps)
    }

    /// The widget's centre in screen coordinates (where xdotool points).
    private static func rootCentre(of widget: Widget) -> (x: Int, y: Int)? {
        guard let window = gtk_widget_get_window(widget.widget) else { return nil }
        var originX: Int32 = 0
        var originY: Int32 = 0
        gdk_window_get_origin(window, &originX, &originY)
        var allocation = GtkAllocation()
        gtk_widget_get_allocation(widget.widget, &allocation)
        return (Int(originX + allocation.x + allocation.width / 2), Int(originY + allocation.y + allocation.height / 2))
    }
}

/// Every frame's duration from the window's frame clock: before-paint to after-paint, and to after an XSync.
@MainActor
final class FrameTimes {
    struct Frame {
        let work: Double
        /// The main thread's CPU time in the frame: the work itself, without the time other threads and
        /// processes held the core.
        let cpu: Double
        let withServer: Double
        let interval: Double
        let moving: Bool
    }

    private(set) var frames: [Frame] = []
    private var start = 0
    private var startCPU = 0
    private var lastEnd = 0
    private var connections: [SignalConnection] = []

    init(_ widget: Widget, isMoving: @escaping @MainActor () -> Bool) {
        guard let clock = gtk_widget_get_frame_clock(widget.widget) else { return }
        let clockRef = ObjectRef(UnsafeMutableRawPointer(clock), transfer: .none)
        connections = [
            clockRef.connect("before-paint") { [weak self] in
                self?.start = Loop.now()
                self?.startCPU = threadCPUMicroseconds()
            },
            clockRef.connect("after-paint") { [weak self] in
                guard let self, self.start > 0 else { return }
                let end = Loop.now()
                let cpu = Double(threadCPUMicroseconds() - self.startCPU) / 1000
                gdk_display_sync(gdk_display_get_default())
                let synced = Loop.now()
                self.frames.append(Frame(work: Double(end - self.start) / 1000, cpu: cpu, withServer: Double(synced - self.start) / 1000,
                                         interval: Double(end - self.lastEnd) / 1000, moving: isMoving()))
                self.lastEnd = end
            },
        ]
    }

    isolated deinit { connections.forEach { $0.disconnect() } }

    func reset() {
        frames = []
        lastEnd = Loop.now()
    }
}

/// CPU time of the calling thread.
func threadCPUMicroseconds() -> Int {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return time.tv_sec * 1_000_000 + time.tv_nsec / 1000
}

extension Format {
    /// "p50 4.1, p95 7.9, p99 9.0, worst 11.2 ms"
    static func percentiles(_ values: [Double]) -> String {
        guard !values.isEmpty else { return "–" }
        let sorted = values.sorted()
        let at = { (p: Double) in sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))] }
        return "p50 \(number(at(0.5))), p95 \(number(at(0.95))), p99 \(number(at(0.99))), worst \(number(sorted.last!)) ms"
    }
}
