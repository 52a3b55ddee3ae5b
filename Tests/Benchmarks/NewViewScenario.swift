import CGLib
import CGtk
import GObjectBindings
import GtkBindings
import GalleryCore
import GalleryDemoServer
import GalleryUI
import Glibc

/// Issue 28: "a New view of 10,000 items behaves like a 10,000-item gallery". 100 followed galleries
/// (`FollowedFeeds`) with 100 new images each, found by a check before the window opens. Then, in the real
/// window, five rounds of: a gallery of the same feeds searched (the first screen a search takes in this
/// run), then the New view opened — the time to its first screen of thumbnails — and End held at once, as
/// `end10k` holds it through a gallery, until its last image shows, while the New view still fills. The
/// main-loop gaps and memory of the five rounds count together, with `end10k`'s goals.
@MainActor
enum NewViewScenario {
    static let galleries = 100
    static let newPerGallery = 100
    static var total: Int { galleries * newPerGallery }
    static let rounds = 5

    static func run(_ report: Report) throws(BenchmarkError) {
        let images = try DemoServerProcess()
        let feeds = try DemoServerProcess(followedFeedsFor: images.baseURL)
        let scratch = ScratchFollowStore()
        defer { scratch.remove() }
        try scratch.followAndCheck(galleries: galleries, newPerGallery: newPerGallery, feeds: feeds.baseURL)
        let read = try timeStoreRead(scratch.store)

        // The window's checker is the app's: its launch check leaves alone the galleries checked minutes ago.
        let checker = FollowChecker(store: scratch.store, client: HTTPClient(), endpointOverride: { _ in feeds.baseURL })
        let app = try AppUnderTest(serverURL: feeds.baseURL, following: (scratch.store, checker))
        try Loop.run(until: { !checker.isChecking && !scratch.store.isBusy }, timeout: 60, "the launch check")
        Keyboard.focus(app.window.window)
        var idle = 0.0
        var searches: [Double] = []
        var firstScreens: [Double] = []
        var fills: [Double] = []
        var ends: [Double] = []
        var lastOnScreen = 0
        var presses = 0
        let sampler = ProcessSampler()
        let probe = MainLoopProbe()
        var frames = FrameWatcher.Summary()
        var roundWork: [Double] = []
        for round in 0..<rounds {
            // A gallery not followed, new each round: the New view is then opened anew, as a user comes back to it.
            var start = Loop.now()
            app.window.search(source: .demo, username: FollowedFeeds.name(galleries + 1 + round))
            try Loop.run(until: { app.visibleRowsAreSettled }, timeout: 30, "a gallery's first thumbnails")
            searches.append(Double(app.paints.paint(after: Loop.now()) - start) / 1000)
            Loop.run(for: 0.3)
            if round == 0 { idle = Memory.residentMiB() }

            sampler.start(everyMilliseconds: 50)
            probe.start()
            app.paints.resetSummary()
            start = Loop.now()
            guard app.window.showFollowedNewImages() else { throw BenchmarkError(description: "the window has no following") }
            try Loop.run(until: { app.window.gallery?.isKnownItems == true && app.listIsShown && app.visibleRowsAreSettled },
                         timeout: 30, "the New view's first thumbnails")
            firstScreens.append(Double(app.paints.paint(after: Loop.now()) - start) / 1000)
            let end = try Keyboard.hold("End", repeatMilliseconds: LongGalleryScenario.keyRepeatMilliseconds)
            var filled: Double?
            try Loop.run(until: {
                guard let gallery = app.window.gallery, gallery.isKnownItems, !gallery.mayHaveMore else { return false }
                if filled == nil { filled = Loop.milliseconds(since: start) }
                return app.list.visibleRange.contains(gallery.downloads.count - 1) && app.visibleRowsAreSettled
            }, timeout: 60, "End held to the New view's last thumbnails")
            end.release()
            ends.append(Loop.milliseconds(since: start))
            // The last turn ends a gap only at the probe's next firing.
            Loop.run(for: 0.1)
            fills.append(filled ?? .nan)
            presses += end.presses
            lastOnScreen = app.list.visibleRange.upperBound
            probe.stop()
            roundWork.append(probe.takeRoundWorstBusyMilliseconds())
            sampler.stop()
            frames.add(app.paints.summary)
        }
        let rows = app.list.rowCount
        let gaps = probe.summary
        app.close()
        _ = try feeds.stop()
        _ = try images.stop()

        report.section("New view of \(galleries) followed galleries × \(newPerGallery) new images, 0 ms latency, \(rounds) rounds; "
                       + "resident \(Format.megabytes(idle)) before it opened")
        report.row("store read of the new images", Format.milliseconds(read), "on the store's worker, before the window opened")
        report.row("first screen of thumbnails", Format.spread(firstScreens), "the first round's thumbnails from the network")
        report.row("a gallery's search, the same", Format.spread(searches))
        report.row("all items in", Format.spread(fills), "\(rows) rows")
        report.row("End held to the last thumbnails", Format.spread(ends), "from opening; \(presses) End presses in all")
        report.row("resident memory", "peak \(Format.megabytes(ProcessStats.peakResidentMiB()))",
                   "above the window before the New view: \(Format.megabytes(sampler.maxResidentMiB - idle)) at most")
        report.loopRows(gaps, title: "from opening the New view to its last thumbnails, \(rounds) rounds")
        report.row("worst main-thread work by round", Format.spread(roundWork), "the goal takes the median round's")
        report.frameRows(frames)

        report.goal("first-screen", measured: firstScreens.first ?? .infinity, atMost: Goals.timeToThumbnailsMilliseconds[0]!,
                    unit: "ms")
        report.goal("reaches-end", count: lastOnScreen == rows ? rows : 0, equals: total, what: "rows with the last on screen")
        report.goal("p99-gap", measured: gaps.p99Milliseconds, atMost: Goals.longScrollP99GapMilliseconds, unit: "ms")
        report.goal("worst-gap", measured: gaps.worstMilliseconds, atMost: Goals.longScrollWorstGapMilliseconds, unit: "ms")
        // A few hundred windows in all, so their 99.9th percentile is the single worst: the median round's
        // worst is what a piece of work repeated in every round (opening the view, a slice, a frame of new
        // rows) makes, without the one window the machine inflates (Goals.mainThreadWorkMilliseconds).
        report.mainThreadWorkGoal(work: Stats(roundWork).median)
        report.goal("peak-rss", measured: ProcessStats.peakResidentMiB(), atMost: Goals.tenThousandPeakMegabytes, unit: "MiB")
    }

    /// How long the store takes to read and unpack every new image, on its worker (what the New view waits for first).
    private static func timeStoreRead(_ store: FollowStore) throws(BenchmarkError) -> Double {
        let start = Loop.now()
        var count: Int?
        store.newItems { count = (try? $0.get())?.count ?? -1 }
        try Loop.run(until: { count != nil }, timeout: 60, "the store's read")
        guard count == total else { throw BenchmarkError(description: "the store read \(count ?? 0) new images, not \(total)") }
        return Loop.milliseconds(since: start)
    }
}

/// A follow store in a scratch folder, as the app's in `$XDG_DATA_HOME`, removed by `remove()`.
@MainActor
final class ScratchFollowStore {
    let store: FollowStore
    private let folder: String

    init() {
        folder = takeString(g_dir_make_tmp("gallery-bench-new-XXXXXX", nil)) ?? "/tmp"
        store = FollowStore(directory: folder + "/gallery-viewer")
    }

    func remove() {
        for name in ["", "-wal", "-shm"] { unlink(store.path + name) }
        rmdir(folder + "/gallery-viewer")
        rmdir(folder)
    }

    /// Follows `FollowedFeeds` 1…`galleries` from a moment before each one's `newPerGallery` newest images,
    /// then checks them all once (with pages enough to reach back that far): every image found is new.
    func followAndCheck(galleries: Int, newPerGallery: Int, feeds: String) throws(BenchmarkError) {
        let catalog = try DemoData.catalog()
        var followed = 0
        for number in 1...galleries {
            store.follow(.init(source: .demo, username: FollowedFeeds.name(number)), displayName: "",
                         at: try FollowedFeeds.followedAt(number, newImages: newPerGallery, catalog: catalog)) { result in
                if case .success(true) = result { followed += 1 }
            }
        }
        try Loop.run(until: { followed == galleries }, timeout: 600, "following \(galleries) galleries")
        let pages = newPerGallery / DemoFeed.pageSize + 2
        let checker = FollowChecker(store: store, client: HTTPClient(),
                                    limits: .init(minimumInterval: 0, maxPagesPerGallery: pages, maxGalleriesAtOnce: 6),
                                    endpointOverride: { _ in feeds })
        var result: FollowCheckReport?
        checker.check { result = $0 }
        try Loop.run(until: { result != nil }, timeout: 900, "the check that finds the new images")
        guard let result, result.newItems.count == galleries * newPerGallery else {
            throw BenchmarkError(description: "the first check found \(result?.newItems.count ?? 0) new images, not "
                                 + "\(galleries * newPerGallery): \(result?.failures.first?.sentence ?? "")")
        }
        try Loop.run(until: { !store.isBusy }, timeout: 60, "the store's writes")
    }
}
