import CGLib
import CGtk
import GObjectBindings
import GalleryCore

/// Goal 2: time to thumbnails. From `search("aurora")` in a real MainWindow to the first frame painted after
/// every row in the viewport shows its final picture (thumbnail, or error for aurora's deliberately broken
/// items), at 0 ms and 100 ms server latency. Each run has a new window, client and pipeline: cold caches
/// and new connections, as at app start.
@MainActor
enum ThumbnailLatencyScenario {
    static let latencies = [0, 100]
    static let runs = 5

    static func run(_ report: Report) throws(BenchmarkError) {
        for latency in latencies {
            let server = try DemoServerProcess(latencyMilliseconds: latency)
            var times: [Double] = []
            var rowsShown = 0
            var loaded = 0
            var worstGap = 0.0
            var worstOwn = 0.0
            var worstWork = 0.0
            var runWork: [Double] = []
            for _ in 0..<runs {
                let app = try AppUnderTest(serverURL: server.baseURL)
                let probe = MainLoopProbe()
                probe.start()
                let start = Loop.now()
                app.window.search(source: .demo, username: "aurora")
                try Loop.run(until: { app.visibleRowsAreSettled }, timeout: 30, "thumbnails of the visible rows")
                let settled = Loop.now()
                let shown = app.paints.paint(after: settled)
                times.append(Double(shown - start) / 1000)
                let gaps = probe.stop()
                worstGap = max(worstGap, gaps.worstMilliseconds)
                worstOwn = max(worstOwn, gaps.worstOwnMilliseconds)
                worstWork = max(worstWork, gaps.worstBusyMilliseconds)
                runWork.append(gaps.workMilliseconds)
                rowsShown = app.list.visibleRange.count
                loaded = app.list.visibleRange.filter { app.download($0)?.state == .loaded }.count
                app.close()
            }
            _ = try server.stop()
            report.section("search(\"aurora\") → visible rows' thumbnails painted, \(latency) ms server latency, \(runs) runs")
            report.row("time to thumbnails", Format.spread(times))
            report.row("visible rows", "\(rowsShown)", "\(loaded) thumbnails, the rest deliberate failures")
            report.row("worst main-loop gap", Format.milliseconds(worstGap),
                       "of its own \(Format.milliseconds(worstOwn)); main-thread work \(Format.milliseconds(worstWork))")
            report.row("worst main-thread work by run", Format.spread(runWork), "the goal takes the median run's")
            report.goal("median-\(latency)ms-latency", measured: Stats(times).median,
                        atMost: Goals.timeToThumbnailsMilliseconds[latency]!, unit: "ms")
            report.mainThreadWorkGoal("main-thread-work-\(latency)ms-latency", work: Stats(runWork).median)
        }
    }
}
