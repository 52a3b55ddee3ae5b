import CGLib
import CGtk
import GObjectBindings
import GalleryCore

/// Goal 4: resident memory (VmRSS) as a user's session grows, in one process from a fresh start:
///   A. a Gallery of all 360 atlas items with every thumbnail decoded (models + pixels, no widgets);
///   B. the window showing those 360 rows (widgets; the thumbnails come from the cache);
///   C. a dozen of aurora's largest images opened in the large view one after another, then the same dozen
///      again (all cache hits: memory must not move);
///   D. full images opened one after another until twice the ImageCache's capacity went through it:
///      the cache is bounded, so memory must level off instead of growing per image.
@MainActor
enum MemoryScenario {
    static let dozen = 12
    /// Phase D reads memory every this many images.
    static let sampleEvery = 5
    /// Settling time before each reading: decode threads finish and release their buffers.
    static let settleSeconds = 0.3

    static func run(_ report: Report) throws(BenchmarkError) {
        let server = try DemoServerProcess()
        let app = try AppUnderTest(serverURL: server.baseURL)
        let capacity = Double(app.pipeline.cache.capacityBytes) / 1_048_576
        let baseline = reading()

        // A. 360 models and thumbnails, no widgets.
        let atlas = Gallery(source: try MainLoopScenario.demoSource("atlas", server.baseURL),
                            client: app.client, pipeline: app.pipeline)
        atlas.onDownloadsAppended = { downloads in downloads.forEach { $0.setVisible(true) } }
        atlas.start()
        try Loop.run(until: {
            if atlas.canLoadMore { atlas.loadMore() }
            return atlas.feed.state == .finished && atlas.downloads.allSatisfy { $0.state.isSettled }
        }, timeout: 60, "all atlas thumbnails")
        let thumbnails = reading()
        let thumbnailPixels = cacheMegabytes(app)

        // B. The same 360 rows in the window, each showing its thumbnail.
        try app.searchAndLoadAllPages("atlas", expected: 360)
        app.window.gallery?.downloads.forEach { $0.setVisible(true) }
        try Loop.run(until: { app.window.gallery?.downloads.allSatisfy { $0.state.isSettled } == true },
                     timeout: 30, "the window's 360 thumbnails")
        atlas.cancel()
        let rows = reading()

        // C. A dozen large images, twice.
        try app.searchAndLoadAllPages("aurora", expected: 60)
        let items = try DemoData.largestLoadableItems(of: "aurora", count: dozen)
        let bigDownloads = items.compactMap { item in
            app.window.gallery?.downloads.first { $0.item.fullImageURL?.hasSuffix("/images/\(item.fileName)") == true }
        }
        let beforeLarge = reading()
        let beforeLargeCache = cacheMegabytes(app)
        var firstRound: [Double] = []
        for download in bigDownloads {
            try open(download, in: app)
            firstRound.append(reading())
        }
        let afterDozenCache = cacheMegabytes(app)
        for download in bigDownloads { try open(download, in: app) }
        let secondRound = reading()

        // D. Full images through the cache until twice its capacity went through.
        try app.searchAndLoadAllPages("atlas", expected: 360)
        let pressureStart = reading()
        var throughCache = 0.0
        var opened = 0
        var samples: [Sample] = []
        for download in app.window.gallery?.downloads ?? [] where throughCache < 2 * capacity {
            try open(download, in: app)
            opened += 1
            throughCache += Double(app.window.largeView.shownPixbuf?.byteCount ?? 0) / 1_048_576
            if opened % sampleEvery == 0 {
                samples.append(Sample(images: opened, rss: reading(settle: 0.1), cache: cacheMegabytes(app), cacheFull: throughCache >= capacity))
            }
        }
        app.window.closeLargeView()
        app.close()
        _ = try server.stop()
        let plateau = Plateau(samples.filter(\.cacheFull))

        report.section("resident memory (VmRSS), one process from a fresh start")
        report.row("baseline: window open, nothing loaded", Format.megabytes(baseline))
        report.row("A. 360 atlas thumbnails in a Gallery", Format.megabytes(thumbnails),
                   "+\(Format.megabytes(thumbnails - baseline)); decoded pixels in the cache \(Format.megabytes(thumbnailPixels))")
        report.row("B. + the window on those 360 items", Format.megabytes(rows), "+\(Format.megabytes(rows - thumbnails)); a screenful of recycled rows")
        report.section("C. \(bigDownloads.count) large aurora images in the large view, one after another (decoded ≤ 1280 px)")
        report.row("before the first", Format.megabytes(beforeLarge), "cache \(Format.megabytes(beforeLargeCache))")
        report.row("after each", firstRound.map { Format.number($0, digits: 0) }.joined(separator: " "), "MiB")
        report.row("after the dozen", Format.megabytes(firstRound.last ?? .nan),
                   "cache \(Format.megabytes(afterDozenCache)) of \(Format.megabytes(capacity))")
        report.row("after the same dozen again", Format.megabytes(secondRound), "all from the cache")
        report.section("D. \(opened) atlas full images until \(Format.megabytes(throughCache)) went through the \(Format.megabytes(capacity)) cache")
        report.row("before", Format.megabytes(pressureStart))
        for sample in samples where sample.images % 25 == 0 {
            report.row("after \(sample.images) images", Format.megabytes(sample.rss),
                       "cache \(Format.megabytes(sample.cache))\(sample.cacheFull ? "" : ", still filling")")
        }
        report.row("once full: first third (median)", Format.megabytes(plateau.early), "\(plateau.count) samples, one every \(sampleEvery) images")
        report.row("once full: last third (median)", Format.megabytes(plateau.late),
                   "\(Format.number(plateau.kibPerImage, digits: 0)) KiB per image between them")

        let largeGrowth = (firstRound.last ?? .nan) - beforeLarge
        let unexplained = largeGrowth - (afterDozenCache - beforeLargeCache)
        report.goal("thumbnails-growth", measured: thumbnails - baseline, atMost: Goals.thumbnailsGrowthMegabytes, unit: "MiB")
        report.goal("rows-growth", measured: rows - thumbnails, atMost: Goals.rowsGrowthMegabytes, unit: "MiB")
        report.goal("dozen-growth-beyond-cache", measured: unexplained, atMost: Goals.largeBeyondCacheMegabytes, unit: "MiB")
        report.goal("dozen-again-growth", measured: secondRound - (firstRound.last ?? .nan),
                    atMost: Goals.reopenGrowthMegabytes, unit: "MiB")
        report.goal("growth-once-cache-full", measured: plateau.late - plateau.early,
                    atMost: Goals.plateauGrowthMegabytes, unit: "MiB")
        let peak = ([rows, secondRound] + firstRound + samples.map(\.rss)).max() ?? .nan
        report.goal("peak", measured: peak, atMost: Goals.peakMegabytes, unit: "MiB")
    }

    struct Sample {
        var images: Int
        var rss: Double
        var cache: Double
        /// At least the cache's capacity had gone through it: from here on it evicts as much as it takes in.
        var cacheFull: Bool
    }

    /// Memory once the cache is full, compared between the first and the last third of the readings.
    /// Medians, because single readings jump by tens of MiB as malloc returns or keeps freed decode buffers.
    struct Plateau {
        var early = Double.nan
        var late = Double.nan
        var count = 0
        var kibPerImage = Double.nan

        init(_ samples: [Sample]) {
            count = samples.count
            guard samples.count >= 3 else { return }
            let third = samples.count / 3
            let first = samples.prefix(third)
            let last = samples.suffix(third)
            early = Stats(first.map(\.rss)).median
            late = Stats(last.map(\.rss)).median
            let images = Double(last[last.startIndex + third / 2].images - first[first.startIndex + third / 2].images)
            kibPerImage = (late - early) * 1024 / images
        }
    }

    /// Opens `download` in the large view and waits until its full image is painted.
    private static func open(_ download: ItemViewModel, in app: AppUnderTest) throws(BenchmarkError) {
        app.window.openLargeView(download)
        let view = app.window.largeView
        try Loop.run(until: { view.isShowingFullImage || view.failure != nil }, timeout: 30,
                     "the full image of \(download.item.fileName)")
        _ = app.paints.paint(after: Loop.now())
    }

    private static func reading(settle: Double = settleSeconds) -> Double {
        Loop.run(for: settle)
        return Memory.residentMiB()
    }

    private static func cacheMegabytes(_ app: AppUnderTest) -> Double {
        Double(app.pipeline.cache.totalBytes) / 1_048_576
    }
}
