import GObjectBindings
import GalleryCore
import GalleryDemoServer
import GalleryHostileServer
#if canImport(Glibc)
import Glibc
#endif

/// Issue 26's costs of decoding in `gallery-decoder` helpers: 360 thumbnails fetched by the bare HTTPClient
/// and decoded by ImageDecoder's helpers, against the same fetches decoded in this process on GTask workers
/// (the floor: header probe and gdk-pixbuf, as the app did before), runs alternating, each with a server of its
/// own; the main loop meanwhile; the helpers' share of CPU and memory; and the hostile SVGs' peak, app and
/// helpers summed.
@MainActor
enum SandboxScenario {
    static let count = 360
    /// Runs a side: a run's time varies by a fifth from one to the next here (two cores shared with the server,
    /// the helpers and the X server), and the median of seven moved the ratio by ±0.13 between whole runs of the
    /// scenario; of twenty-one, by a few hundredths. About 20 s in all.
    static let runs = 21

    static func run(_ report: Report) throws(BenchmarkError) {
        guard let items = try DemoData.catalog().user(named: "atlas")?.items.prefix(count), items.count == count else {
            throw BenchmarkError(description: "the demo user atlas has fewer than \(count) items")
        }
        var helpers: [Double] = [], inProcess: [Double] = []
        var runWork: [Double] = []
        var helperCPU = 0.0, ownCPU = 0.0, inProcessCPU = 0.0
        for run in 0..<runs * 2 {
            let sandboxed = run % 2 == (run / 2) % 2  // ABBA…, so neither side always runs first
            let before = ProcessStats.cpuSeconds()
            let probe = MainLoopProbe()
            probe.start()
            let (time, helpersUsed) = try thumbnails(items, sandboxed: sandboxed)
            let gaps = probe.stop()
            if sandboxed {
                helpers.append(time)
                runWork.append(gaps.workMilliseconds)
                helperCPU += helpersUsed
                ownCPU += ProcessStats.cpuSeconds() - before
            } else {
                inProcess.append(time)
                inProcessCPU += ProcessStats.cpuSeconds() - before
            }
        }
        let ratio = Stats(helpers).median / Stats(inProcess).median
        report.section("\(count) atlas thumbnails (150 px → 96 px), bare HTTPClient, \(runs) runs each, 0 ms latency")
        report.row("decoded by the helpers", Format.spread(helpers))
        report.row("decoded in this process", Format.spread(inProcess), "the floor: probe + gdk-pixbuf on GTask workers")
        report.row("helpers ÷ in-process", Format.number(ratio, digits: 2), "medians of this run")
        report.row("helpers' CPU, starts included", Format.number(helperCPU / Double(runs), digits: 2) + " s a run",
                   "the app's own: \(Format.number(ownCPU / Double(runs), digits: 2)) s a run")
        report.row("in-process CPU", Format.number(inProcessCPU / Double(runs), digits: 2) + " s a run",
                   "fetches and decodes, all in this process")
        report.row("worst main-thread work by run", Format.spread(runWork), "helpers' runs; the goal takes the median run's")
        report.goal("helpers-over-in-process-\(count)", measured: ratio, atMost: Goals.sandboxOverInProcess, unit: "× the floor", digits: 2)
        report.mainThreadWorkGoal("main-thread-work-\(count)", work: Stats(runWork).median)

        let (peak, helperPeak) = try hostilePeak()
        report.section("the hostile SVGs (data: PNG bomb, nested, ICO, external references) and the raster bombs")
        report.row("peak memory (PSS), app and helpers summed", Format.number(peak, digits: 0) + " MiB",
                   "the helpers' share at that moment: \(Format.number(helperPeak, digits: 0)) MiB")
        report.goal("hostile-peak", measured: peak, atMost: Goals.sandboxHostilePeakMegabytes, unit: "MiB")
    }

    /// The run's wall time, and the CPU its helpers (bubblewrap and the decoder in it) used, start included:
    /// read from /proc while they still run, since they end killed and never reach this process's rusage.
    private static func thumbnails(_ items: ArraySlice<DemoItem>, sandboxed: Bool) throws(BenchmarkError) -> (Double, Double) {
        let decoder = ImageDecoder()
        // As the window's pipeline does when it is made: the helpers start while the first fetches run.
        if sandboxed { decoder.startHelpers() }
        let time = try timeThumbnailDecodes(items, "the \(sandboxed ? "helpers'" : "in-process") thumbnails") { bytes, finish in
            guard !sandboxed else { return decoder.decode(bytes, maxPixelSize: 96, cancellable: Cancellable()) { finish($0.succeeded) } }
            WorkerTask.run({ () -> Bool in
                guard case .success(let header) = bytes.withUnsafeBytes({ ImageHeader.probe($0) }) else { return false }
                let decoded = PixbufDecoding.decode(bytes, loaderType: header.format.loaderName, maxPixelSize: 96,
                                                    expectedSize: (header.width, header.height), cancellable: nil)
                if case .success = decoded { return true } else { return false }
            }, completion: finish)
        }
        let helpers = decoder.helperProcessIDs.flatMap { [$0] + descendants(of: $0) }
        return (time, helpers.reduce(0.0) { $0 + (cpuSeconds(of: $1) ?? 0) })
    }

    /// User and system time of a running process, from /proc/PID/stat (fields 14 and 15, in clock ticks).
    private static func cpuSeconds(of pid: Int32) -> Double? {
        guard let stat = File.smallText(atPath: "/proc/\(pid)/stat"), let end = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// The hostile images through a pipeline, thumbnails and large view, sampling the memory of this process
    /// and of its helpers every 20 ms; returns the highest sum and the helpers' part of it.
    private static func hostilePeak() throws(BenchmarkError) -> (Double, Double) {
        let server = HostileServer()
        do { try server.start() } catch { throw BenchmarkError(description: "the hostile server: \(error)") }
        let pipeline = ImagePipeline(client: HTTPClient())
        let images: [HostileImage] = [.svgDataBomb, .svgNestedBomb, .svgICO, .svgExternal, .pngBomb, .gifFramesBomb, .webpFramesBomb]
        var peak = (0.0, 0.0)
        let sampler = MainLoopSource.every(milliseconds: 20) {
            let helpers = descendants(of: getpid()).reduce(0.0) { $0 + (residentMiB(of: $1) ?? 0) }
            let total = (residentMiB(of: getpid()) ?? 0) + helpers
            if total > peak.0 { peak = (total, helpers) }
            return true
        }
        defer { sampler.cancel() }
        let done = Box(0)
        for image in images {
            for size in [ImageRequest.Size.fitting(96), .original] {
                pipeline.loadImage(ImageRequest(url: server.imageURL(image), size: size)) { _ in done.value += 1 }
            }
        }
        try Loop.run(until: { done.value == images.count * 2 }, timeout: 120, "the hostile images")
        server.stop()
        return peak
    }

    /// The proportional set size: pages shared with the app (a memfd of pixels both map) counted once in all.
    private static func residentMiB(of pid: Int32) -> Double? {
        guard let status = File.smallText(atPath: "/proc/\(pid)/smaps_rollup"),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Pss:") }),
              let kibibytes = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) }) else { return nil }
        return kibibytes / 1024
    }

    private static func descendants(of pid: Int32) -> [Int32] {
        let tasks = File.smallText(atPath: "/proc/\(pid)/task/\(pid)/children") ?? ""
        let children = tasks.split(separator: " ").compactMap { Int32($0) }
        return children + children.flatMap { descendants(of: $0) }
    }
}

/// Fetches each item's 150 px thumbnail (the one a 96 px row shows) with a bare HTTPClient from a demo server of
/// its own, every request at once, and hands each body to `decode`, which reports whether it decoded; returns
/// the wall time. Throws when any fetch or decode failed.
@MainActor
func timeThumbnailDecodes(_ items: ArraySlice<DemoItem>, _ what: String,
                          decode: @escaping @MainActor (Bytes, @escaping @MainActor (Bool) -> Void) -> Void)
    throws(BenchmarkError) -> Double {
    let server = try DemoServerProcess()
    let client = HTTPClient()
    let done = Box(0), failed = Box(0)
    let finish: @MainActor (Bool) -> Void = { decoded in
        done.value += 1
        if !decoded { failed.value += 1 }
    }
    let start = Loop.now()
    // Every request at once, but a few per main-loop turn, as rows bind: the app never makes hundreds of requests
    // in one callback, and the main thread's work measured around this is the decoding's, not this loop's.
    var pending = items[...]
    let issuer = MainLoopSource.every(milliseconds: 0) {
        for item in pending.prefix(requestsPerTurn) {
            let request = HTTPRequest(url: server.baseURL + item.imagePath(thumbnailLongSide: 150), headers: ["Accept": "image/*"],
                                      maxBodyBytes: ImagePipeline.Limits().maxImageBytes)
            client.fetch(request, cancellable: Cancellable()) { result in
                guard case .success(let response) = result else { return finish(false) }
                decode(response.body, finish)
            }
        }
        pending = pending.dropFirst(requestsPerTurn)
        return !pending.isEmpty
    }
    defer { issuer.cancel() }
    try Loop.run(until: { done.value == items.count }, timeout: 120, "\(what): \(items.count)")
    let milliseconds = Loop.milliseconds(since: start)
    _ = try server.stop()
    guard failed.value == 0 else { throw BenchmarkError(description: "\(what): \(failed.value) loads failed") }
    return milliseconds
}

/// Requests `timeThumbnailDecodes` makes per main-loop turn: about a screenful of rows binding at once.
private let requestsPerTurn = 24

extension Result {
    /// Whether it is a success, for completions that only count.
    var succeeded: Bool { if case .success = self { true } else { false } }
}
