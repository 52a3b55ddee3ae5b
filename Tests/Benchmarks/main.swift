import Glibc
import GObjectBindings

// gallery-benchmarks SCENARIO — one scenario per process, so that memory and main-loop numbers of one
// never include the leftovers of another. Tests/Benchmarks/run.sh runs them all under Xvfb (`make bench`).
//
//   mainloop    main-loop gaps while big images decode and hundreds of thumbnails load
//   thumbnails  time from search to every visible row showing its thumbnail, at 0 and 100 ms latency
//   throughput  100 and 360 thumbnails through the ImagePipeline: wall time, connections, requests
//   memory      resident memory: 360 thumbnails, 360 rows, a dozen large images, then many more
//   scroll      a 360-row list scrolled top to bottom: stale fetches, overtaking, settle time, gaps
//   end10k      End held through a 10,000-item gallery: peak memory, threads, gaps
//   end100k     the same through 100,000 items, then a new search: its stall
//   jump        End and scrollbar drags across 10,000 items: time to thumbnails, requests for rows flown past
//   gridend10k  end10k in the grid, and requests for tiles flown past
//   gridend100k end100k in the grid, then a new search
//   gridjump    jump in the grid
//   baselines   10,000 items four ways: ours, sync downloads, a thread per image, one row per item
//   download    `gallery-viewer --download` of 360 originals, feed included, against curl --parallel on the same URLs
//   variant     (internal) one baseline run, in a process of its own
//   zoom        the large view's frame times while a 4000 px photo is zoomed and panned with real input
//   hostile     the hostile server's gallery and feeds: peak memory, worst gap, every row and feed ending
//   relaunch    the disk cache: a relaunch's first screen with the server up and gone, requests, the index
//   fullcache   a full 256 MB cache: the index file's size, writing it at quit, reading it at start
//   sandbox     360 thumbnails decoded by the gallery-decoder helpers against in-process; the hostile SVGs' peak
//   playback    a 720p H.264 video in the app's player against a bare playbin: first frame, CPU, gaps while scrolling
//   followcheck 500 followed demo galleries checked twice: main-loop work, memory above idle, requests when nothing is new
//   newview     the New view of 10,000 images from 100 followed galleries: first screen, gaps while it fills, End held
//   newviewcheck 500 followed galleries checked from the window with the New view on screen: gaps, memory, in place
//   serve       (internal) the demo server child process
// As the app does first thing: the benchmarks measure its process (see WorkerTask.returnLargeBlocksWhenFreed).
WorkerTask.returnLargeBlocksWhenFreed()
let arguments = CommandLine.arguments.dropFirst()
let status: Int32 = MainActor.assumeIsolated {
    guard let name = arguments.first else {
        Bench.usage()
        return 2
    }
    if name == "serve" { return ServeCommand.run(arguments.dropFirst()) }
    if name == "variant" { return VariantCommand.run(arguments.dropFirst()) }
    return Bench.run(name)
}
exit(status)

@MainActor
enum Bench {
    static let scenarios: [(name: String, run: @MainActor (Report) throws(BenchmarkError) -> Void)] = [
        ("mainloop", MainLoopScenario.run),
        ("thumbnails", ThumbnailLatencyScenario.run),
        ("throughput", ThroughputScenario.run),
        ("memory", MemoryScenario.run),
        ("scroll", ScrollScenario.run),
        ("end10k", LongGalleryScenario.run10k),
        ("end100k", LongGalleryScenario.run100k),
        ("jump", JumpScenario.run),
        ("gridend10k", LongGalleryScenario.runGrid10k),
        ("gridend100k", LongGalleryScenario.runGrid100k),
        ("gridjump", JumpScenario.runGrid),
        ("baselines", BaselineScenario.run),
        ("download", DownloadScenario.run),
        ("hostile", HostileScenario.run),
        ("relaunch", CacheScenario.runRelaunch),
        ("launch", LaunchScenario.run),
        ("fullcache", CacheScenario.runFullCache),
        ("zoom", ZoomScenario.run),
        ("sandbox", SandboxScenario.run),
        ("playback", PlaybackScenario.run),
        ("followcheck", FollowCheckScenario.run),
        ("newview", NewViewScenario.run),
        ("newviewcheck", NewViewCheckScenario.run),
    ]

    static func run(_ name: String) -> Int32 {
        guard let scenario = scenarios.first(where: { $0.name == name }) else {
            usage()
            return 2
        }
        let report = Report(scenario: name)
        do {
            try scenario.run(report)
        } catch {
            report.failure("completes", error.description)
        }
        report.print()
        return report.failed ? 1 : 0
    }

    static func usage() {
        let names = scenarios.map(\.name).joined(separator: " | ")
        progress("usage: gallery-benchmarks \(names)   (run all with `make bench`)")
    }
}

/// Progress notes go to stderr, so stdout holds only the report.
func progress(_ message: String) {
    let line = Array("  [bench] \(message)\n".utf8)
    _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
}

/// A mutable value shared with completion closures (main actor only).
@MainActor
final class Box<Value> {
    var value: Value
    init(_ value: Value) { self.value = value }
}
