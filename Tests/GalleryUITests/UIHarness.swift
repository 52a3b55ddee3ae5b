import CGLib
import CGtk
import GObjectBindings
import GtkBindings
import GalleryCore
import GalleryDemoServer
import TestSupport
import XCTest
@testable import GalleryUI

/// A real main window in a real GTK application on the test's X display (Xvfb in `make test`), talking to the
/// demo server on 127.0.0.1.
@MainActor
final class UIHarness {
    let server: DemoServer
    let application: Application
    let client: HTTPClient
    let diskCache: HTTPCache?
    /// The saved first page and its first screen's thumbnails, with `cacheDirectory`.
    let snapshots: FeedSnapshotStore?
    let pipeline: ImagePipeline
    let window: MainWindow
    /// The state file's store, when the harness was given one (`stateFile`).
    let stateFile: RecentSearchStore?
    /// The follow store and its checker, when the harness was given a folder for them (`followDirectory`).
    let following: (store: FollowStore, checker: FollowChecker)?

    /// `endpoints` points other sources (or the Demo source, instead of the demo server) at local test servers;
    /// sources without one get a closed local port. With `cacheDirectory`, the client has a disk cache there
    /// and the window keeps its galleries' first pages there, as the app's window does.
    /// `serverLookupOrigin` answers for the server of a `/@NAME` link (NodeInfo), as the endpoint override does.
    /// With `stateFile`, the window keeps its recent galleries in that state.ini, as the app's window does.
    /// `sandbox` starts the decoder helpers (default: as the app does).
    init(server options: DemoServer.Options = .init(), client configuration: HTTPClient.Configuration = .init(),
         endpoints: [SourceKind: String] = [:], cacheDirectory: String? = nil, serverLookupOrigin: String? = nil,
         stateFile: String? = nil, followDirectory: String? = nil, decodeLimits: ImageDecodeLimits = .init(), sandbox: DecoderSandbox = .init()) throws {
        guard gtk_init_check(nil, nil) != 0 else {
            XCTFail("GTK could not open a display (DISPLAY=\(getenv("DISPLAY").map { String(cString: $0) } ?? "")); run the UI tests through `make test`")
            throw XCTSkip("no display")
        }
        server = try startDemoServer(options)
        application = try Self.sharedApplication()
        diskCache = cacheDirectory.map { HTTPCache(directory: $0 + "/http", maxBytes: 50_000_000) }
        client = HTTPClient(configuration: configuration, cache: diskCache)
        pipeline = ImagePipeline(client: client, limits: .init(decode: decodeLimits), sandbox: sandbox)
        let baseURL = server.baseURL
        snapshots = cacheDirectory.map { FeedSnapshotStore(path: $0 + "/last-gallery.json") }
        // As the app's DiskCache does: read while the window is made.
        snapshots?.readAhead()
        let stateStore = stateFile.map { RecentSearchStore(path: $0) }
        self.stateFile = stateStore
        following = followDirectory.map { directory in
            let store = FollowStore(directory: directory)
            // Every check asks (the 15-minute skip has a test of its own), with the tests' short waits.
            let checker = FollowChecker(store: store, makeClient: { HTTPClient(configuration: configuration) },
                                        limits: .init(minimumInterval: 0, feed: fastFeedLimits),
                                        endpointOverride: { kind in kind == .demo ? baseURL : "http://127.0.0.1:9" })
            return (store, checker)
        }
        let services = GalleryServices(client: client, pipeline: pipeline, feedLimits: fastFeedLimits, snapshots: snapshots,
                                       serverLookupOrigin: { serverLookupOrigin }, stateFile: stateStore,
                                       following: following) {
            kind, username throws(GalleryError) in
            let endpoint = endpoints[kind].map { $0 == Self.demoServerEndpoint ? baseURL : $0 }
            return try kind.makeSource(username: username,
                                       endpointOverride: endpoint ?? (kind == .demo ? baseURL : "http://127.0.0.1:9"))
        }
        window = MainWindow(application: application, services: services)
        // As GalleryViewerApplication does at start-up: the menu's toggle, its wrapper dropped.
        SimpleAction.addToggle(to: application, name: "show-sensitive", initial: false) { [weak window] show in
            window?.setShowSensitive(show)
        }
        window.window.setDefaultSize(width: 760, height: 720)
        window.present()
        XCTAssertTrue(iterateMainLoop(until: { self.window.window.isMapped }, timeout: 60), "the window was not shown")
    }

    /// In `endpoints`, points a source at the harness's own demo server (which speaks DeviantArt's feed).
    static let demoServerEndpoint = "demo-server"

    /// One registered application for the whole test run: GApplication exports itself on the session bus
    /// once per process and id.
    private static var application: Application?

    private static func sharedApplication() throws -> Application {
        if let application { return application }
        let created = Application(id: "io.github.galleryviewer.GalleryViewer.Tests")
        try created.register()
        application = created
        return created
    }

    /// Destroys the window and stops the server; everything pending must wind down without a critical.
    func close() {
        window.gallery?.cancel()
        window.window.destroy()
        // What the window had in flight is cancelled with it; the server stays up until the client and the
        // pipeline have let go of every request, so no cancellation meets a connection the server dropped.
        XCTAssertTrue(iterateMainLoop(until: {
            self.client.fetchesInFlight == 0 && self.pipeline.unfinishedTaskCount == 0 && self.pipeline.activeFetchCount == 0
        }, timeout: 60), "requests still in flight after the window closed: \(client.fetchesInFlight) fetches, \(pipeline.unfinishedTaskCount) pipeline tasks")
        drainMainLoop()
        server.stop()
        drainMainLoop()
    }

    var list: GalleryListView { window.listView }

    func search(_ username: String, source: SourceKind = .demo) {
        window.search(source: source, username: username)
    }

    @discardableResult
    func waitForRows(_ count: Int, timeout: Double = 60) -> Bool {
        // The view makes its first cells a few per frame: waiting for them too, a test finds every cell on screen.
        iterateMainLoop(until: { self.list.rowCount >= count && !self.list.visibleRange.isEmpty && !self.list.isAddingCells },
                        timeout: timeout)
    }

    /// Waits for the cells a switch of view or a taller window still makes, a few per frame.
    @discardableResult
    func waitForCells(timeout: Double = 60) -> Bool {
        iterateMainLoop(until: { !self.list.isAddingCells }, timeout: timeout)
    }

    /// Waits until the view has caught up with its adjustment: every item on screen has its cell bound, the
    /// cells still being made are made, and the window has laid them out where they show (two frames drawn).
    @discardableResult
    func waitForView(timeout: Double = 60) -> Bool {
        iterateMainLoop(until: {
            let visible = self.list.visibleRange
            return !visible.isEmpty && !self.list.isAddingCells
                && visible.allSatisfy { self.list.download(at: $0).flatMap { self.list.cell(for: $0) } != nil }
        }, timeout: timeout) && waitForFrames(of: window.window.widget, timeout: timeout)
    }

    /// Item `index` of the gallery shown; none fails the test that asked, not the whole test process.
    func download(_ index: Int, file: StaticString = #filePath, line: UInt = #line) throws -> ItemViewModel {
        try XCTUnwrap(list.download(at: index), "the gallery has no item \(index) (\(list.rowCount) items)", file: file, line: line)
    }
    /// Item `index`'s title, for a failure message.
    func title(_ index: Int) -> String { list.download(at: index)?.item.title ?? "no item \(index)" }

    /// The row or tile bound to item `index` now; none fails the test that asked, not the whole test process.
    func row(_ index: Int, file: StaticString = #filePath, line: UInt = #line) throws -> GalleryRow {
        try XCTUnwrap(list.row(for: try download(index, file: file, line: line)), "no row is bound to item \(index)",
                      file: file, line: line)
    }

    func tile(_ index: Int, file: StaticString = #filePath, line: UInt = #line) throws -> GalleryTile {
        try XCTUnwrap(list.tile(for: try download(index, file: file, line: line)), "no tile is bound to item \(index)",
                      file: file, line: line)
    }

    /// Scrolls so that row `index` (in the grid: its line) is at the top of the viewport (as far as the view
    /// allows) and lets the cells on screen come to rest: bound, and their thumbnails asked for (at once, or
    /// after `ThumbnailDemand.restMilliseconds` when the view jumped).
    func scroll(toRow index: Int) {
        list.scroll(toItem: index)
        XCTAssertTrue(iterateMainLoop(until: { self.list.visibleRange.contains(index) }, timeout: 60),
                      "row \(index) did not come into view")
        XCTAssertTrue(waitForView(), "the cells on screen were not bound")
        // Only the view's thumbnail demand sets an item's interest: every item on screen wanted `.visible`
        // is the demand having asked for this screen.
        XCTAssertTrue(iterateMainLoop(until: {
            self.list.visibleRange.allSatisfy { self.list.download(at: $0)?.interest == .visible }
        }, timeout: 60), "the thumbnails on screen were not asked for")
    }

    /// Activates the row showing item `index`, as a double-click or Enter on it does.
    func activate(_ index: Int) {
        guard let position = list.pool.position(ofIndex: index) else { return XCTFail("item \(index) has no row") }
        list.listBox.activateRow(at: position)
    }

    /// Opens aurora's item `index` (item 0: a 4000 × 2667 photo) in the large view and waits until its
    /// image is painted and the window laid out for the view.
    func openPhoto(_ index: Int = 0) -> LargeImageView {
        search("aurora")
        XCTAssertTrue(waitForRows(24))
        if let download = list.download(at: index) {
            window.openLargeView(download)
        } else {
            XCTFail("the gallery has no item \(index)")
        }
        let view = window.largeView
        XCTAssertTrue(iterateMainLoop(until: { view.isShowingFullImage }, timeout: 60), "the photo was not shown")
        // The header bar changed from search to viewer controls.
        settleLayout()
        return view
    }

    /// Lets the window take a change in (a new style, selection or layout): two frames drawn after it.
    func settleFrames() {
        XCTAssertTrue(waitForFrames(of: window.window.widget), "the window drew no frame")
    }

    /// Waits until the window is laid out at its final size, then `settleFrames`. A window whose content
    /// asks for more than it has (a header bar that grew) asks the X server for a bigger window and is laid
    /// out again when the new size comes back: settled is asking for no more than it has, at its X window's
    /// size.
    func settleLayout() {
        let widget = window.window.widget
        XCTAssertTrue(iterateMainLoop(until: {
            guard let gdkWindow = gtk_widget_get_window(widget) else { return false }
            var minimum = GtkRequisition()
            gtk_widget_get_preferred_size(widget, &minimum, nil)
            let width = gtk_widget_get_allocated_width(widget), height = gtk_widget_get_allocated_height(widget)
            return minimum.width <= width && minimum.height <= height
                && gdk_window_get_width(gdkWindow) == width && gdk_window_get_height(gdkWindow) == height
        }, timeout: 60), "the window was not laid out at its size")
        settleFrames()
    }

    func thumbnailRequests() -> [String] { server.requestLog.filter { $0.contains("/thumbs/") } }

    /// Presses and releases `keyval` through the window, as the keyboard does: the window's accelerators
    /// first, then the focused widget and its parents.
    func press(_ keyval: Int32, _ modifiers: GdkModifierType = GdkModifierType(rawValue: 0)) {
        guard let gdkWindow = gtk_widget_get_window(window.window.widget) else { return XCTFail("no GdkWindow") }
        let display = gdk_display_get_default()
        for type in [GDK_KEY_PRESS, GDK_KEY_RELEASE] {
            guard let event = gdk_event_new(type) else { return XCTFail("no key event") }
            event.pointee.key.window = gdkWindow
            g_object_ref(UnsafeMutableRawPointer(gdkWindow))
            event.pointee.key.send_event = 1
            event.pointee.key.state = modifiers.rawValue
            event.pointee.key.keyval = guint(keyval)
            // Key bindings (the list box's own, GTK's accelerators) match on the hardware keycode.
            var keys: UnsafeMutablePointer<GdkKeymapKey>?
            var count: Int32 = 0
            if gdk_keymap_get_entries_for_keyval(gdk_keymap_get_for_display(display), guint(keyval), &keys, &count) != 0,
               let keys {
                event.pointee.key.hardware_keycode = guint16(keys[0].keycode)
                event.pointee.key.group = guint8(keys[0].group)
                g_free(keys)
            }
            gdk_event_set_device(event, gdk_seat_get_keyboard(gdk_display_get_default_seat(display)))
            gtk_main_do_event(event)
            gdk_event_free(event)
        }
        // The window handles the key at once; what it left for an idle (a coalesced update) runs now.
        drainMainLoop()
    }

    /// The newest visible toplevel of `type`: a dialog GTK or the window opened on its own (a message dialog,
    /// GtkFileChooserNative's own chooser without a portal).
    /// Waits (up to 60 s) for a visible toplevel of `type` (a dialog the app opens) and returns it.
    static func waitForToplevel(ofType type: @escaping () -> GType) -> UnsafeMutablePointer<GtkWidget>? {
        var found: UnsafeMutablePointer<GtkWidget>?
        iterateMainLoop(until: {
            let wanted = type()
            found = wanted == 0 ? nil : toplevel(ofType: wanted)
            return found != nil
        }, timeout: 60)
        return found
    }

    static func toplevel(ofType type: GType) -> UnsafeMutablePointer<GtkWidget>? {
        let toplevels = gtk_window_list_toplevels()
        defer { g_list_free(toplevels) }
        var found: UnsafeMutablePointer<GtkWidget>?
        var node = toplevels
        while let current = node {
            let widget = current.pointee.data.assumingMemoryBound(to: GtkWidget.self)
            if isInstance(widget, of: type), gtk_widget_get_visible(widget) != 0 { found = widget }
            node = current.pointee.next
        }
        return found
    }

    /// Pages the current gallery to its end (as scrolling to the bottom again and again would).
    func loadAllPages(timeout: Double = 120) {
        XCTAssertTrue(iterateMainLoop(until: {
            guard let gallery = self.window.gallery else { return false }
            if gallery.canLoadMore { gallery.loadMore() }
            return gallery.feed.state == .finished
        }, timeout: timeout), "the gallery did not load to its end")
    }

    /// The widget with the keyboard focus.
    var focusWidget: UnsafeMutablePointer<GtkWidget>? {
        gtk_window_get_focus(window.window.widget.raw.as(GtkWindow.self))
    }

    /// Activates an action of the window ("reload", "next") or of the application ("app.show-sensitive") the
    /// way a menu item, a button or a shortcut does: through GAction, by name.
    func activateAction(_ name: String) {
        if name.hasPrefix("app.") {
            application.activateAction(String(name.dropFirst(4)))
        } else {
            window.window.activateAction(name)
        }
    }

    /// Waits until every row on screen has its final picture (image, error, badge).
    @discardableResult
    func waitForVisibleRowsSettled(timeout: Double = 60) -> Bool {
        iterateMainLoop(until: {
            let visible = self.list.visibleRange
            return !visible.isEmpty && visible.allSatisfy { self.list.download(at: $0)?.state.isSettled == true }
        }, timeout: timeout)
    }

    /// Waits until row `index` has its final picture (image, error, badge).
    @discardableResult
    func waitUntilSettled(_ index: Int, timeout: Double = 60) -> Bool {
        iterateMainLoop(until: { self.list.download(at: index)?.state.isFinal == true }, timeout: timeout)
    }
}

extension GalleryFeed {
    /// A page asked for and not yet in (or waiting to ask again).
    var isLoading: Bool {
        switch state {
        case .loading, .waiting: true
        case .idle, .finished, .failed: false
        }
    }
}

extension ItemViewModel.State {
    /// Nothing more will happen to the cell by itself.
    var isFinal: Bool { self != .notStarted && self != .loading }
}

extension UIHarness {
    /// Gives the window the X server's keyboard focus, as a window manager does for the active window.
    func takeKeyboardFocus() {
        gdk_window_focus(gtk_widget_get_window(window.window.widget), UInt32(GDK_CURRENT_TIME))
        XCTAssertTrue(iterateMainLoop(until: { gtk_window_has_toplevel_focus(self.window.window.widget.raw.as(GtkWindow.self)) != 0 },
                                      timeout: 60), "the window did not get the keyboard focus")
    }

    /// Types `text` key by key into the focused widget, as a keyboard does.
    func type(_ text: String) {
        for scalar in text.unicodeScalars { press(Int32(gdk_unicode_to_keyval(scalar.value))) }
    }
}
