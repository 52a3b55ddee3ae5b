import CGLib
import CGtk
import GObjectBindings
import GtkBindings
import GalleryCore

/// Goal 5: scrolling. The 360 rows of atlas in a real window, scrolled from top to bottom in about
/// 3 s by setting the adjustment every 16 ms (a fast fling), with 100 ms of server latency so that fetches
/// queue up and priorities matter. Each fetch is classified as the client starts it (see ScrollAnalysis);
/// the server's request log counts what actually went over the wire.
@MainActor
enum ScrollScenario {
    static let latencyMilliseconds = 100
    static let scrollSeconds = 3.0
    static let stepMilliseconds: UInt32 = 16

    static func run(_ report: Report) throws(BenchmarkError) {
        let server = try DemoServerProcess(latencyMilliseconds: latencyMilliseconds)
        let app = try AppUnderTest(serverURL: server.baseURL)
        try app.searchAndLoadAllPages("atlas", expected: 360)
        try Loop.run(until: { app.visibleRowsAreSettled && app.pipeline.unfinishedTaskCount == 0 }, timeout: 30,
                     "the first rows' thumbnails")
        let adjustment = app.list.adjustment
        guard let downloads = app.window.gallery?.downloads else { throw BenchmarkError(description: "no gallery") }
        var rowOfPath: [String: Int] = [:]
        for download in downloads {
            if let url = download.thumbnailURL { rowOfPath[String(url.dropFirst(server.baseURL.count))] = download.index }
        }
        let analysis = ScrollAnalysis(downloads: downloads, thumbnailPaths: rowOfPath)
        let observer = SessionObserver(app.client)
        observer.onQueued = { path in analysis.fetchQueued(path: path) }
        var shown = Set(app.list.visibleRange)
        let observe = { shown.formUnion(app.list.visibleRange) }

        let steps = scrollSeconds * 1000 / Double(stepMilliseconds)
        let step = (adjustment.maximumValue - adjustment.value) / steps
        let scrollEnd = Box<Int?>(nil)
        let probe = MainLoopProbe()
        probe.start()
        app.paints.resetSummary()
        let start = Loop.now()
        let scroller = MainLoopSource.every(milliseconds: stepMilliseconds) {
            // The bottom, read each time: the footer's height is only known once it is shown.
            adjustment.value = min(adjustment.maximumValue, adjustment.value + step)
            guard adjustment.value >= adjustment.maximumValue else { return true }
            scrollEnd.value = Loop.now()
            return false
        }
        try Loop.run(until: { scrollEnd.value != nil }, timeout: 30, "the scroll to the bottom", afterEach: observe)
        try Loop.run(until: { app.visibleRowsAreSettled }, timeout: 30, "the bottom rows' thumbnails", afterEach: observe)
        let settled = app.paints.paint(after: Loop.now())
        analysis.settled = true
        let gaps = probe.stop()
        let frames = app.paints.summary
        scroller.cancel()
        // What the pipeline still does for rows that were flown past, once the user has stopped.
        try Loop.run(until: { app.pipeline.unfinishedTaskCount == 0 }, timeout: 120, "the remaining fetches", afterEach: observe)
        let drained = Loop.now()
        withExtendedLifetime(observer) {}
        app.close()
        let stats = try server.stop()

        let thumbnailRequests = stats.requests.filter { $0.contains("/thumbs/") }
        let duplicates = thumbnailRequests.count - Set(thumbnailRequests).count
        let neverShown = thumbnailRequests.filter { rowOfPath[$0].map { !shown.contains($0) } ?? false }.count
        let scrollMs = Double(scrollEnd.value! - start) / 1000
        let settleMs = Double(settled - scrollEnd.value!) / 1000
        let leftBeforeFetch = analysis.staleUntilSettled + analysis.staleAfterSettled
        report.section("360 atlas rows scrolled top to bottom in \(Format.number(scrollMs, digits: 0)) ms, \(latencyMilliseconds) ms server latency")
        report.row("rows that passed through the viewport", "\(shown.count)")
        report.row("thumbnail fetches until settled", "\(analysis.fetchesUntilSettled)",
                   "\(analysis.staleUntilSettled) for rows that had scrolled past before their fetch started")
        report.row("… of those while a visible row waited", "\(analysis.inversions)", analysis.inversionExamples.first ?? "")
        report.row("thumbnail fetches after settled", "\(analysis.fetchesAfterSettled)",
                   "\(analysis.staleAfterSettled) for rows flown past; done \(Format.milliseconds(Double(drained - settled) / 1000)) later")
        report.row("rows fetched after leaving the viewport", "\(leftBeforeFetch) of \(shown.count)")
        report.row("fetches for rows never marked visible", "\(analysis.neverVisible)", "server: \(neverShown) requests for rows never seen on screen")
        report.row("prefetches (rows just ahead)", "\(analysis.prefetches)")
        report.row("paths requested more than once", "\(duplicates)")
        report.row("scroll end → bottom rows painted", Format.milliseconds(settleMs))
        report.loopRows(gaps, title: "from the first step until the bottom rows were painted")
        report.frameRows(frames)
        for example in analysis.inversionExamples { progress("priority inversion: \(example)") }
        report.goal("stale-while-visible-waits", count: analysis.inversions, equals: 0, what: "fetches")
        report.goal("never-shown-requests", count: analysis.neverVisible + neverShown, equals: 0, what: "requests")
        report.goal("duplicate-requests", count: duplicates, equals: 0, what: "paths")
        report.goal("settle", measured: settleMs, atMost: Goals.scrollSettleMilliseconds, unit: "ms")
        report.goal("worst-gap", measured: gaps.worstMilliseconds, atMost: Goals.scrollWorstGapMilliseconds, unit: "ms")
        report.mainThreadWorkGoal(work: gaps.workMilliseconds)
    }
}
