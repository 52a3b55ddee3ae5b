import CGLib
import CGtk
import GObjectBindings
import GalleryCore

/// Goal 3: many thumbnails through the ImageLoader alone (no widgets), as when a long gallery is scrolled
/// through: wall time, and how many connections the server saw — the loader must reuse keep-alive
/// connections within the per-host cap, never open one per image — and how many requests (one per image).
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
            var connections: [Int] = []
            var requests: [Int] = []
            var failures = 0
            var worstGap = 0.0
            for _ in 0..<runs {
                let server = try DemoServerProcess()
                let pipeline = ImagePipeline(client: HTTPClient())
                // The URL the app picks for a 96 px row: the 150 px thumbnail (see GalleryItem.thumbnailURL).
                let urls = items.prefix(count).map { server.baseURL + $0.imagePath(thumbnailLongSide: 150) }
                let done = Box(0)
                let failed = Box(0)
                let probe = MainLoopProbe()
                probe.start()
                let start = Loop.now()
                let tickets = urls.map { url in
                    pipeline.loadImage(ImageRequest(url: url, size: .fitting(96))) { result in
                        done.value += 1
                        if case .failure = result { failed.value += 1 }
                    }
                }
                try Loop.run(until: { done.value == count }, timeout: 120, "loading \(count) thumbnails")
                times.append(Loop.milliseconds(since: start))
                worstGap = max(worstGap, probe.stop().worstMilliseconds)
                withExtendedLifetime(tickets) {}
                let stats = try server.stop()
                connections.append(stats.acceptedConnections)
                requests.append(stats.requests.count)
                failures += failed.value
            }
            let time = Stats(times)
            report.section("\(count) atlas thumbnails through ImageLoader (150 px JPEG/PNG → 96 px), \(runs) runs, 0 ms latency")
            report.row("wall time", Format.spread(times))
            report.row("thumbnails per second", Format.number(Double(count) / time.median * 1000, digits: 0), "at the median")
            report.row("connections accepted", "max \(connections.max()!)", "per-host cap \(perHostCap); runs: \(connections)")
            report.row("requests", "max \(requests.max()!)", "one per image expected; runs: \(requests)")
            report.row("failed loads", "\(failures)")
            report.row("worst main-loop gap", Format.milliseconds(worstGap))
            report.goal("wall-\(count)", measured: time.median, atMost: Goals.throughputWallMilliseconds[count]!, unit: "ms")
            report.goal("connections-\(count)", measured: Double(connections.max()!), atMost: Double(perHostCap),
                        unit: "connections", digits: 0)
            report.goal("requests-\(count)", count: requests.first { $0 != count } ?? count, equals: count, what: "requests")
            report.goal("failures-\(count)", count: failures, equals: 0, what: "failed loads")
        }
    }
}
