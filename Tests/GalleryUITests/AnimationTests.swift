import CGLib
import CGtk
import GObjectBindings
@_spi(GtkInterop) import GtkBindings
import GalleryCore
import GalleryDemoServer
import TestSupport
import XCTest
@testable import GalleryUI

/// Animated GIF and WebP in the real window (aurora #18 is a 12-frame GIF, #20 a 16-frame WebP): frames move on
/// in the large view, stop while the view is hidden or the window minimized, wait for the play button when the
/// desktop turns animations off, an animation over the limits shows its first frame and says so, and animated
/// rows carry their badge.
final class AnimationTests: GLibTestCase {
    /// Their indexes in the list (items count from 0 there, from 1 in the catalog's names).
    static let gif = 17
    static let webp = 19

    /// A digest of a pixbuf's pixels, to tell two frames apart.
    static func digest(_ pixbuf: Pixbuf?) -> Int {
        guard let pixbuf else { return 0 }
        return pixbuf.withUnsafePixels { pixels, stride, _ in
            var hasher = Hasher()
            hasher.combine(bytes: UnsafeRawBufferPointer(start: pixels, count: stride * pixbuf.height))
            return hasher.finalize()
        }
    }

    /// Opens aurora's item `index` and waits until its animation has a player (and, playing, shows frames).
    @MainActor
    private static func openAnimation(_ ui: UIHarness, _ index: Int) -> LargeImageView {
        let view = ui.openPhoto(index)
        XCTAssertTrue(iterateMainLoop(until: { view.animationPlayer != nil }, timeout: 60), "item \(index) did not animate")
        return view
    }

    /// What the window system sends when the window is minimized or restored (Xvfb has no window manager to
    /// minimize it for real).
    @MainActor
    static func sendMinimized(_ minimized: Bool, to ui: UIHarness) {
        guard let gdkWindow = gtk_widget_get_window(ui.window.window.widget) else { return XCTFail("no GdkWindow") }
        guard let event = gdk_event_new(GDK_WINDOW_STATE) else { return XCTFail("no window-state event") }
        event.pointee.window_state.window = gdkWindow
        g_object_ref(UnsafeMutableRawPointer(gdkWindow))
        event.pointee.window_state.send_event = 1
        event.pointee.window_state.changed_mask = GDK_WINDOW_STATE_ICONIFIED
        event.pointee.window_state.new_window_state = minimized ? GDK_WINDOW_STATE_ICONIFIED : GdkWindowState(rawValue: 0)
        gtk_main_do_event(event)
        gdk_event_free(event)
    }

    func testAnAnimationMovesOnInTheLargeView() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            for (index, frameCount) in [(Self.gif, 12), (Self.webp, 16)] {
                let view = Self.openAnimation(ui, index)
                let player = try XCTUnwrap(view.animationPlayer)
                XCTAssertEqual(player.animation.frameCount, frameCount)
                XCTAssertEqual(player.animation.frames.count, frameCount, "every frame of one play, from the helper")
                XCTAssertEqual(player.animation.frameDelays.count, frameCount)
                XCTAssertEqual(player.playback, .playing)
                XCTAssertTrue(view.animation.playButton.isVisible)
                XCTAssertEqual(view.animation.playButton.accessibleName, "Pause the animation")
                // Frames replace one another on the canvas: the pixels shown change, the index goes round.
                var digests: Set<Int> = []
                var indexes: Set<Int> = []
                XCTAssertTrue(iterateMainLoop(until: {
                    digests.insert(Self.digest(view.shownPixbuf))
                    if let shown = player.shownIndex { indexes.insert(shown) }
                    return indexes.count >= 4 && digests.count >= 4
                }, timeout: 60), "item \(index): frames \(indexes.sorted()), \(digests.count) pictures")
                XCTAssertEqual(view.fullImageSize?.width, try XCTUnwrap(ui.server.catalog.user(named: "aurora")).items[index].width)
                XCTAssertTrue(view.canvas.hasPicture)
                // Moving on to a still image stops it: no player, no bar.
                ui.window.openLargeView(try ui.download(index - 1))
                XCTAssertNil(view.animationPlayer)
                XCTAssertFalse(view.animation.bar.isVisible)
                ui.window.closeLargeView()
            }
        }
    }

    func testPlaybackHoldsStillWhileHiddenOrMinimizedAndGoesOn() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            let view = Self.openAnimation(ui, Self.gif)
            let player = try XCTUnwrap(view.animationPlayer)
            XCTAssertTrue(iterateMainLoop(until: { player.framesShown >= 2 }, timeout: 60))

            // Hidden: the window (and so the view) is unmapped.
            ui.window.window.hide()
            XCTAssertFalse(view.canvas.area.isMapped)
            XCTAssertFalse(player.isRunning)
            let hiddenAt = player.framesShown
            // The player shows a frame only from its timer while it runs (`isRunning`, false above); a frame being
            // made when it stopped is kept, not shown. The window is seven of the GIF's frame delays: a player
            // still running shows frames in it, and a slow machine can only hide a regression, not fail this.
            iterateMainLoop(for: 0.6)
            XCTAssertEqual(player.framesShown, hiddenAt, "no frame while hidden")
            ui.window.present()
            XCTAssertTrue(iterateMainLoop(until: { player.framesShown >= hiddenAt + 3 }, timeout: 60), "on again when shown")

            // Minimized: the widgets stay mapped, the window state says it.
            Self.sendMinimized(true, to: ui)
            XCTAssertTrue(view.canvas.area.isMapped)
            XCTAssertFalse(player.isRunning)
            let minimizedAt = player.framesShown
            // As when hidden: no timer while it is held still; seven frame delays.
            iterateMainLoop(for: 0.6)
            XCTAssertEqual(player.framesShown, minimizedAt, "no frame while minimized")
            Self.sendMinimized(false, to: ui)
            XCTAssertTrue(iterateMainLoop(until: { player.framesShown >= minimizedAt + 3 }, timeout: 60),
                          "on again when restored")
            XCTAssertEqual(player.playback, .playing, "never paused as if by the user")
        }
    }

    func testWithAnimationsOffItWaitsForPlay() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            let settings = try XCTUnwrap(Settings.default)
            settings.enableAnimations = false
            defer { settings.enableAnimations = true }
            let view = Self.openAnimation(ui, Self.webp)
            let player = try XCTUnwrap(view.animationPlayer)
            let first = Self.digest(view.shownPixbuf)
            // Made paused, the player never starts its timer (`playback` below is the mechanism); the window,
            // several of the WebP's frame delays, checks that nothing else moves the picture.
            iterateMainLoop(for: 0.6)
            XCTAssertEqual(player.playback, .paused)
            XCTAssertEqual(player.framesShown, 0, "not a single frame moved on")
            XCTAssertEqual(Self.digest(view.shownPixbuf), first)
            XCTAssertTrue(view.animation.playButton.isVisible)
            XCTAssertEqual(view.animation.playButton.accessibleName, "Play the animation")

            view.animation.playButton.click()
            XCTAssertEqual(player.playback, .playing)
            XCTAssertEqual(view.animation.playButton.accessibleName, "Pause the animation")
            XCTAssertTrue(iterateMainLoop(until: { player.framesShown >= 3 && Self.digest(view.shownPixbuf) != first },
                                          timeout: 60), "play starts it")

            // Space pauses (win.play-pause), and plays again.
            ui.press(Int32(GDK_KEY_space))
            XCTAssertEqual(player.playback, .paused)
            let pausedAt = player.framesShown
            // Paused, the player stops its timer at once (as when hidden); the window is several frame delays.
            iterateMainLoop(for: 0.5)
            XCTAssertEqual(player.framesShown, pausedAt)
            ui.press(Int32(GDK_KEY_space))
            XCTAssertEqual(player.playback, .playing)

            // Turned off while it plays: it stops, as it would not have started.
            settings.enableAnimations = false
            XCTAssertEqual(player.playback, .paused)
        }
    }

    func testAnAnimationOverTheLimitsShowsItsFirstFrameAndSaysSo() throws {
        try MainActor.assumeIsolated {
            // The GIF's 12 frames of 480 × 320 cost 12 frames and a canvas (~8 MB); its first frame alone ~1.2 MB.
            let ui = try UIHarness(decodeLimits: ImageDecodeLimits(maxDecodeBytes: 4_000_000))
            defer { ui.close() }
            let view = ui.openPhoto(Self.gif)
            XCTAssertTrue(iterateMainLoop(until: { view.animation.bar.isVisible && !view.animation.note.text.isEmpty }, timeout: 60),
                          "the note on the animation")
            XCTAssertNil(view.animationPlayer)
            XCTAssertTrue(view.animation.bar.isVisible)
            XCTAssertFalse(view.animation.playButton.isVisible)
            XCTAssertEqual(view.animation.note.text, "Too large to play (12 frames of 480 × 320): its first frame is shown")
            XCTAssertEqual([view.shownPixbuf?.width, view.shownPixbuf?.height], [480, 320])
            XCTAssertNil(view.failure)
            XCTAssertEqual(ui.window.header.bar.subtitle, "480 × 320 pixels")
            let first = Self.digest(view.shownPixbuf)
            // No player (above) is what keeps it still: only a player moves a picture on. The window, several
            // of the GIF's frame delays, checks nothing else does.
            iterateMainLoop(for: 0.4)
            XCTAssertEqual(Self.digest(view.shownPixbuf), first, "it does not move")
            ui.window.closeLargeView()
            ui.scroll(toRow: Self.gif)
            XCTAssertTrue(ui.waitUntilSettled(Self.gif))
            XCTAssertEqual(try ui.row(Self.gif).shownBadge?.text, "Animated", "its 150 px thumbnail is within the limits")
        }
    }

    func testAnimatedRowsCarryABadgeAndStillOnesDoNot() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            ui.search("aurora")
            XCTAssertTrue(ui.waitForRows(24))
            ui.scroll(toRow: 15)
            // Not row 18: "The Endless Wait" stalls on purpose.
            let rows = [15, 16, 17, 19, 20]
            for index in rows { XCTAssertTrue(ui.waitUntilSettled(index), "row \(index)") }
            for index in rows {
                let row = try ui.row(index)
                if index == Self.gif || index == Self.webp {
                    XCTAssertTrue(try ui.download(index).isAnimated, "row \(index)")
                    XCTAssertEqual(row.shownBadge?.text, "Animated", "row \(index)")
                    XCTAssertTrue(row.badge.isVisible)
                    XCTAssertEqual(row.badge.accessibleName, "Animated")
                    XCTAssertEqual(row.badge.tooltip, "Animated")
                } else {
                    XCTAssertFalse(try ui.download(index).isAnimated, "row \(index)")
                    XCTAssertNil(row.shownBadge, "row \(index)")
                    XCTAssertFalse(row.badge.isVisible, "row \(index)")
                }
            }
        }
    }

    func testAnimatedTilesCarryTheBadgeInTheirCorner() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            ui.window.setViewMode(.grid)
            ui.search("aurora")
            XCTAssertTrue(ui.waitForRows(24))
            ui.scroll(toRow: 16)
            let tiles = [16, 17, 19]
            for index in tiles { XCTAssertTrue(ui.waitUntilSettled(index), "tile \(index)") }
            for index in tiles {
                let tile = try ui.tile(index)
                if index == Self.gif || index == Self.webp {
                    XCTAssertEqual(tile.badgeView.shown?.text, "Animated", "tile \(index)")
                    XCTAssertTrue(tile.badge.isVisible, "tile \(index)")
                    XCTAssertEqual(tile.badge.accessibleName, "Animated")
                } else {
                    XCTAssertNil(tile.badgeView.shown, "tile \(index)")
                    XCTAssertFalse(tile.badge.isVisible, "tile \(index)")
                }
            }
            // A recycled tile shows the badge of the item it shows now, not of the one before.
            ui.scroll(toRow: 0)
            for bound in ui.list.boundTiles {
                guard let download = bound.download, download.state == .loaded else { continue }
                XCTAssertEqual(bound.badge.isVisible, download.isAnimated, "tile \(download.index)")
            }
        }
    }
}
