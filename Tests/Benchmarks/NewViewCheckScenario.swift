import CGLib
import CGtk
import GObjectBindings
import GtkBindings
import GalleryCore
import GalleryUI

/// Issue 28's scale goal with the window attached: a full check of 500 followed galleries (`FollowedFeeds`)
/// that finds one new image in each, run by the window's own Check Now while its New view shows the 10,000
/// images earlier checks found, scrolled halfway. Measured while it checks and until the New view has taken the
/// new images in, in place: main-loop gaps (the Following list's reads as galleries are checked, the New
/// view's replacement), memory above the window at rest before it (`followcheck` measures the checker alone).
@MainActor
enum NewViewCheckScenario {
    static let galleries = 500
    static let newPerGallery = 20
    static var shown: Int { galleries * newPerGallery }

    static func run(_ report: Report) throws(BenchmarkError) {
        let images = try DemoServerProcess()
        let feeds = try DemoServerProcess(followedFeedsFor: images.baseURL)
        let scratch = ScratchFollowStore()
        defer { scratch.remove() }
        try scratch.followAndCheck(galleries: galleries, newPerGallery: newPerGallery, feeds: feeds.baseURL)

        // Every gallery is checked when asked, however recently (the 15-minute skip would leave them all alone).
        let checker = FollowChecker(store: scratch.store, client: HTTPClient(), limits: .init(minimumInterval: 0),
                                    endpointOverride: { _ in feeds.baseURL })
        let app = try AppUnderTest(serverURL: feeds.baseURL, following: (scratch.store, checker))
        // The launch check (at the first paint) finds nothing new. The Following list has its galleries; its rows
        // are made only if it is opened, which this run does not do.
        try? Loop.run(until: { checker.isChecking }, timeout: 5, "the launch check")
        try Loop.run(until: { !checker.isChecking && !scratch.store.isBusy }, timeout: 900, "the launch check's end")

        guard app.window.showFollowedNewImages() else { throw BenchmarkError(description: "the window has no following") }
        try Loop.run(until: { app.window.gallery?.isKnownItems == true && app.window.gallery?.mayHaveMore == false }, timeout: 60,
                     "the New view's \(shown) images")
        let before = app.window.gallery
        app.list.scroll(toItem: shown / 2)
        try Loop.run(until: { app.visibleRowsAreSettled }, timeout: 30, "the thumbnails halfway down")
        let top = app.list.visibleRange.lowerBound
        let topID = app.download(top)?.item.id
        try grow(feeds.baseURL)
        Loop.run(for: 0.5)
        let idle = Memory.residentMiB()

        let sampler = ProcessSampler()
        sampler.start(everyMilliseconds: 50)
        let probe = MainLoopProbe()
        probe.start()
        // An animation on screen (a spinner) asks for a frame at every refresh: they must keep coming while
        // the check's completions queue up on the main loop (the probe, at a higher priority, would not see
        // frames starved by them).
        let animation = FrameTicker(widget: app.window.window)
        var lastFrame = Loop.now()
        var frameIntervals: [Double] = []
        animation.start { _ in
            let now = Loop.now()
            frameIntervals.append(Double(now - lastFrame) / 1000)
            lastFrame = now
            return true
        }
        let start = Loop.now()
        g_action_group_activate_action(OpaquePointer(app.window.window.widget), "check-following", nil)
        try Loop.run(until: { checker.isChecking }, timeout: 5, "the check's start")
        try Loop.run(until: { !checker.isChecking }, timeout: 900, "the check")
        let checked = Loop.milliseconds(since: start)
        try Loop.run(until: { app.window.gallery !== before && app.window.gallery?.mayHaveMore == false }, timeout: 60,
                     "the New view taking the new images in")
        let replaced = Loop.milliseconds(since: start)
        // The turn that replaced it ends a gap only at the probe's next firing, and the frame after it follows.
        Loop.run(for: 0.2)
        let gaps = probe.stop()
        sampler.stop()
        animation.stop()
        let worstFrameInterval = frameIntervals.dropFirst().max() ?? .infinity
        let rows = app.list.rowCount
        let newTop = app.list.visibleRange.lowerBound
        // The new images sort among the others (each gallery's is newer than its own images only).
        let kept = topID != nil && app.download(newTop)?.item.id == topID
        app.close()
        _ = try feeds.stop()
        _ = try images.stop()

        report.section("\(galleries) followed galleries checked by the window's Check Now, one new image each, 0 ms latency, "
                       + "the New view of \(shown) on screen at item \(top); resident \(Format.megabytes(idle)) before")
        report.row("check took", Format.number(checked / 1000, digits: 2) + " s")
        report.row("New view took them in", Format.number(replaced / 1000, digits: 2) + " s after Check Now",
                   "\(rows) rows; the item at the top " + (kept ? "stayed there" : "MOVED: \(topID ?? "none") at \(top), now item \(newTop)"))
        report.row("peak resident above idle", Format.megabytes(sampler.maxResidentMiB - idle))
        report.loopRows(gaps, title: "from Check Now to the New view replaced")
        report.row("frames of an animation", "\(frameIntervals.count) in \(Format.number(replaced / 1000, digits: 2)) s",
                   "longest between two: \(Format.milliseconds(worstFrameInterval))")

        report.goal("new-images-in-place", count: kept ? rows - shown : 0, equals: galleries, what: "new rows, the view kept in place")
        report.goal("p99-gap", measured: gaps.p99Milliseconds, atMost: Goals.longScrollP99GapMilliseconds, unit: "ms")
        report.mainThreadWorkGoal(work: gaps.workMilliseconds)
        report.goal("frame-interval", measured: worstFrameInterval, atMost: Goals.worstGapMilliseconds, unit: "ms")
        report.goal("memory-above-idle", measured: sampler.maxResidentMiB - idle, atMost: Goals.followCheckMemoryAboveIdleMiB,
                    unit: "MiB")
    }

    /// One growth step of every followed feed: one newer image at the top of each.
    private static func grow(_ feeds: String) throws(BenchmarkError) {
        let client = HTTPClient()
        client.useEndpoint(feeds)
        var answered: Result<HTTPResponse, HTTPError>?
        client.fetch(HTTPRequest(url: feeds + "/grow", maxBodyBytes: 1024, usesDiskCache: false), cancellable: Cancellable()) {
            answered = $0
        }
        try Loop.run(until: { answered != nil }, timeout: 30, "the feeds' growth")
        guard case .success(let response)? = answered, response.head.status == 200 else {
            throw BenchmarkError(description: "the feeds did not grow: \(String(describing: answered))")
        }
    }
}
