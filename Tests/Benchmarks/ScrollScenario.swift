import CGtk
import GObjectBindings
import GtkBindings
import GalleryCore

/// Goal 5: scrolling. The 360 rows of atlas in a real window, scrolled from top to bottom in about
/// 3 s by setting the adjustment every 16 ms (a fast fling), with 100 ms of server latency so that fetches
/// queue up and priorities matter. Afterwards the server's timestamped request log is matched against when
/// each row was in the viewport (see ScrollAnalysis).
@MainActor
enum ScrollScenario {
    static let latencyMilliseconds = 100
    static let scrollSeconds = 3.0
    static let stepMilliseconds: UInt32 = 16

    static func run(_ report: Report) throws(BenchmarkError) {
        let server = try DemoServerProcess(latencyMilliseconds: latencyMilliseconds)
        let app = try AppUnderTest(serverURL: server.baseURL)
        try app.searchAndLoadAllPages("atlas", expected: 360)
        try Loop.run(until: { app.visibleRowsAreSettled && app.loader.unfinishedJobCount == 0 }, timeout: 30,
                     "the first rows' thumbnails")
        let adjustment = app.list.scrolledWindow.verticalAdjustment
        try Loop.run(until: { (app.list.listBox.rowFrame(at: 359)?.height ?? 0) > 1 }, timeout: 10, "the layout of 360 rows")
        guard let downloads = app.window.gallery?.downloads else { throw BenchmarkError(description: "no gallery") }
        var rowOfPath: [String: Int] = [:]
        for download in downloads {
            if let url = download.thumbnailURL { rowOfPath[String(url.dropFirst(server.baseURL.count))] = download.index }
        }

        var timeline = VisibilityTimeline()
        let observe = { timeline.observe(app.list.visibleRange, at: Loop.now()) }
        observe()
        let bottom = adjustment.upper - adjustment.pageSize
        let steps = scrollSeconds * 1000 / Double(stepMilliseconds)
        let step = (bottom - adjustment.value) / steps
        let scrollEnd = Box<Int?>(nil)
        let probe = MainLoopProbe()
        probe.start()
        app.paints.resetSummary()
        let start = Loop.now()
        let scroller = MainLoopSource.every(milliseconds: stepMilliseconds) {
            adjustment.value = min(bottom, adjustment.value + step)
            guard adjustment.value >= bottom else { return true }
            scrollEnd.value = Loop.now()
            return false
        }
        try Loop.run(until: { scrollEnd.value != nil }, timeout: 30, "the scroll to the bottom", afterEach: observe)
        try Loop.run(until: { app.visibleRowsAreSettled }, timeout: 30, "the bottom rows' thumbnails", afterEach: observe)
        let settled = app.paints.paint(after: Loop.now())
        let gaps = probe.stop()
        let frames = app.paints.summary
        scroller.cancel()
        // What the loader still does for rows that were flown past, once the user has stopped.
        try Loop.run(until: { app.loader.unfinishedJobCount == 0 }, timeout: 120, "the remaining fetches", afterEach: observe)
        let drained = Loop.now()
        app.close()
        let stats = try server.stop()

        let requests = stats.requests.filter { $0.path.contains("/thumbs/") }
        let analysis = ScrollAnalysis(requests: requests, start: start, rowOfPath: rowOfPath, timeline: timeline,
                                      settled: settled)
        let scrollMs = Double(scrollEnd.value! - start) / 1000
        report.section("360 atlas rows scrolled top to bottom in \(Format.number(scrollMs, digits: 0)) ms, \(latencyMilliseconds) ms server latency")
        report.row("rows that passed through the viewport", "\(analysis.rowsShown)")
        report.row("rows that left before their fetch started", "\(analysis.leftBeforeFetch)",
                   "fetched later anyway: \(analysis.leftBeforeFetchFetchedLater)")
        report.row("thumbnail requests until settled", "\(analysis.requestsUntilSettled)",
                   "\(analysis.staleUntilSettled) of them for rows already scrolled past")
        report.row("stale starts while a visible row waited", "\(analysis.inversions)", "the scheduler's priority order broken")
        report.row("thumbnail requests after settled", "\(analysis.requestsAfterSettled)",
                   "rows flown past, fetched at offscreen priority until \(Format.milliseconds(Double(drained - settled) / 1000)) later")
        report.row("requests for rows never shown", "\(analysis.neverShown)")
        report.row("paths requested more than once", "\(analysis.duplicates)")
        report.row("scroll end → bottom rows painted", Format.milliseconds(Double(settled - scrollEnd.value!) / 1000))
        report.loopRows(gaps, title: "from the first step until the bottom rows were painted")
        report.frameRows(frames)
        report.goal("stale-while-visible-waits", count: analysis.inversions, equals: 0, what: "fetches")
        report.goal("never-shown-requests", count: analysis.neverShown, equals: 0, what: "requests")
        report.goal("duplicate-requests", count: analysis.duplicates, equals: 0, what: "paths")
        report.goal("settle", measured: Double(settled - scrollEnd.value!) / 1000,
                    atMost: Goals.scrollSettleMilliseconds, unit: "ms")
        report.goal("worst-gap", measured: gaps.worstMilliseconds, atMost: Goals.scrollWorstGapMilliseconds, unit: "ms")
    }
}
