import CGLib
import CGtk
import GObjectBindings
import GtkBindings
import GalleryCore
import GalleryUI

/// Issue 7: galleries of 10,000 and 100,000 items (the demo server's synthetic users huge-10000 and huge),
/// End held from the first row until the last page is on screen, as a user holding the key would: X key
/// events at the keyboard's auto-repeat rate into the real window. Measured: peak resident memory, threads,
/// main-loop gaps while it pages, and — with 100,000 loaded — the stall of a new search. Issue 13: the same
/// in the grid (`gridend10k`, `gridend100k`), with the same goals, and the thumbnails requested for tiles
/// that were not on screen (nor just ahead of it) when the request went out.
@MainActor
enum LongGalleryScenario {
    /// GNOME's default auto-repeat: 30 keys a second.
    static let keyRepeatMilliseconds: UInt32 = 33
    /// End still held but no new row for this long: the list stopped paging.
    static let stallSeconds = 20.0

    static func run10k(_ report: Report) throws(BenchmarkError) {
        try run(report, user: "huge-10000", items: 10_000, timeout: 240, newSearch: false, mode: .list)
    }

    static func run100k(_ report: Report) throws(BenchmarkError) {
        try run(report, user: "huge", items: 100_000, timeout: 900, newSearch: true, mode: .list)
    }

    static func runGrid10k(_ report: Report) throws(BenchmarkError) {
        try run(report, user: "huge-10000", items: 10_000, timeout: 240, newSearch: false, mode: .grid)
    }

    static func runGrid100k(_ report: Report) throws(BenchmarkError) {
        try run(report, user: "huge", items: 100_000, timeout: 900, newSearch: true, mode: .grid)
    }

    private static func run(_ report: Report, user: String, items: Int, timeout: Double,
                            newSearch: Bool, mode: GalleryViewMode) throws(BenchmarkError) {
        let server = try DemoServerProcess()
        let app = try AppUnderTest(serverURL: server.baseURL)
        app.window.setViewMode(mode)
        let baseline = Memory.residentMiB()
        // The same run over 100 items first: the threads it needs are what 100,000 may need, no more.
        app.window.search(source: .demo, username: "huge-100")
        try Loop.run(until: { app.visibleRowsAreSettled }, timeout: 30, "the first rows' thumbnails")
        let small = try holdEnd(app, items: 100, timeout: 30)
        app.window.search(source: .demo, username: user)
        try Loop.run(until: { app.visibleRowsAreSettled }, timeout: 30, "the first rows' thumbnails")
        let held = try holdEnd(app, items: items, timeout: timeout, restingThreads: small.threadsAtRest)

        var searchStall: Double?
        var searchStallOwn = 0.0
        var searchStallWork = 0.0
        var searchWork = 0.0
        if newSearch {
            let probe = MainLoopProbe()
            probe.start()
            app.window.search(source: .demo, username: "aurora")
            Loop.run(for: 1)
            let gaps = probe.stop()
            searchStall = gaps.worstMilliseconds
            searchStallOwn = gaps.worstOwnMilliseconds
            searchStallWork = gaps.worstBusyMilliseconds
            searchWork = gaps.workMilliseconds
        }
        app.close()
        _ = try server.stop()

        let grid = mode == .grid
        let view = grid ? "the grid (\(app.list.columns) tiles a line)" : "the list"
        report.section("\(user) in \(view): End held from the first item, one key every \(keyRepeatMilliseconds) ms, 0 ms latency")
        report.row("items when End was let go", "\(held.rows) of \(items)",
                   held.reachedEnd ? "last row on screen" : held.stalled ? "STALLED: no new row for \(Format.number(stallSeconds, digits: 0)) s" : "timed out")
        report.row("items on screen then", "\(held.onScreen.lowerBound)…\(held.onScreen.upperBound - 1)", "footer: “\(held.footer)”")
        report.row("time held", Format.number(held.seconds, digits: 1) + " s", "\(held.keys) End presses")
        report.row("resident memory", "peak \(Format.megabytes(ProcessStats.peakResidentMiB()))",
                   "baseline with the window open \(Format.megabytes(baseline)); highest sampled \(Format.megabytes(held.sampledPeak))")
        report.row("threads", "\(held.threadsAtRest) at rest at the end, at most \(held.maxThreads) while paging",
                   "100 items: \(small.threadsAtRest) at rest, at most \(small.maxThreads) (GLib's worker pool, capped)")
        report.loopRows(held.gaps, title: "while End was held")
        report.frameRows(held.frames)
        report.row("thumbnails requested while End was held", "\(held.requests)",
                   "for \(held.offScreenRequests.count) items off screen and not just ahead when sent"
                   + (held.offScreenRequests.isEmpty ? "" : ": " + held.offScreenRequests.prefix(8).map(String.init).joined(separator: " ")))
        if let searchStall {
            report.row("new search with \(held.rows) loaded", "worst main-loop gap \(Format.milliseconds(searchStall))",
                       "of its own \(Format.milliseconds(searchStallOwn)); main-thread work \(Format.milliseconds(searchStallWork))")
        }

        let name = (grid ? "grid-" : "") + (items >= 100_000 ? "100k" : "10k")
        report.goal("\(name)-reaches-end", count: held.reachedEnd ? held.rows : min(held.rows, items - 1), equals: items,
                    what: "rows with the last on screen")
        report.goal("\(name)-peak-rss", measured: ProcessStats.peakResidentMiB(),
                    atMost: items >= 100_000 ? Goals.hundredThousandPeakMegabytes : Goals.tenThousandPeakMegabytes, unit: "MiB")
        report.goal("\(name)-p99-gap", measured: held.gaps.p99Milliseconds, atMost: Goals.longScrollP99GapMilliseconds, unit: "ms")
        report.goal("\(name)-worst-gap", measured: held.gaps.worstMilliseconds, atMost: Goals.longScrollWorstGapMilliseconds, unit: "ms")
        report.mainThreadWorkGoal("\(name)-main-thread-work", work: max(held.gaps.workMilliseconds, searchWork))
        // No more threads than for a gallery of 100: fewer is fine (GLib's pool lets an idle worker go after a
        // while, so one may still be waiting when the small run is counted).
        report.goal("\(name)-threads", count: held.threadsAtRest, atMost: small.threadsAtRest,
                    what: "threads at rest at the end (100 items: \(small.threadsAtRest))")
        report.goal("\(name)-flown-past-requests", count: held.offScreenRequests.count, equals: 0, what: "requests")
        if newSearch {
            report.goal(grid ? "grid-new-search-stall" : "new-search-stall", measured: searchStall ?? .infinity, atMost: Goals.newSearchStallMilliseconds, unit: "ms")
        }
    }

    struct HeldEnd {
        var seconds = 0.0
        var keys = 0
        var rows = 0
        var reachedEnd = false
        var stalled = false
        var footer = ""
        /// The rows on screen when End was let go.
        var onScreen: Range<Int> = 0..<0
        var maxThreads = 0
        /// Once the last screen's thumbnails are in.
        var threadsAtRest = 0
        var sampledPeak = 0.0
        var gaps: MainLoopProbe.Summary
        var frames: FrameWatcher.Summary
        /// Thumbnails requested while End was held.
        var requests = 0
        /// Items whose thumbnail went out while they were neither on screen nor within the prefetch ahead.
        var offScreenRequests: [Int] = []
    }

    /// Presses End every `keyRepeatMilliseconds` until the gallery's last row is on screen, it stalls, or
    /// `timeout` passes. The threads at rest are counted once there are `restingThreads` or fewer, or after a
    /// minute: on a loaded machine the last decodes and GLib's idle workers take a while to wind down, and a
    /// thread that never goes is still counted.
    static func holdEnd(_ app: AppUnderTest, items: Int, timeout: Double, restingThreads: Int? = nil)
        throws(BenchmarkError) -> HeldEnd {
        try Loop.run(until: { app.listIsShown }, timeout: 10, "the gallery page")
        app.list.select(0, focus: true)
        Keyboard.focus(app.window.window)
        // Every thumbnail request, checked against the view when the scheduler sends it: the item must be on
        // screen or within the prefetch ahead of it, else it was flown past.
        var requests = 0
        var offScreen: [Int] = []
        let observer = SessionObserver(app.client)
        observer.onQueued = { path in
            guard let item = itemOfThumbnail(path) else { return }
            requests += 1
            let visible = app.list.visibleRange
            let ahead = GalleryListView.thumbnailPrefetchRows * app.list.columns
            if !(visible.lowerBound - ahead..<visible.upperBound + ahead).contains(item) { offScreen.append(item) }
        }
        let sampler = ProcessSampler()
        sampler.start()
        let probe = MainLoopProbe()
        probe.start()
        app.paints.resetSummary()
        let start = Loop.now()
        var lastGrowth = (rows: app.list.rowCount, time: start)
        let end = try Keyboard.hold("End", repeatMilliseconds: keyRepeatMilliseconds)
        let reachedEnd = {
            app.window.gallery?.feed.state == .finished && app.list.rowCount == items
                && app.list.visibleRange.contains(items - 1)
        }
        var stalled = false
        try? Loop.run(until: {
            if reachedEnd() { return true }
            let now = Loop.now()
            if app.list.rowCount != lastGrowth.rows { lastGrowth = (app.list.rowCount, now) }
            stalled = Double(now - lastGrowth.time) / 1_000_000 > stallSeconds
            return stalled
        }, timeout: timeout, "End held to the last row")
        end.release()
        let seconds = Loop.milliseconds(since: start) / 1000
        // Let the last screen settle before reading the footer.
        try? Loop.run(until: { app.visibleRowsAreSettled }, timeout: 10, "the last rows' thumbnails")
        let gaps = probe.stop()
        sampler.stop()
        Loop.run(for: 0.5)
        if let restingThreads {
            try? Loop.run(until: { ProcessStats.threads() <= restingThreads }, timeout: 60, "the threads at rest")
        }
        withExtendedLifetime(observer) {}
        return HeldEnd(seconds: seconds, keys: end.presses, rows: app.list.rowCount, reachedEnd: reachedEnd(), stalled: stalled,
                       footer: app.list.footerText, onScreen: app.list.visibleRange, maxThreads: sampler.maxThreads,
                       threadsAtRest: ProcessStats.threads(), sampledPeak: sampler.maxResidentMiB,
                       gaps: gaps, frames: app.paints.summary, requests: requests, offScreenRequests: offScreen)
    }

    /// "/thumbs/150/huge-0001234-atlas-….jpg" → 1233.
    static func itemOfThumbnail(_ path: String) -> Int? {
        guard path.hasPrefix("/thumbs/"), let range = path.firstRange(of: "/huge-") else { return nil }
        return Int(path[range.upperBound...].prefix(7)).map { $0 - 1 }
    }
}
