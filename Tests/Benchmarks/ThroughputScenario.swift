import CGLib
import CGtk
import GObjectBindings
import GalleryCore
import GalleryDemoServer

/// Goal 3: many thumbnails through the ImagePipeline alone (no widgets), as when a long gallery is scrolled
/// through: wall time, and how many connections the server saw — the pipeline must reuse keep-alive
/// connections within the per-host cap, never open one per image — and how many requests (one per image).
///
/// Against the floor, measured in the same run: the same fetches and decodes with the bare HTTPClient and
/// ImageDecoder — every request handed to libsoup at once (its own cap, one connection more than the
/// pipeline's), each body decoded as it arrives, no scheduler, no tasks, no memory cache. Runs alternate
/// between the two, each with a server of its own (a cold file cache), so the ratio holds whatever else the
/// machine is doing.
@MainActor
enum ThroughputScenario {
    static let counts = [100, 360]
    static let runs = 3

    static func run(_ report: Report) throws(BenchmarkError) {
        guard let items = try DemoData.catalog().user(named: "atlas")?.items, items.count >= counts.max()! else {
            throw BenchmarkError(description: "the demo user atlas has fewer than \(counts.max()!) items")
        }
        let perHostCap = HTTPClient.Configuration().maxConnectionsPerHost
        for count in counts {
            var times: [Double] = []
            var floors: [Double] = []
            var connections: [Int] = []
            var requests: [Int] = []
            var failures = 0
            var worstGap = 0.0
            var worstBusy = 0.0
            var runWork: [Double] = []
            var worstOwn = 0.0
            for run in 0..<runs {
                if run % 2 == 1 { floors.append(try floor(items.prefix(count))) }
                let server = try DemoServerProcess()
                let pipeline = ImagePipeline(client: HTTPClient())
                // The URL the app picks for a 96 px row: the 150 px thumbnail (see GalleryItem.thumbnailURL).
                let urls = items.prefix(count).map { server.baseURL + $0.imagePath(thumbnailLongSide: 150) }
                let done = Box(0)
                let failed = Box(0)
                let probe = MainLoopProbe()
                probe.start()
                let start = Loop.now()
                let tasks = urls.map { url in
                    pipeline.loadImage(ImageRequest(url: url, size: .fitting(96))) { result in
                        done.value += 1
                        if case .failure = result { failed.value += 1 }
                    }
                }
                try Loop.run(until: { done.value == count }, timeout: 120, "loading \(count) thumbnails")
                times.append(Loop.milliseconds(since: start))
                let gaps = probe.stop()
                worstGap = max(worstGap, gaps.worstMilliseconds)
                worstBusy = max(worstBusy, gaps.worstBusyMilliseconds)
                runWork.append(gaps.workMilliseconds)
                worstOwn = max(worstOwn, gaps.worstOwnMilliseconds)
                withExtendedLifetime(tasks) {}
                let stats = try server.stop()
                connections.append(stats.acceptedConnections)
                requests.append(stats.requests.count)
                failures += failed.value
                if run % 2 == 0 { floors.append(try floor(items.prefix(count))) }
            }
            let time = Stats(times)
            let floor = Stats(floors)
            let ratio = time.median / floor.median
            report.section("\(count) atlas thumbnails through ImagePipeline (150 px JPEG/PNG → 96 px), \(runs) runs, 0 ms latency")
            report.row("wall time", Format.spread(times))
            report.row("floor: bare HTTPClient + ImageDecoder", Format.spread(floors), "the same fetches and decodes")
            report.row("pipeline ÷ floor", Format.number(ratio, digits: 2), "medians of this run")
            report.row("thumbnails per second", Format.number(Double(count) / time.median * 1000, digits: 0), "at the median")
            report.row("connections accepted", "max \(connections.max()!)", "per-host cap \(perHostCap); runs: \(connections)")
            report.row("requests", "max \(requests.max()!)", "one per image expected; runs: \(requests)")
            report.row("failed loads", "\(failures)")
            report.row("worst main-loop gap", Format.milliseconds(worstGap),
                       "of its own \(Format.milliseconds(worstOwn)); worst main-thread work \(Format.milliseconds(worstBusy))")
            report.row("worst main-thread work by run", Format.spread(runWork), "the goal takes the median run's")
            report.goal("wall-\(count)", measured: time.median, atMost: Goals.throughputWallMilliseconds[count]!, unit: "ms")
            report.goal("over-floor-\(count)", measured: ratio, atMost: Goals.throughputOverFloor, unit: "× the floor", digits: 2)
            report.goal("connections-\(count)", measured: Double(connections.max()!), atMost: Double(perHostCap),
                        unit: "connections", digits: 0)
            report.goal("requests-\(count)", count: requests.first { $0 != count } ?? count, equals: count, what: "requests")
            report.goal("failures-\(count)", count: failures, equals: 0, what: "failed loads")
            report.mainThreadWorkGoal("main-thread-work-\(count)", work: Stats(runWork).median)
        }
    }

    /// The same thumbnails fetched and decoded with nothing between the client and the decoder; returns the
    /// wall time.
    private static func floor(_ items: ArraySlice<DemoItem>) throws(BenchmarkError) -> Double {
        let decoder = ImageDecoder()
        return try timeThumbnailDecodes(items, "the floor's thumbnails") { bytes, finish in
            decoder.decode(bytes, maxPixelSize: 96, cancellable: Cancellable()) { finish($0.succeeded) }
        }
    }
}
