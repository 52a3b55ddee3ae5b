import CGLib
import CGtk
import GObjectBindings
import GtkBindings
import GalleryCore
import GalleryDemoServer
import GalleryUI

/// GTK and the GtkApplication the windows belong to, set up once per process.
@MainActor
enum BenchGTK {
    private static var application: Application?

    /// Opens the display (Xvfb under `make bench`) and registers the application once.
    static func shared() throws(BenchmarkError) -> Application {
        if let application { return application }
        guard gtk_init_check(nil, nil) != 0 else {
            throw BenchmarkError(description: "GTK could not open a display; run through `make bench` (Xvfb)")
        }
        let created = Application(id: "io.github.galleryviewer.GalleryViewer.Benchmarks")
        do {
            try created.register()
        } catch {
            throw BenchmarkError(description: "could not register the application: \(error.message)")
        }
        application = created
        try installAppStylesheet()
        return created
    }

    /// resources/style.css, as the app's `Style.install` loads it at start-up: what a frame paints (rounded
    /// thumbnail backgrounds, focus rings) is the app's, not the bare theme's.
    private static func installAppStylesheet() throws(BenchmarkError) {
        let file = #filePath
        guard let root = file.firstRange(of: "/Tests/Benchmarks/").map({ String(file[..<$0.lowerBound]) }),
              let css = File.smallText(atPath: root + "/resources/style.css") else {
            throw BenchmarkError(description: "resources/style.css is missing")
        }
        do throws(GLibError) {
            try CssProvider.install(css)
        } catch {
            throw BenchmarkError(description: "resources/style.css: \(error.message)")
        }
    }
}

/// The app as a user gets it — a real MainWindow (760×720, the app's default size) with its own HTTP client
/// and image pipeline at the app's default configuration — talking to a demo server. A fresh one per run
/// means cold caches and new connections, as at app start.
@MainActor
final class AppUnderTest {
    let client: HTTPClient
    /// The disk cache, when the run opts in (`cacheDirectory`): the numbers of every other scenario are of
    /// the network, and its request counts must not be answered from disk.
    let cache: HTTPCache?
    let pipeline: ImagePipeline
    private let helpersAfterFirstFrame = PaintWatcher()
    /// The saved first pages and first screens, with `cacheDirectory`.
    let snapshots: FeedSnapshotStore?
    let window: MainWindow
    private(set) var paints: FrameWatcher!
    /// When the window was built and presented (and the launch's search made), before its first frame.
    private(set) var presentedAt = 0

    /// With `cacheDirectory`, a disk cache and saved first pages there, as the app's window has.
    /// `settleFirstFrames` lets the first frames (theme, header bar) go by before returning, so they do not
    /// count as the app's work; a launch measurement counts them.
    /// `following`: the window's follow store and checker (Follow, Following and the New view).
    /// `launchSearch`: a demo user searched as the app's launch does, from its saved copy, right after the window
    /// is presented (before its first frame), with `awaiting` watched from the first frame on (`paints.awaitedPaint`);
    /// the decoder helpers start after that frame, and the window is returned at once, before it is mapped.
    init(serverURL: String, cacheDirectory: String? = nil, settleFirstFrames: Bool = true,
         following: (store: FollowStore, checker: FollowChecker)? = nil,
         launchSearch: String? = nil, awaiting: (@MainActor (AppUnderTest) -> Bool)? = nil) throws(BenchmarkError) {
        let application = try BenchGTK.shared()
        cache = cacheDirectory.map { HTTPCache(directory: $0 + "/http", maxBytes: CacheSettings().maxBytes) }
        client = HTTPClient(cache: cache)
        // A launch as the app makes it starts the decoder helpers after the window's first frame; the other
        // scenarios measure with them ready.
        pipeline = ImagePipeline(client: client, decodes: launchSearch == nil)
        snapshots = cacheDirectory.map { FeedSnapshotStore(path: $0 + "/last-gallery.json") }
        // As the app's DiskCache does: read while the window is made.
        snapshots?.readAhead()
        let services = GalleryServices(client: client, pipeline: pipeline, snapshots: snapshots, following: following) {
            kind, username throws(GalleryError) in
            try kind.makeSource(username: username, endpointOverride: serverURL)
        }
        window = MainWindow(application: application, services: services)
        window.present()
        // Realized now: every frame from the first is watched.
        paints = FrameWatcher(window.window)
        if let awaiting { paints.await { [unowned self] in awaiting(self) } }
        if let launchSearch {
            helpersAfterFirstFrame.start(on: window.window) { [pipeline] in
                pipeline.startDecoderHelpers()
                return false
            }
            window.search(source: .demo, username: launchSearch, fromSavedCopy: true)
        }
        presentedAt = Loop.now()
        // A launch's caller runs the loop from here, measuring its frames from the first.
        if launchSearch != nil { return }
        try Loop.run(until: { self.window.window.isMapped }, timeout: 10, "the window mapping")
        if settleFirstFrames { Loop.run(for: 0.2) }
    }

    var list: GalleryListView { window.listView }

    /// What the app keeps as it quits besides the HTTP cache's index: the first screen's thumbnails.
    func keepFirstScreen() {
        if let snapshots, let gallery = window.gallery { snapshots.saveFirstScreen(of: gallery, cache: pipeline.cache) }
    }

    func download(_ index: Int) -> ItemViewModel? { list.download(at: index) }

    /// Searches `user` on the demo source and pages through the whole feed (the list asks for pages only
    /// as the user nears the end; a benchmark that needs every row asks itself).
    func searchAndLoadAllPages(_ user: String, expected: Int, timeout: Double = 60) throws(BenchmarkError) {
        window.search(source: .demo, username: user)
        try Loop.run(until: {
            guard let gallery = self.window.gallery else { return false }
            if gallery.canLoadMore { gallery.loadMore() }
            return gallery.feed.state == .finished && self.list.rowCount >= expected
        }, timeout: timeout, "loading all \(expected) rows of \(user)")
    }

    /// The gallery page is the one the window's stack shows, and no crossfade is running: a search shows
    /// "Loading…" first, and the page faded out is hidden (with the keyboard focus in it) when the fade ends.
    var listIsShown: Bool {
        // The list sits in the stack's gallery page (with the find bar above it), not in the stack itself.
        var page = list.container.widget
        while let parent = gtk_widget_get_parent(page) {
            if g_type_check_instance_is_a(UnsafeMutableRawPointer(parent).assumingMemoryBound(to: GTypeInstance.self),
                                          gtk_stack_get_type()) != 0 {
                let stack = parent.raw.as(GtkStack.self)
                return gtk_stack_get_visible_child(stack) == page && gtk_stack_get_transition_running(stack) == 0
            }
            page = parent
        }
        return false
    }

    /// True when every row in the viewport shows its final picture (thumbnail, error, or badge).
    var visibleRowsAreSettled: Bool {
        let range = list.visibleRange
        guard !range.isEmpty else { return false }
        return range.allSatisfy { index in download(index).map { $0.state.isSettled } ?? false }
    }

    func close() {
        window.gallery?.cancel()
        window.window.destroy()
        Loop.run(for: 0.1)
        paints = nil
    }
}

/// The demo catalog, read from the same data directory the server uses.
@MainActor
enum DemoData {
    static func catalog() throws(BenchmarkError) -> DemoCatalog {
        guard let directory = DemoGalleryLocation.defaultDataDirectory() else {
            throw BenchmarkError(description: "no demo data; run `make demo-data-release` (make bench does)")
        }
        do {
            return try DemoCatalog(contentsOf: DemoGalleryLocation.catalogPath(in: directory))
        } catch {
            throw BenchmarkError(description: "the demo catalog does not load: \(error)")
        }
    }

    /// The `count` largest aurora items that load as images (no fault, not adult), largest first.
    static func largestLoadableItems(of user: String, count: Int) throws(BenchmarkError) -> [DemoItem] {
        guard let items = try catalog().user(named: user)?.items else {
            throw BenchmarkError(description: "no demo user \(user)")
        }
        return Array(items.filter { $0.fault == nil && $0.rating == .nonadult }
            .sorted { $0.width * $0.height > $1.width * $1.height }
            .prefix(count))
    }
}
