import CGtk
import GObjectBindings
import GalleryCore

/// Goal 1: the main loop never blocks. While the window's large view opens aurora's biggest images (up to
/// 4000 px, decoded to the 1280 px screen) one after another, a second gallery loads all 360 atlas
/// thumbnails through the same loader — decoding on GTask threads all the while, on a 2-core machine. The
/// probe measures every main-loop gap meanwhile.
@MainActor
enum MainLoopScenario {
    static let bigImages = 12

    static func run(_ report: Report) throws(BenchmarkError) {
        let server = try DemoServerProcess()
        let app = try AppUnderTest(serverURL: server.baseURL)
        try app.searchAndLoadAllPages("aurora", expected: 60)
        let big = try DemoData.largestLoadableItems(of: "aurora", count: bigImages)
        let downloads = big.compactMap { item in
            app.window.gallery?.downloads.first { $0.item.fullImageURL?.hasSuffix("/images/\(item.fileName)") == true }
        }
        guard downloads.count == big.count else { throw BenchmarkError(description: "aurora's big images are not in the gallery") }

        let source = try demoSource("atlas", server.baseURL)
        let atlas = Gallery(source: source, client: app.client, loader: app.loader)
        // Every atlas row "on screen" at once: all 360 thumbnails wanted at .visible priority.
        atlas.onDownloadsAppended = { downloads in downloads.forEach { $0.setVisible(true) } }
        let atlasDone = Box<Int?>(nil)
        let pageAtlas = {
            if atlas.canLoadMore { atlas.loadMore() }
            if atlasDone.value == nil, atlas.feed.state == .finished, atlas.downloads.allSatisfy({ $0.state.isSettled }) {
                atlasDone.value = Loop.now()
            }
        }

        let probe = MainLoopProbe()
        probe.start()
        app.paints.resetSummary()
        let start = Loop.now()
        atlas.start()
        var openTimes: [Double] = []
        for download in downloads {
            let opened = Loop.now()
            app.window.openLargeView(download)
            let view = app.window.largeView
            try Loop.run(until: { view.isShowingFullImage || view.failure != nil }, timeout: 30,
                         "the full image of \(download.item.fileName)", afterEach: pageAtlas)
            if let failure = view.failure { throw BenchmarkError(description: "\(download.item.fileName): \(failure)") }
            openTimes.append(Double(app.paints.paint(after: Loop.now()) - opened) / 1000)
        }
        let imagesDone = Loop.milliseconds(since: start)
        try Loop.run(until: { atlasDone.value != nil }, timeout: 60, "all 360 atlas thumbnails", afterEach: pageAtlas)
        let atlasMilliseconds = Double(atlasDone.value! - start) / 1000
        let gaps = probe.stop()
        let frames = app.paints.summary
        app.window.closeLargeView()
        atlas.cancel()
        app.close()
        _ = try server.stop()

        let sizes = big.map { "\(max($0.width, $0.height))" }.joined(separator: ", ")
        report.section("\(downloads.count) large images opened one after another + 360 atlas thumbnails, 0 ms latency")
        report.row("large images (long side, px)", sizes)
        report.row("open → full image painted", Format.spread(openTimes))
        report.row("all large images shown after", Format.milliseconds(imagesDone))
        report.row("atlas thumbnails loaded", "\(atlas.loadedCount) of \(atlas.downloads.count)",
                   "all settled after \(Format.milliseconds(atlasMilliseconds))")
        report.loopRows(gaps, title: "during the whole scenario")
        report.frameRows(frames)
        report.goal("worst-gap", measured: gaps.worstMilliseconds, atMost: Goals.worstGapMilliseconds, unit: "ms")
        report.goal("p99-gap", measured: gaps.p99Milliseconds, atMost: Goals.p99GapMilliseconds, unit: "ms")
        report.goal("thumbnails-loaded", count: atlas.loadedCount, equals: 360, what: "atlas thumbnails")
    }

    static func demoSource(_ user: String, _ baseURL: String) throws(BenchmarkError) -> any GallerySource {
        do {
            return try SourceKind.demo.makeSource(username: user, endpointOverride: baseURL)
        } catch {
            throw BenchmarkError(description: "no demo source for \(user): \(error.title)")
        }
    }
}
