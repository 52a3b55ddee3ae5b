import CGLib
import CGtk
import GObjectBindings
import GalleryCore
import GalleryDemoServer

/// Goal 1: the main loop never blocks. While the window's large view opens aurora's biggest images (up to
/// 4000 px, decoded to the 1280 px screen) one after another, a second gallery loads all 360 atlas
/// thumbnails through the same pipeline — decoding on GTask threads all the while, on a 2-core machine. The
/// probe measures every main-loop gap meanwhile. Three rounds, each with a new window and cold caches, so
/// the percentiles rest on several hundred samples; set-up between rounds is not measured.
@MainActor
enum MainLoopScenario {
    static let bigImages = 12
    static let rounds = 3

    static func run(_ report: Report) throws(BenchmarkError) {
        let server = try DemoServerProcess()
        let big = try DemoData.largestLoadableItems(of: "aurora", count: bigImages)
        let probe = MainLoopProbe()
        var frames = FrameWatcher.Summary()
        var openTimes: [Double] = []
        var imagesDone: [Double] = []
        var atlasDone: [Double] = []
        var loaded: [Int] = []
        var roundWork: [Double] = []
        for _ in 0..<rounds {
            let round = try Round(server: server, big: big)
            probe.start()
            try round.run()
            probe.stop()
            roundWork.append(probe.takeRoundWorstBusyMilliseconds())
            frames.add(round.app.paints.summary)
            openTimes += round.openTimes
            imagesDone.append(round.imagesDone)
            atlasDone.append(round.atlasDone)
            loaded.append(round.atlas.loadedCount)
            round.close()
        }
        _ = try server.stop()

        let gaps = probe.summary
        let sizes = big.map { "\(max($0.width, $0.height))" }.joined(separator: ", ")
        report.section("\(big.count) large images opened one after another + 360 atlas thumbnails, 0 ms latency, \(rounds) rounds")
        report.row("large images (long side, px)", sizes)
        report.row("open → full image painted", Format.spread(openTimes))
        report.row("all large images shown after", Format.spread(imagesDone))
        report.row("all 360 atlas thumbnails after", Format.spread(atlasDone), "loaded: \(loaded)")
        report.loopRows(gaps, title: "while it all loads")
        report.row("worst main-thread work by round", Format.spread(roundWork), "the goal takes the median round's")
        report.frameRows(frames)
        report.goal("worst-gap", measured: gaps.worstMilliseconds, atMost: Goals.worstGapMilliseconds, unit: "ms")
        report.goal("p99-gap", measured: gaps.p99Milliseconds, atMost: Goals.p99GapMilliseconds, unit: "ms")
        // Some hundreds of windows: the median round's worst, as in NewViewScenario.
        report.mainThreadWorkGoal(work: Stats(roundWork).median)
        report.goal("thumbnails-loaded", count: loaded.min() ?? 0, equals: 360, what: "atlas thumbnails (fewest in a round)")
    }

    /// One round: a new window showing aurora (all pages loaded beforehand), and the atlas gallery.
    @MainActor
    private final class Round {
        let app: AppUnderTest
        let atlas: Gallery
        let downloads: [ItemViewModel]
        private(set) var openTimes: [Double] = []
        private(set) var imagesDone = 0.0
        private(set) var atlasDone = 0.0
        private var atlasFinished: Int?

        init(server: DemoServerProcess, big: [DemoItem]) throws(BenchmarkError) {
            app = try AppUnderTest(serverURL: server.baseURL)
            try app.searchAndLoadAllPages("aurora", expected: 60)
            // Set-up ends when aurora is on screen and still: its page faded in, its rows all made (a few per
            // frame) and their thumbnails shown. Otherwise the first large view opened in the same frames as
            // the list's first rows, which no user can do, and those frames were the scenario's worst.
            let app = app
            try Loop.run(until: { app.listIsShown && !app.list.isAddingCells && app.visibleRowsAreSettled }, timeout: 30,
                         "aurora's first rows on screen")
            let all = app.window.gallery?.downloads ?? []
            downloads = big.compactMap { item in all.first { $0.item.fullImageURL?.hasSuffix("/images/\(item.fileName)") == true } }
            guard downloads.count == big.count else { throw BenchmarkError(description: "aurora's big images are not in the gallery") }
            atlas = Gallery(source: try MainLoopScenario.demoSource("atlas", server.baseURL), client: app.client, pipeline: app.pipeline)
            // Every atlas row "on screen" at once: all 360 thumbnails wanted at .visible priority.
            atlas.onDownloadsAppended = { downloads in downloads.forEach { $0.setVisible(true) } }
        }

        func run() throws(BenchmarkError) {
            let start = Loop.now()
            app.paints.resetSummary()
            atlas.start()
            let pageAtlas = { [self] in
                if atlas.canLoadMore { atlas.loadMore() }
                if atlasFinished == nil, atlas.feed.state == .finished, atlas.downloads.allSatisfy({ $0.state.isSettled }) {
                    atlasFinished = Loop.now()
                }
            }
            let view = app.window.largeView
            for download in downloads {
                let opened = Loop.now()
                app.window.openLargeView(download)
                try Loop.run(until: { view.isShowingFullImage || view.failure != nil }, timeout: 30,
                             "the full image of \(download.item.fileName)", afterEach: pageAtlas)
                if let failure = view.failure { throw BenchmarkError(description: "\(download.item.fileName): \(failure)") }
                openTimes.append(Double(app.paints.paint(after: Loop.now()) - opened) / 1000)
            }
            imagesDone = Loop.milliseconds(since: start)
            try Loop.run(until: { self.atlasFinished != nil }, timeout: 60, "all 360 atlas thumbnails", afterEach: pageAtlas)
            atlasDone = Double(atlasFinished! - start) / 1000
        }

        func close() {
            app.window.closeLargeView()
            atlas.cancel()
            app.close()
        }
    }

    static func demoSource(_ user: String, _ baseURL: String) throws(BenchmarkError) -> any GallerySource {
        do {
            return try SourceKind.demo.makeSource(username: user, endpointOverride: baseURL)
        } catch {
            throw BenchmarkError(description: "no demo source for \(user): \(error.title)")
        }
    }
}
