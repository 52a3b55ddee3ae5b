import CGLib
import CGtk
import GObjectBindings
import GtkBindings
import GalleryCore
import GalleryUI

/// Issue 7's jumps, over the 10,000-item gallery fully loaded, 0 ms latency (loopback), in the list (`jump`)
/// and in the grid (`gridjump`, issue 13):
/// - End (a real key) from the top, and scrollbar drags to fresh places: from the last move to the new
///   position's thumbnails painted;
/// - a drag across 5,000 rows (the adjustment moved as a scrollbar drag moves it, a step per frame): how
///   many thumbnails were requested for rows the view never rested on (the start screen, the end screen
///   and the few rows prefetched beyond it are the only ones it rested on or neared).
@MainActor
enum JumpScenario {
    static let user = "huge-10000"
    static let items = 10_000
    static let dragSteps = 30
    static let stepMilliseconds: UInt32 = 16

    static func run(_ report: Report) throws(BenchmarkError) {
        try run(report, mode: .list)
    }

    /// The same in the grid: drags over lines of tiles.
    static func runGrid(_ report: Report) throws(BenchmarkError) {
        try run(report, mode: .grid)
    }

    private static func run(_ report: Report, mode: GalleryViewMode) throws(BenchmarkError) {
        let server = try DemoServerProcess()
        let app = try AppUnderTest(serverURL: server.baseURL)
        app.window.setViewMode(mode)
        try app.searchAndLoadAllPages(user, expected: items, timeout: 120)
        try Loop.run(until: { app.visibleRowsAreSettled && app.pipeline.unfinishedTaskCount == 0 }, timeout: 30,
                     "the first rows' thumbnails")
        let list = app.list
        let lastMove = Box(Loop.now())
        list.adjustment.onValueChanged { lastMove.value = Loop.now() }
        var started: [Int] = []
        let observer = SessionObserver(app.client)
        observer.onQueued = { path in if let row = rowOfThumbnail(path) { started.append(row) } }

        // End, a real key press, from the first row.
        try Loop.run(until: { app.listIsShown }, timeout: 10, "the gallery page")
        list.select(0, focus: true)
        Keyboard.focus(app.window.window)
        let before = lastMove.value
        let endKey = try Keyboard.tap("End")
        try Loop.run(until: { lastMove.value != before }, timeout: 5, "the End key")
        withExtendedLifetime(endKey) {}
        let endTime = try settle(app, since: lastMove)

        // Scrollbar drags to fresh places.
        var dragTimes: [Double] = []
        for target in [2_000, 4_500, 7_000, 9_000] {
            try drag(list, toRow: target)
            dragTimes.append(try settle(app, since: lastMove))
        }

        // A drag across 5,000 rows.
        try drag(list, toRow: 1_000)
        _ = try settle(app, since: lastMove)
        let startScreen = list.visibleRange
        started = []
        try drag(list, toRow: 6_000)
        _ = try settle(app, since: lastMove)
        let endScreen = list.visibleRange
        let ahead = GalleryListView.thumbnailPrefetchRows * list.columns
        let rested = startScreen.lowerBound - ahead..<startScreen.upperBound + ahead
        let near = endScreen.lowerBound - ahead..<endScreen.upperBound + ahead
        let flownPast = started.filter { !rested.contains($0) && !near.contains($0) }
        withExtendedLifetime(observer) {}
        let columns = list.columns
        app.close()
        _ = try server.stop()

        let grid = mode == .grid
        let view = grid ? "the grid (\(columns) tiles a line)" : "the list"
        report.section("\(user) in \(view), all pages loaded, 0 ms latency: from the last move to the new items' thumbnails painted")
        report.row("End from the first item", Format.milliseconds(endTime))
        report.row("scrollbar drags to fresh items", Format.spread(dragTimes))
        report.section("a scrollbar drag from item 1,000 to item 6,000, \(dragSteps) steps \(stepMilliseconds) ms apart")
        report.row("thumbnails requested after the drag started", "\(started.count)",
                   "for items \(started.min().map(String.init) ?? "–")…\(started.max().map(String.init) ?? "–")")
        report.row("… for items flown past", "\(flownPast.count)", flownPast.prefix(8).map(String.init).joined(separator: " "))
        let prefix = grid ? "grid-" : ""
        report.goal(prefix + "end-jump", measured: endTime, atMost: Goals.jumpMilliseconds, unit: "ms")
        report.goal(prefix + "drag-jump", measured: Stats(dragTimes).max, atMost: Goals.jumpMilliseconds, unit: "ms")
        report.goal(prefix + "drag-flown-past-requests", count: flownPast.count, equals: 0, what: "requests")
    }

    /// Moves the view from where it is to item `row`'s line as a scrollbar drag does: a step per frame.
    private static func drag(_ list: GalleryListView, toRow row: Int) throws(BenchmarkError) {
        let from = list.adjustment.value
        let to = min(list.adjustment.maximumValue, Double(row / list.columns * list.lineHeight))
        let step = Box(0)
        let mover = MainLoopSource.every(milliseconds: stepMilliseconds) {
            step.value += 1
            list.adjustment.value = from + (to - from) * Double(step.value) / Double(dragSteps)
            return step.value < dragSteps
        }
        defer { mover.cancel() }
        try Loop.run(until: { step.value >= dragSteps }, timeout: 10, "the drag")
    }

    /// Milliseconds from the last move of the view to the first frame painted with every row on screen
    /// showing its final picture.
    private static func settle(_ app: AppUnderTest, since lastMove: Box<Int>) throws(BenchmarkError) -> Double {
        try Loop.run(until: { app.visibleRowsAreSettled }, timeout: 10, "the new rows' thumbnails")
        let painted = app.paints.paint(after: Loop.now())
        return Double(painted - lastMove.value) / 1000
    }

    /// "/thumbs/150/huge-0001234-atlas-….jpg" → 1233.
    private static func rowOfThumbnail(_ path: String) -> Int? {
        guard let range = path.firstRange(of: "/huge-") else { return nil }
        return Int(path[range.upperBound...].prefix(7)).map { $0 - 1 }
    }
}
