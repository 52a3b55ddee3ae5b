import CGLib
import CGtk
import GObjectBindings
import GalleryCore
import GalleryDemoServer

/// The disk cache across launches. Each "launch" is a new window, HTTP client and disk cache on the same
/// directory, measured from opening the cache (the app's startup) to the frame that shows every visible row's
/// final picture — in-process: without the process start and GTK's own initialisation. The cache's files are
/// in the page cache (just written), as for a relaunch soon after a quit.
///
///   relaunch   with a cache at its working size (4,000 entries of other galleries): first launch of aurora
///              (network, 100 ms latency) → quit → a launch with the server up (feed from the network,
///              thumbnails from disk: no thumbnail requests) → the server gone: the saved first page and
///              thumbnails from disk, said to be offline
///   fullcache  256 MB of thumbnails stored: the index file's size, the synchronous dump at quit, and reading
///              it again (with the trim) on the worker while the main loop runs
@MainActor
enum CacheScenario {
    static let latency = 100
    static let runs = 5

    static func runRelaunch(_ report: Report) throws(BenchmarkError) {
        let directory = try makeDirectory()
        defer { removeDirectory(directory) }
        let first = try DemoServerProcess(latencyMilliseconds: latency)
        let baseURL = first.baseURL
        let port = Int(baseURL.split(separator: ":").last ?? "") ?? 0
        // A cache at its working size: what earlier sessions stored (other galleries' thumbnails), up to the
        // entries a start keeps, so that every launch reads an index of that size.
        try fill(directory, with: HTTPCache.defaultMaxEntriesAfterTrim - 10, from: baseURL)

        let cold = try launch(baseURL, directory)
        let dumpStarted = Loop.now()
        cold.cache.dump()
        let dumpMilliseconds = Loop.milliseconds(since: dumpStarted)
        let indexBytes = DirectoryScan.fileBytes(at: directory + "/http/" + Soup.CacheIndex.fileName) ?? 0
        _ = try first.stop()
        // The same server again, at the same address, so that what it sees is the relaunches' requests alone.
        let again = try DemoServerProcess(latencyMilliseconds: latency, port: port)
        var warm: [Launch] = []
        for _ in 0..<runs {
            warm.append(try launch(baseURL, directory))
            warm.last?.cache.dump()
        }
        let requests = try again.stop().requests
        var offline: [Launch] = []
        for _ in 0..<runs { offline.append(try launch(baseURL, directory)) }
        // The HTTP cache's own path: the thumbnails kept at quit removed before each launch.
        var fromIndex: [Launch] = []
        for _ in 0..<runs {
            unlink(directory + "/last-gallery.thumbnails")
            fromIndex.append(try launch(baseURL, directory))
        }

        report.section("a launch → the first screen's thumbnails painted, \(latency) ms server latency (in-process, \(runs) runs each)")
        report.row("first launch of aurora", Format.milliseconds(cold.milliseconds),
                   "feed and \(cold.loaded) thumbnails from the network; \(HTTPCache.defaultMaxEntriesAfterTrim - 10) other entries in the cache")
        report.row("relaunch, server up", Format.spread(warm.map(\.milliseconds)), "feed from the network, thumbnails from disk")
        report.row("relaunch, server gone", Format.spread(offline.map(\.milliseconds)), "saved first page and thumbnails from disk")
        report.row("pictures painted, server up", Format.spread(warm.map(\.picturesMilliseconds)),
                   "the saved first page's pictures, before the failing images' messages")
        report.row("pictures painted, server gone", Format.spread(offline.map(\.picturesMilliseconds)))
        report.row("server gone, nothing kept but the HTTP cache", Format.spread(fromIndex.map(\.milliseconds)),
                   "the thumbnails wait for the index and are decoded again")
        report.row("reading the index at start", Format.spread(warm.map(\.indexMilliseconds)), "on a GTask worker; \(indexBytes) bytes")
        report.row("writing the index at quit", Format.milliseconds(dumpMilliseconds), "synchronous")
        report.row("keeping the first screen at quit", Format.spread((warm + offline).map(\.keepMilliseconds)),
                   "synchronous: \(DirectoryScan.fileBytes(at: directory + "/last-gallery.thumbnails") ?? 0) bytes of thumbnails")
        report.row("building the window and the search", Format.spread((warm + offline).map(\.buildMilliseconds)),
                   "relaunches; before it is shown, so not a gap anyone sees")
        report.row("worst main-loop gap, relaunches", Format.milliseconds((warm + offline).map(\.worstGap).max() ?? 0),
                   "from the window built to the first screen's thumbnails painted")
        // aurora's deliberately failing images answer no-store: asked for every time, by design.
        let thumbnailRequests = requests.filter { $0.contains("/thumbs/") && !$0.contains("fault=") }.count
        report.row("thumbnail requests on relaunch", "\(thumbnailRequests)",
                   "\(requests.count) requests in \(runs) relaunches: the feed, and failing images (no-store)")
        report.row("said offline", "\(offline.filter(\.saidOffline).count) of \(runs)")
        report.row("first screen from the saved copy", "\(warm.filter(\.fromSavedCopy).count) of \(runs) with the server up",
                   "the live gallery took its place after")
        report.goal("relaunch-thumbnail-requests", count: thumbnailRequests, equals: 0, what: "thumbnail requests")
        report.goal("offline-notice", count: offline.filter(\.saidOffline).count, equals: runs, what: "launches said offline")
        report.goal("offline-first-screen", measured: Stats(fromIndex.map(\.milliseconds)).median,
                    atMost: Goals.offlineFirstScreenMilliseconds, unit: "ms")
        report.goal("relaunch-pictures-offline", measured: Stats(offline.map(\.picturesMilliseconds)).median,
                    atMost: Goals.relaunchKeptFirstScreenMilliseconds, unit: "ms")
        report.goal("relaunch-first-screen", measured: Stats(warm.map(\.milliseconds)).median,
                    atMost: Goals.relaunchFirstScreenMilliseconds, unit: "ms")
        report.goal("relaunch-pictures", measured: Stats(warm.map(\.picturesMilliseconds)).median,
                    atMost: Goals.relaunchKeptFirstScreenMilliseconds, unit: "ms")
    }

    private struct Launch {
        let cache: HTTPCache
        let milliseconds: Double
        /// To the frame showing every visible picture that loads (not yet the failing ones' messages).
        let picturesMilliseconds: Double
        let buildMilliseconds: Double
        let indexMilliseconds: Double
        /// Keeping the first screen's thumbnails as the launch ended (the app does it as it quits).
        let keepMilliseconds: Double
        let loaded: Int
        let saidOffline: Bool
        let worstGap: Double
        /// The first screen was the saved copy (the live gallery had not taken its place yet).
        let fromSavedCopy: Bool
    }

    private static func launch(_ baseURL: String, _ directory: String) throws(BenchmarkError) -> Launch {
        let start = Loop.now()
        // The pictures first: every visible row whose image loads shows it (aurora's deliberately failing images,
        // "fault=", answer no-store and are asked for again by the live rows: they settle after). Asked after
        // each paint, so the frame that first showed them is the one timed: as in the app, the launch's search
        // comes before the window's first frame, which shows the saved copy when it was read in time.
        let picturesShown: @MainActor (AppUnderTest) -> Bool = { app in
            // The gallery's page shown, every visible row made (a few a frame once the window has painted)
            // and showing its picture.
            let range = app.list.visibleRange
            guard app.listIsShown, !app.list.isAddingCells else { return false }
            return !range.isEmpty && range.allSatisfy { index in
                guard let download = app.download(index) else { return false }
                return download.state == .loaded || (download.thumbnailURL ?? "").contains("fault=")
            }
        }
        let app = try AppUnderTest(serverURL: baseURL, cacheDirectory: directory, settleFirstFrames: false,
                                   launchSearch: "aurora", awaiting: picturesShown)
        // Building the window is one piece of work before it is shown (in the app, GtkApplication's activate),
        // when there is nothing on screen to keep responsive: timed on its own, not counted as a gap.
        let built = Double(app.presentedAt - start) / 1000
        let probe = MainLoopProbe()
        probe.start()
        try Loop.run(until: { app.paints.awaitedPaint != nil }, timeout: 30, "the first screen's pictures")
        let pictures = app.paints.awaitedPaint ?? 0
        do {
            try Loop.run(until: { app.visibleRowsAreSettled }, timeout: 30, "the first screen's thumbnails")
        } catch {
            // Which rows were still waiting, and in what state: what a failure needs to be looked into.
            let range = app.list.visibleRange
            let waiting = range.compactMap { index in
                app.download(index).flatMap { $0.state.isSettled ? nil : "\(index): \($0.state)" }
            }
            throw BenchmarkError(description: "\(error) (visible \(range), unsettled: \(waiting.joined(separator: ", ")))")
        }
        let shown = app.paints.paint(after: Loop.now())
        let fromSavedCopy = app.window.gallery?.isSavedCopy == true
        let loaded = app.list.visibleRange.filter { app.download($0)?.state == .loaded }.count
        // The first screen may be the saved copy; whether the service answered is known once the live gallery
        // took its place.
        try Loop.run(until: { app.window.gallery.map { !$0.isSavedCopy } ?? false }, timeout: 30, "the live gallery")
        let saidOffline = app.window.notices.notice.map { if case .offline = $0 { true } else { false } } ?? false
        let cache = app.cache!
        try Loop.run(until: { cache.isReady }, timeout: 10, "the index")
        let summary = probe.stop()
        let keepStarted = Loop.now()
        app.keepFirstScreen()
        let keepMilliseconds = Loop.milliseconds(since: keepStarted)
        let result = Launch(cache: cache, milliseconds: Double(shown - start) / 1000,
                            picturesMilliseconds: Double(pictures - start) / 1000, buildMilliseconds: built,
                            indexMilliseconds: Double(cache.loadReport?.microseconds ?? 0) / 1000,
                            keepMilliseconds: keepMilliseconds, loaded: loaded,
                            saidOffline: saidOffline, worstGap: summary.worstMilliseconds, fromSavedCopy: fromSavedCopy)
        app.close()
        return result
    }

    /// Stores `count` thumbnails of the huge demo gallery in the cache at `directory` and writes its index.
    private static func fill(_ directory: String, with count: Int, from baseURL: String) throws(BenchmarkError) {
        let huge = try hugeGallery()
        let cache = HTTPCache(directory: directory + "/http", maxBytes: CacheSettings().maxBytes)
        let client = HTTPClient(cache: cache)
        try store(huge, 1...count, from: baseURL, through: client)
        // Flushing needs the client's session.
        withExtendedLifetime(client) {
            cache.finishWrites()
            cache.dump()
        }
    }

    private static func hugeGallery() throws(BenchmarkError) -> DemoHugeGallery {
        guard let huge = DemoHugeGallery(name: "huge", catalog: try DemoData.catalog()) else {
            throw BenchmarkError(description: "no huge demo gallery")
        }
        return huge
    }

    /// Fetches the 150 px thumbnails of `huge`'s items `indices` through `client` (so its cache stores
    /// them), 12 at a time.
    private static func store(_ huge: DemoHugeGallery, _ indices: ClosedRange<Int>, from baseURL: String,
                              through client: HTTPClient) throws(BenchmarkError) {
        var next = indices.lowerBound
        var inFlight = 0
        try Loop.run(until: {
            while inFlight < 12 && next <= indices.upperBound {
                let url = baseURL + huge.item(index: next).imagePath(thumbnailLongSide: 150)
                next += 1
                inFlight += 1
                client.fetch(HTTPRequest(url: url, maxBodyBytes: 1_048_576), cancellable: Cancellable()) { _ in inFlight -= 1 }
            }
            return inFlight == 0 && next > indices.upperBound
        }, timeout: 600, "storing thumbnails \(indices.lowerBound)–\(indices.upperBound)")
    }

    // MARK: A full cache

    /// Entry counts at which the index is written and read again: libsoup 2.4's index costs grow faster
    /// than its entries (each insert checks its LRU list's length), which is what the trim's entry limit is for.
    static let checkpoints = [2_500, 5_000, 10_000, 20_000, 40_000]

    static func runFullCache(_ report: Report) throws(BenchmarkError) {
        let directory = try makeDirectory()
        defer { removeDirectory(directory) }
        let settings = CacheSettings()
        let server = try DemoServerProcess()
        let huge = try hugeGallery()
        report.section("the index at N entries (150 px thumbnails, ~6.5 KB each, under URLs of their own)")
        // The thumbnails a 96 px row asks for (150 px); the cache itself is not trimmed or capped here.
        let cache = HTTPCache(directory: directory + "/http", maxBytes: HTTPCache.largestMaxBytes, maxEntriesAfterTrim: .max)
        let client = HTTPClient(cache: cache)
        var stored = 0
        for checkpoint in checkpoints {
            try store(huge, (stored + 1)...checkpoint, from: server.baseURL, through: client)
            stored = checkpoint
            withExtendedLifetime(client) { cache.finishWrites() }
            let dumpStarted = Loop.now()
            cache.dump()
            let dumpMilliseconds = Loop.milliseconds(since: dumpStarted)
            let entries = entryCount(directory)
            // Read by a second cache on the same directory, as the next start does (nothing is fetched meanwhile).
            let reader = HTTPCache(directory: directory + "/http", maxBytes: HTTPCache.largestMaxBytes,
                                   maxEntriesAfterTrim: .max)
            try Loop.run(until: { reader.isReady }, timeout: 300, "reading the index")
            report.row("\(entries) entries", "read \(Format.milliseconds(Double(reader.loadReport?.microseconds ?? 0) / 1000))",
                       "written at quit in \(Format.milliseconds(dumpMilliseconds)); index \(indexBytes(directory) / 1024) KiB; "
                       + "\(DirectoryScan.totalFileBytes(in: directory + "/http") / 1_048_576) MB stored")
        }
        _ = try server.stop()

        // The next start with the app's settings: trimmed (to the newest entries, within three quarters of
        // the cap), then read, on a worker while the main loop runs; and the start after that.
        for label in ["next start: trim, read", "the start after: read"] {
            let probe = MainLoopProbe()
            probe.start()
            let started = HTTPCache(directory: directory + "/http", maxBytes: settings.maxBytes)
            try Loop.run(until: { started.isReady }, timeout: 300, "reading the index")
            let gaps = probe.stop()
            let gap = gaps.worstMilliseconds
            let load = started.loadReport
            let milliseconds = load.map { Double($0.microseconds) / 1000 } ?? .infinity
            report.row(label, Format.milliseconds(milliseconds),
                       "\(load?.trim?.entriesBefore ?? 0) → \(load?.trim?.entriesAfter ?? 0) entries (trim "
                       + "\(Format.milliseconds(Double(load?.trimMicroseconds ?? 0) / 1000))); main-loop gap meanwhile \(Format.milliseconds(gap))")
            if label.hasPrefix("next") {
                report.goal("start-gap", measured: gap, atMost: Goals.worstGapMilliseconds, unit: "ms")
                report.mainThreadWorkGoal("start-main-thread-work", work: gaps.workMilliseconds)
            } else if load == nil {
                report.failure("start-read", "the cache made no load report")
            } else {
                report.goal("start-read", measured: milliseconds, atMost: Goals.trimmedIndexReadMilliseconds, unit: "ms")
            }
            started.dump()
        }
    }

    private static func indexBytes(_ directory: String) -> Int {
        DirectoryScan.fileBytes(at: directory + "/http/" + Soup.CacheIndex.fileName) ?? 0
    }

    private static func entryCount(_ directory: String) -> Int {
        DirectoryScan.names(in: directory + "/http").filter { $0.first?.isNumber == true }.count
    }

    // MARK: Directory

    private static func makeDirectory() throws(BenchmarkError) -> String {
        guard let path = takeString(g_dir_make_tmp("gallery-bench-cache-XXXXXX", nil)) else {
            throw BenchmarkError(description: "no temporary directory")
        }
        return path
    }

    private static func removeDirectory(_ path: String) {
        for name in DirectoryScan.names(in: path) {
            let child = path + "/" + name
            if DirectoryScan.fileBytes(at: child) == nil { DirectoryScan.removeFlatDirectory(child) } else { unlink(child) }
        }
        rmdir(path)
    }
}
