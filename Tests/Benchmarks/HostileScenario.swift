import CGLib
import CGtk
import GObjectBindings
import GalleryCore
import GalleryDemoServer
import GalleryHostileServer
import GalleryUI

/// The hostile gallery: the app's window against the hostile server (in a child process). Every row of the
/// hostile gallery is wanted at once — decompression bombs, a 500 MB body, a gzip bomb, a drip, a stall — the
/// large view opens every bomb, then every hostile feed is searched in turn, a Mastodon reply of
/// 3.5 million zeros, and the hostile Bluesky and Misskey accounts. Measured: peak resident memory of the whole process (VmHWM) and the worst main-loop gap,
/// and whether every row and every feed came to an end (an error row or a message) in bounded time.
@MainActor
enum HostileScenario {
    /// Long enough for every bounded failure (stall and drip rules included) to have fired.
    static let rowsTimeoutSeconds = 90.0
    static let largeViewTimeoutSeconds = 30.0
    static let feedTimeoutSeconds = 60.0

    static func run(_ report: Report) throws(BenchmarkError) {
        let server = try DemoServerProcess(hostile: true)
        let app = try AppUnderTest(serverURL: server.baseURL)
        let probe = MainLoopProbe()
        let baseline = Memory.residentMiB()
        probe.start()

        // Which step the worst gap and the worst main-thread work so far came in: the probe's worst are read
        // after each one.
        var worstStep = ""
        var worstSoFar = 0.0
        var busiestStep = ""
        var busiestSoFar = 0.0
        let noteWorst = { (step: String) in
            let summary = probe.summary
            if summary.worstMilliseconds > worstSoFar { (worstSoFar, worstStep) = (summary.worstMilliseconds, step) }
            if summary.worstBusyMilliseconds > busiestSoFar { (busiestSoFar, busiestStep) = (summary.worstBusyMilliseconds, step) }
        }
        let rows = try loadGallery(app)
        noteWorst("the hostile gallery's rows")
        let large = openLargeViews(app) { title in noteWorst("the large view on \(title)") }
        var feedLines: [(name: String, seconds: Double, outcome: String)] = []
        var feedsEnded = 0
        let searches = HostileFeed.allCases.filter { $0 != .gallery }.map { (SourceKind.demo, $0.rawValue) }
            + [(SourceKind.mastodon, "\(HostileFeed.mastodonZerosAccount)@hostile.example")]
            + HostileSocialFeed.allCases.flatMap { [(SourceKind.bluesky, $0.blueskyHandle), (SourceKind.misskey, $0.misskeyAccount)] }
        for (source, user) in searches {
            let outcome = search(app, source: source, user: user)
            feedLines.append((user, outcome.seconds, outcome.text))
            if outcome.ended { feedsEnded += 1 }
            noteWorst("the search for \(user) (replacing the gallery before it)")
        }
        let gaps = probe.stop()
        app.close()
        _ = try server.stop()
        let peak = ProcessStats.peakResidentMiB()

        report.section("hostile gallery: \(rows.total) rows wanted at once, then the large view on each bomb")
        report.row("rows settled", "\(rows.settled) of \(rows.total)", "after \(Format.number(rows.seconds, digits: 1)) s")
        for line in rows.unsettled { report.row("  still loading", line) }
        report.row("large views ended", "\(large.ended) of \(large.total)", large.lines.joined(separator: "; "))
        report.section("hostile feeds, one search each")
        for line in feedLines {
            report.row(line.name, Format.number(line.seconds, digits: 2) + " s", line.outcome)
        }
        report.section("memory")
        report.row("resident before", Format.megabytes(baseline))
        report.row("peak resident (VmHWM)", Format.megabytes(peak))
        report.loopRows(gaps, title: "the whole scenario")
        report.row("worst gap during", worstStep)
        report.row("worst main-thread work during", busiestStep)
        report.goal("peak-rss", measured: peak, atMost: Goals.hostilePeakMegabytes, unit: "MiB")
        report.goal("worst-gap", measured: gaps.worstMilliseconds, atMost: Goals.worstGapMilliseconds, unit: "ms")
        report.mainThreadWorkGoal(work: gaps.workMilliseconds)
        report.goal("rows-settled", count: rows.settled, equals: rows.total, what: "rows with an image or an error")
        report.goal("large-views-ended", count: large.ended, equals: large.total, what: "large views with an image or a message")
        report.goal("feeds-ended", count: feedsEnded, equals: searches.count, what: "searches ending in rows or a message")
    }

    private struct RowsOutcome {
        var total = 0
        var settled = 0
        var seconds = 0.0
        var unsettled: [String] = []
    }

    private static func loadGallery(_ app: AppUnderTest) throws(BenchmarkError) -> RowsOutcome {
        let start = Loop.now()
        app.window.search(source: .demo, username: HostileFeed.gallery.rawValue)
        try Loop.run(until: { app.window.gallery.map { !$0.downloads.isEmpty && $0.feed.state != .loading(page: 1) } ?? false },
                     timeout: 30, "the hostile gallery's rows")
        let downloads = app.window.gallery?.downloads ?? []
        // Every row "on screen" at once, as a tall window would have them.
        downloads.forEach { $0.setVisible(true) }
        try? Loop.run(until: { downloads.allSatisfy { $0.state.isSettled } }, timeout: rowsTimeoutSeconds, "every row settling")
        var outcome = RowsOutcome(total: downloads.count, seconds: Loop.milliseconds(since: start) / 1000)
        outcome.settled = downloads.count { $0.state.isSettled }
        outcome.unsettled = downloads.filter { !$0.state.isSettled }.map { $0.item.title }
        return outcome
    }

    /// `ended(title)` runs after each view has closed and the list is back.
    private static func openLargeViews(_ app: AppUnderTest, ended viewEnded: (String) -> Void)
        -> (total: Int, ended: Int, lines: [String]) {
        let downloads = (app.window.gallery?.downloads ?? []).filter { download in
            HostileImage.allCases.contains { $0.isBomb && download.item.fullImageURL?.hasSuffix($0.path) == true }
        }
        var ended = 0
        var lines: [String] = []
        let view = app.window.largeView
        for download in downloads {
            let opened = Loop.now()
            app.window.openLargeView(download)
            let done = (try? Loop.run(until: { view.isShowingFullImage || view.failure != nil },
                                      timeout: largeViewTimeoutSeconds, "the large view")) != nil
            if done { ended += 1 }
            let what = view.isShowingFullImage ? "shown" : view.failure ?? "still loading"
            lines.append("\(download.item.title): \(what) in \(Format.number(Loop.milliseconds(since: opened) / 1000, digits: 1)) s")
            app.window.closeLargeView()
            // The list comes back and is drawn before the next view opens, as between a user's Escape and
            // next double-click: opened at once, the close and the next open were one piece of main-loop work
            // (the list's rows mapped and the view's laid out in the same frame), which no user can cause.
            Loop.run(for: 0.1)
            viewEnded(download.item.title)
        }
        return (downloads.count, ended, lines)
    }

    private static func search(_ app: AppUnderTest, source: SourceKind, user: String) -> (seconds: Double, ended: Bool, text: String) {
        let start = Loop.now()
        app.window.search(source: source, username: user)
        let ended = (try? Loop.run(until: {
            guard let gallery = app.window.gallery else { return true }
            switch gallery.feed.state {
            case .finished, .failed: return true
            case .idle: return !gallery.downloads.isEmpty
            case .loading, .waiting: return false
            }
        }, timeout: feedTimeoutSeconds, "the search for \(user)")) != nil
        let seconds = Loop.milliseconds(since: start) / 1000
        Loop.drain()  // the subtitle is updated from an idle callback
        let text = app.window.header.bar.subtitle ?? ""
        return (seconds, ended, String((ended ? text : "no end: " + text).prefix(90)))
    }
}
