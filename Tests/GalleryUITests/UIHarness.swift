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
    let loader: ImageLoader
    let window: MainWindow

    /// `endpoints` points other sources (or the Demo source, instead of the demo server) at local test servers;
    /// sources without one get a closed local port.
    init(server options: DemoServer.Options = .init(), client configuration: HTTPClient.Configuration = .init(),
         endpoints: [SourceKind: String] = [:]) throws {
        guard gtk_init_check(nil, nil) != 0 else {
            XCTFail("GTK could not open a display (DISPLAY=\(String(cString: getenv("DISPLAY") ?? strdup("")))); run the UI tests through `make test`")
            throw XCTSkip("no display")
        }
        server = try startDemoServer(options)
        application = try Self.sharedApplication()
        client = HTTPClient(configuration: configuration)
        loader = ImageLoader(client: client)
        let baseURL = server.baseURL
        let services = GalleryServices(client: client, loader: loader, feedLimits: fastFeedLimits) {
            kind, username throws(GalleryError) in
            try kind.makeSource(username: username,
                                endpointOverride: endpoints[kind] ?? (kind == .demo ? baseURL : "http://127.0.0.1:9"))
        }
        window = MainWindow(application: application, services: services)
        // As GalleryViewerApplication does at start-up: the menu's toggle, its wrapper dropped.
        SimpleAction.addToggle(to: application.ref, name: "show-sensitive", initial: false) { [weak window] show in
            window?.setShowSensitive(show)
        }
        window.window.setDefaultSize(width: 760, height: 720)
        window.present()
        XCTAssertTrue(iterateMainLoop(until: { self.window.window.isMapped }, timeout: 10), "the window was not shown")
    }

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
        iterateMainLoop(for: 0.2)
        server.stop()
        drainMainLoop()
    }

    var list: GalleryListView { window.listView }

    func search(_ username: String, source: SourceKind = .demo) {
        window.search(source: source, username: username)
    }

    @discardableResult
    func waitForRows(_ count: Int, timeout: Double = 20) -> Bool {
        iterateMainLoop(until: { self.list.rowCount >= count && !self.list.visibleRange.isEmpty }, timeout: timeout)
    }

    func download(_ index: Int) -> ImageDownload { list.download(at: index)! }
    func row(_ index: Int) -> GalleryRow { list.row(for: download(index))! }

    /// Scrolls so that row `index` is at the top of the viewport (as far as the list allows), once GTK has
    /// laid the row out, and lets the visibility pass run.
    func scroll(toRow index: Int) {
        XCTAssertTrue(iterateMainLoop(until: { (self.list.listBox.rowFrame(at: index)?.height ?? 0) > 1 }, timeout: 5),
                      "row \(index) was never laid out")
        let frame = list.listBox.rowFrame(at: index)!
        list.scrolledWindow.verticalAdjustment.value = Double(frame.y)
        XCTAssertTrue(iterateMainLoop(until: { self.list.visibleRange.contains(index) }, timeout: 5),
                      "row \(index) did not come into view")
    }

    func thumbnailRequests() -> [String] { server.requestLog.filter { $0.contains("/thumbs/") } }

    /// Activates an action of the window ("reload", "next") or of the application ("app.show-sensitive") the
    /// way a menu item, a button or a shortcut does: through GAction, by name.
    func activateAction(_ name: String) {
        if name.hasPrefix("app.") {
            g_action_group_activate_action(application.ref.opaque, String(name.dropFirst(4)), nil)
        } else {
            g_action_group_activate_action(window.window.ref.opaque, name, nil)
        }
    }

    /// Waits until row `index` has its final picture (image, error, badge).
    @discardableResult
    func waitUntilSettled(_ index: Int, timeout: Double = 10) -> Bool {
        iterateMainLoop(until: {
            let state = self.download(index).state
            return state != .loading && state != .notStarted
        }, timeout: timeout)
    }
}
