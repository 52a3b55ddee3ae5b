import CGLib
import CGtk
import GObjectBindings
@_spi(GtkInterop) import GtkBindings
import GalleryCore
import GalleryDemoServer
import TestSupport
import XCTest
@testable import GalleryUI

/// The slideshow in the real window, on the demo server: F5 starts it at the selected image, full screen; the
/// next picture is asked for while one is shown; the interval counts only once a picture is painted; Space
/// pauses; at the end of the loaded items it waits for the next page; a gifv plays once through; Escape ends
/// it on the item shown. The shortest interval (3 s) is the one used: every wait is for a condition.
final class SlideshowTests: GLibTestCase {
    /// aurora's item at `index` (0-based) as the demo server names its full image.
    private static func imagePath(_ index: Int) -> String { String(format: "/images/aurora-%03d-", index + 1) }

    func testF5StartsAtTheSelectionAndEachIntervalStartsOnceThePictureIsPainted() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            let show = ui.window.slideshow
            show.setInterval(.short)
            // Which item the view showed when each full image was asked for.
            var askedWhileShowing: [String: Int] = [:]
            // Weakly: the server is the harness's, and a closure holding the harness would keep both alive.
            ui.server.onRequest = { [weak ui] path in
                if path.hasPrefix("/images/") { askedWhileShowing[path] = ui?.window.largeView.download?.index ?? -1 }
            }
            ui.server.holdsResponse = { $0.hasPrefix(Self.imagePath(2)) }
            ui.search("aurora")
            XCTAssertTrue(ui.waitForRows(24))
            ui.list.select(1, focus: true)
            ui.press(GDK_KEY_F5)
            XCTAssertTrue(show.isRunning)
            XCTAssertTrue(ui.window.isLargeViewOpen)
            XCTAssertTrue(ui.window.isFullscreen, "a slideshow is full screen")
            XCTAssertEqual(ui.window.largeView.download?.index, 1, "it starts at the selected image")

            // Item 1 painted: its interval runs, and item 2's picture is asked for meanwhile.
            XCTAssertTrue(iterateMainLoop(until: { ui.server.heldResponseCount > 0 }, timeout: 60))
            let asked = try XCTUnwrap(askedWhileShowing.first { $0.key.hasPrefix(Self.imagePath(2)) })
            XCTAssertEqual(asked.value, 1, "the next picture is loaded ahead, while the one before is shown")

            // Item 2 comes up while its picture is still held: no interval counts until it is painted.
            XCTAssertTrue(iterateMainLoop(until: { ui.window.largeView.download?.index == 2 }, timeout: 60))
            XCTAssertEqual(ui.window.largeView.presentation, .loading)
            XCTAssertFalse(show.isCounting, "a picture still loading keeps its whole interval")
            ui.server.holdsResponse = nil
            ui.server.releaseHeldResponses()
            XCTAssertTrue(iterateMainLoop(until: { ui.window.largeView.isShowingFullImage }, timeout: 60))
            XCTAssertTrue(show.isCounting, "painted: its interval runs")

            // Space pauses (and stops the interval); → steps at once, paused still.
            ui.press(GDK_KEY_space)
            XCTAssertTrue(show.isPaused)
            XCTAssertFalse(show.isCounting)
            XCTAssertEqual(ui.window.notification.text, "Slideshow paused")
            ui.press(GDK_KEY_Right)
            XCTAssertEqual(ui.window.largeView.download?.index, 3)
            XCTAssertFalse(show.isCounting)
            // Space again goes on: the item gets a whole interval of its own, then the next comes.
            ui.press(GDK_KEY_space)
            XCTAssertFalse(show.isPaused)
            XCTAssertTrue(iterateMainLoop(until: { show.isCounting }, timeout: 60))
            XCTAssertTrue(iterateMainLoop(until: { ui.window.largeView.download?.index == 4 }, timeout: 60), "the show went on by itself")

            // Escape ends it where it stopped, out of full screen, in the large view.
            ui.press(GDK_KEY_Escape)
            XCTAssertFalse(show.isRunning)
            XCTAssertFalse(ui.window.isFullscreen)
            XCTAssertTrue(ui.window.isLargeViewOpen)
            XCTAssertFalse(show.isCounting, "nothing moves it on any more")
        }
    }

    /// The next picture loaded ahead keeps its original until it is shown: the view's picture comes from the
    /// memory cache with it, so a zoom to 100 % decodes it instead of downloading it again.
    func testThePictureLoadedAheadBringsItsOriginal() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            ui.window.slideshow.setInterval(.short)
            ui.search("aurora")
            XCTAssertTrue(ui.waitForRows(24))
            // Item 5 answers 404 (its interval runs at once); item 6 is a 3200-pixel photo, loaded meanwhile.
            let path = Self.imagePath(6)
            ui.list.select(5)
            ui.press(GDK_KEY_F5)
            XCTAssertTrue(iterateMainLoop(until: { ui.server.requestLog.contains { $0.hasPrefix(path) } }, timeout: 60))
            let view = ui.window.largeView
            XCTAssertEqual(view.download?.index, 5, "asked for ahead")
            XCTAssertTrue(iterateMainLoop(until: { view.download?.index == 6 && view.isShowingFullImage }, timeout: 60))
            ui.press(GDK_KEY_space)
            ui.press(GDK_KEY_1)
            XCTAssertTrue(iterateMainLoop(until: { view.fullResolutionPixbuf != nil }, timeout: 60), "decoded at 100 %")
            XCTAssertEqual(ui.server.requestLog.filter { $0.hasPrefix(path) }.count, 1, "downloaded once, ahead")
        }
    }

    /// At the last loaded item the show asks for the next page and waits for it; it never skips back.
    func testTheShowWaitsForTheNextPageAtTheEndOfTheLoadedItems() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            ui.window.slideshow.setInterval(.short)
            ui.search("aurora")
            XCTAssertTrue(ui.waitForRows(24))
            ui.server.holdsResponse = { $0.contains("offset=24") }
            ui.list.select(23)
            ui.press(GDK_KEY_F5)
            XCTAssertEqual(ui.window.largeView.download?.index, 23)
            XCTAssertTrue(iterateMainLoop(until: { ui.server.heldResponseCount > 0 }, timeout: 60), "the next page asked for")
            // The interval runs out with no item 24 yet: the show stays on item 23, waiting.
            XCTAssertTrue(iterateMainLoop(until: {
                ui.window.largeView.isShowingFullImage && !ui.window.slideshow.isCounting
            }, timeout: 60))
            XCTAssertEqual(ui.window.largeView.download?.index, 23, "no jump back to the first item while a page loads")
            ui.server.holdsResponse = nil
            ui.server.releaseHeldResponses()
            XCTAssertTrue(iterateMainLoop(until: { ui.window.largeView.download?.index == 24 }, timeout: 60),
                          "the page arrived: the show goes on into it")
            XCTAssertTrue(ui.window.slideshow.isRunning)
        }
    }

    /// A gifv, which loops by itself in the large view, plays once through in a slideshow, and the show goes
    /// on at its end.
    func testAGifvPlaysOnceThroughThenTheShowGoesOn() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness(endpoints: [.mastodon: UIHarness.demoServerEndpoint])
            defer { ui.close() }
            ui.window.slideshow.setInterval(.long)
            ui.search("aurora@demo.test", source: .mastodon)
            XCTAssertTrue(ui.waitForRows(24))
            ui.loadAllPages()
            let index = try XCTUnwrap((0..<ui.list.rowCount - 1).first { index in
                ui.list.download(at: index)?.item.media?.url.hasSuffix(DemoMedia.loop.path) == true
            }, "no gifv in the Mastodon gallery")
            ui.list.select(index)
            ui.press(GDK_KEY_F5)
            let view = ui.window.largeView
            XCTAssertEqual(view.download?.index, index)
            XCTAssertTrue(iterateMainLoop(until: { view.media.player.status == .playing }, timeout: 60), "it starts by itself")
            XCTAssertEqual(view.media.player.options.loops, false, "once through")
            XCTAssertFalse(ui.window.slideshow.isCounting, "a playing gifv holds the show, not the interval")
            // The 3-second gifv ends, and the next item comes up (the 10-second interval never ran).
            XCTAssertTrue(iterateMainLoop(until: { view.download?.index == index + 1 }, timeout: 60))
        }
    }

    /// The screen is kept on through GNOME's session manager (a fake one on the test's bus) while the show
    /// runs, asked without waiting on the main loop, and let go when it ends.
    func testTheShowKeepsTheScreenOnAndLetsGoWhenItEnds() throws {
        try MainActor.assumeIsolated {
            let manager = try FakeSessionManager()
            let ui = try UIHarness()
            defer { ui.close() }
            ui.search("aurora")
            XCTAssertTrue(ui.waitForRows(24))
            ui.press(GDK_KEY_F5)
            XCTAssertTrue(iterateMainLoop(until: { ui.window.slideshow.isRunning && manager.inhibited.count == 1 }, timeout: 60))
            XCTAssertEqual(manager.inhibited.first?.reason, "Slideshow")
            XCTAssertEqual(manager.inhibited.first?.flags, 8, "idle")
            ui.press(GDK_KEY_Escape)
            XCTAssertTrue(iterateMainLoop(until: { manager.uninhibited == [manager.inhibited[0].cookie] }, timeout: 60),
                          "the cookie given back")
        }
    }

    /// The interval is a choice of the main menu (a radio action), remembered in the state file.
    func testTheIntervalIsAChoiceRememberedForTheNextLaunch() throws {
        try MainActor.assumeIsolated {
            let folder = TemporaryFolder()
            defer { withExtendedLifetime(folder) {} }
            let path = folder.path + "/state.ini"
            let ui = try UIHarness(stateFile: path)
            defer { ui.close() }
            XCTAssertEqual(ui.window.slideshow.interval, .standard)
            // The window is the "win." action group.
            let group = OpaquePointer(ui.window.window.widget.raw)
            g_action_group_activate_action(group, "slideshow-interval", g_variant_new_string("10"))
            XCTAssertEqual(ui.window.slideshow.interval, .long)
            XCTAssertTrue(iterateMainLoop(until: { RecentSearchStore(path: path).slideshowInterval == .long }, timeout: 60))
            g_action_group_activate_action(group, "slideshow-interval", g_variant_new_string("7"))
            XCTAssertEqual(ui.window.slideshow.interval, .long, "an interval the menu does not offer changes nothing")
        }
    }
}

/// org.gnome.SessionManager on the test's session bus, on a connection of its own: records each Inhibit (and
/// answers with a cookie) and each Uninhibit.
@MainActor
final class FakeSessionManager {
    struct Inhibition { let reason: String; let flags: UInt32; let cookie: UInt32 }
    private(set) var inhibited: [Inhibition] = []
    private(set) var uninhibited: [UInt32] = []
    private var service: FakeBusService?

    init() throws {
        let xml = """
            <node><interface name="org.gnome.SessionManager">
            <method name="Inhibit"><arg type="s" direction="in"/><arg type="u" direction="in"/>
            <arg type="s" direction="in"/><arg type="u" direction="in"/><arg type="u" direction="out"/></method>
            <method name="Uninhibit"><arg type="u" direction="in"/></method>
            </interface></node>
            """
        service = try FakeBusService(name: "org.gnome.SessionManager", path: "/org/gnome/SessionManager", xml: xml) {
            [weak self] _, method, parameters, invocation in
            self?.called(method, parameters, invocation)
        }
    }

    private func called(_ method: String, _ parameters: OpaquePointer, _ invocation: OpaquePointer) {
        func child(_ index: gsize) -> OpaquePointer { g_variant_get_child_value(parameters, index)! }
        if method == "Inhibit" {
            let reason = child(2), flags = child(3)
            defer { g_variant_unref(reason); g_variant_unref(flags) }
            let cookie = UInt32(100 + inhibited.count)
            inhibited.append(Inhibition(reason: String(cString: g_variant_get_string(reason, nil)),
                                        flags: g_variant_get_uint32(flags), cookie: cookie))
            g_dbus_method_invocation_return_value(invocation, g_variant_new_tuple([g_variant_new_uint32(cookie)], 1))
        } else {
            let cookie = child(0)
            defer { g_variant_unref(cookie) }
            uninhibited.append(g_variant_get_uint32(cookie))
            g_dbus_method_invocation_return_value(invocation, nil)
        }
    }
}
