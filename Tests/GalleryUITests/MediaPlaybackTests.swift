import CGLib
import CGtk
import GObjectBindings
@_spi(GtkInterop) import GtkBindings
import GalleryCore
import GalleryDemoServer
import TestSupport
import XCTest
@testable import GalleryUI

/// Videos, gifvs and sounds in the real window, from the demo server's Mastodon API (its media are made at
/// build time with GStreamer's encoders): the gifv loops by itself, the video shows its first frame, plays and
/// pauses on Space, seeks, ends and starts again; leaving the view lets go of GStreamer's threads and file
/// descriptors; libsoup 3 is never mapped.
final class MediaPlaybackTests: GLibTestCase {
    /// The demo's Mastodon gallery of aurora, and the first item that plays `media`.
    @MainActor
    private static func open(_ media: DemoMedia, in ui: UIHarness) throws -> (LargeImageView, ItemViewModel) {
        ui.search("aurora@demo.test", source: .mastodon)
        XCTAssertTrue(ui.waitForRows(24))
        ui.loadAllPages()
        let index = try XCTUnwrap((0..<ui.list.rowCount).first { index in
            ui.list.download(at: index)?.item.media?.url.hasSuffix(media.path) == true
        }, "no \(media) in the Mastodon gallery")
        let download = try ui.download(index)
        ui.window.openLargeView(download)
        return (ui.window.largeView, download)
    }

    @MainActor
    private static func harness() throws -> UIHarness {
        try UIHarness(endpoints: [.mastodon: UIHarness.demoServerEndpoint])
    }

    @MainActor
    private static func wait(for status: MediaPlayer.Status, of view: LargeImageView, _ what: String) {
        XCTAssertTrue(iterateMainLoop(until: { view.media.player.status == status }, timeout: 60),
                      "\(what): the player is \(view.media.player.status), not \(status)")
    }

    /// A grid tile says a video's stated length on the picture, beside the play icon (a row says it in its
    /// detail line); a picture's tile has no badge.
    func testAVideoTileShowsItsLengthOnThePicture() throws {
        try MainActor.assumeIsolated {
            let ui = try Self.harness()
            defer { ui.close() }
            ui.window.setViewMode(.grid)
            ui.search("aurora@demo.test", source: .mastodon)
            XCTAssertTrue(ui.waitForRows(24))
            let video = try XCTUnwrap((0..<ui.list.rowCount).first { ui.list.download(at: $0)?.item.media?.url.hasSuffix(DemoMedia.clip.path) == true },
                                      "no video on the first page")
            ui.scroll(toRow: video)
            XCTAssertTrue(ui.waitUntilSettled(video))
            let tile = try ui.tile(video)
            XCTAssertEqual(tile.badgeView.shown?.length, "0:06")
            XCTAssertTrue(tile.badgeView.widget.isVisible)
            XCTAssertEqual(tile.badgeView.lengthLabel?.text, "0:06")
            XCTAssertTrue(tile.badgeView.lengthLabel?.isVisible == true)
            XCTAssertEqual(tile.badge.accessibleName, "Video, 0:06")
            let picture = try XCTUnwrap((0..<ui.list.rowCount).first { ui.list.download(at: $0)?.item.kind == .image })
            ui.scroll(toRow: picture)
            XCTAssertTrue(ui.waitUntilSettled(picture))
            XCTAssertFalse(try ui.tile(picture).badgeView.widget.isVisible, "a still picture's tile has no badge")
        }
    }

    func testAGifvLoopsByItselfSilently() throws {
        try MainActor.assumeIsolated {
            let ui = try Self.harness()
            defer { ui.close() }
            let (view, download) = try Self.open(.loop, in: ui)
            XCTAssertEqual(download.item.kind, .video)
            XCTAssertEqual(download.item.media?.loops, true)
            XCTAssertEqual(download.item.media?.durationMilliseconds, 3000, "meta.original.duration")
            Self.wait(for: .playing, of: view, "a gifv starts by itself")
            XCTAssertTrue(view.media.player.isMuted, "a gifv is silent")
            XCTAssertFalse(view.media.muteButton.isVisible, "a gifv has no sound to mute")
            // Past the middle of the 3-second loop, then back near its start: it started over by itself.
            XCTAssertTrue(iterateMainLoop(until: { (view.media.player.position ?? 0) > 2 }, timeout: 60), "the gifv did not play on")
            XCTAssertTrue(iterateMainLoop(until: { (view.media.player.position ?? 9) < 1 }, timeout: 60), "the gifv did not loop")
            XCTAssertEqual(view.media.player.status, .playing)
            XCTAssertTrue(view.media.showsCurrentSink)
            XCTAssertFalse(view.media.soundIcon.isVisible)
            let videoView = try XCTUnwrap(view.media.videoView)
            XCTAssertTrue(videoView.isMapped, "the frames are on screen")
            // Each loop reads the start again: a Range request through the client.
            XCTAssertGreaterThan(view.media.player.rangeRequests, 0)
            XCTAssertFalse(Self.mappedLibraries().contains { $0.contains("libsoup-3") }, "libsoup 3 was loaded")
            XCTAssertFalse(Self.mappedLibraries().contains { $0.contains("libgstsoup") }, "souphttpsrc was loaded")
            // H.264, as Mastodon's gifv are, decoded by gst-libav.
            ui.activateAction("show-details")
            XCTAssertTrue(iterateMainLoop(until: { view.details.shown?.file?.contains("H.264") == true }, timeout: 60),
                          "details: \(String(describing: view.details.shown))")
            XCTAssertTrue(Self.mappedLibraries().contains { $0.contains("libgstlibav") }, "avdec_h264 decodes it")
        }
    }

    func testAVideoPlaysPausesSeeksEndsAndStartsAgain() throws {
        try MainActor.assumeIsolated {
            let ui = try Self.harness()
            defer { ui.close() }
            let (view, download) = try Self.open(.clip, in: ui)
            XCTAssertEqual(download.item.media?.loops, false)
            Self.wait(for: .paused, of: view, "a video shows its first frame and waits")
            XCTAssertEqual(view.media.player.position ?? -1, 0, accuracy: 0.1)
            // The row said the length before anything was played; the details say it, the codecs and the size.
            XCTAssertTrue(GalleryRow.detailText(download).hasSuffix(" · 0:06"), GalleryRow.detailText(download))
            ui.activateAction("show-details")
            XCTAssertTrue(iterateMainLoop(until: { view.details.shown?.file?.contains("VP8") == true }, timeout: 60),
                          "details: \(String(describing: view.details.shown))")
            XCTAssertEqual(view.details.shown?.duration, "0:06")
            XCTAssertEqual(view.details.shown?.file?.contains("Opus"), true)
            let size = try XCTUnwrap(view.media.player.fileSize, "the size from the server's Content-Length")
            XCTAssertEqual(view.details.shown?.file?.hasSuffix(SizeText.format(size)), true)
            ui.activateAction("show-details")
            ui.activateAction("play-pause")
            Self.wait(for: .playing, of: view, "Space plays")
            XCTAssertTrue(iterateMainLoop(until: { (view.media.player.position ?? 0) > 0.5 }, timeout: 60), "the video did not play on")
            ui.activateAction("play-pause")
            Self.wait(for: .paused, of: view, "Space pauses")
            let paused = view.media.player.position ?? -1
            // The position holds while paused: checked after the player's own position ticker ran several times
            // (it runs every 250 ms while playing and is stopped now).
            iterateMainLoop(for: 1)
            XCTAssertEqual(view.media.player.position ?? -2, paused, accuracy: 0.05)
            view.media.player.seek(toSeconds: 5)
            XCTAssertTrue(iterateMainLoop(until: { abs((view.media.player.position ?? 0) - 5) < 0.2 }, timeout: 60), "the seek did not land")
            ui.activateAction("play-pause")
            Self.wait(for: .ended, of: view, "the video ends")
            ui.activateAction("play-pause")
            Self.wait(for: .playing, of: view, "play after the end")
            // The position is unknown for a moment after the seek back to the start.
            XCTAssertTrue(iterateMainLoop(until: { view.media.player.position != nil }, timeout: 60))
            XCTAssertLessThan(view.media.player.position ?? 9, 2, "it started again from the start")
            ui.activateAction("mute")
            XCTAssertTrue(view.media.player.isMuted, "M mutes")
            ui.activateAction("mute")
            XCTAssertFalse(view.media.player.isMuted, "M again unmutes")
        }
    }

    /// A file the allowlist refuses, in the real window: the reason over the still, with Retry; the server then
    /// sends a WebM, and Retry plays it in the view (message gone). A sound without a still shows an icon.
    func testAnUnsupportedFormatSaysWhyAndRetryPlaysTheFixedFile() throws {
        try MainActor.assumeIsolated {
            let ui = try Self.harness()
            defer { ui.close() }
            let server = try TestHTTPServer()
            let avi = try MediaFixture.avi.bytes(), clip = try MediaFixture.clip.bytes()
            var requests = 0
            // The first answer is the AVI, every later one the WebM.
            server.route("/video") { _ in
                requests += 1
                return requests == 1 ? .bytes(avi, contentType: "video/x-msvideo") : .bytes(clip, contentType: "video/webm")
            }
            var item = GalleryItem(id: "v", title: "A video", kind: .video, fullImageURL: nil, pageURL: server.url("/post"))
            item.media = .init(url: server.url("/video"))
            let download = ItemViewModel(item: item, index: 0, pipeline: ui.pipeline, thumbnailPixelSize: 100, showSensitive: false)
            ui.window.openLargeView(download)
            let view = ui.window.largeView
            XCTAssertTrue(iterateMainLoop(until: { view.status.messageLabel.isVisible }, timeout: 60), "no message: \(server.requestLog)")
            XCTAssertTrue(view.status.messageLabel.text.hasPrefix("Unsupported video format ("), view.status.messageLabel.text)
            XCTAssertTrue(view.status.retryButton.isVisible)
            XCTAssertEqual(view.sizeLine, view.status.messageLabel.text, "the subtitle says it too")
            view.status.retryButton.click()
            Self.wait(for: .paused, of: view, "Retry")
            XCTAssertTrue(view.media.showsCurrentSink, "the new pipeline's frames are in the view, not a window of their own")
            XCTAssertEqual(view.media.videoView?.isMapped, true)
            XCTAssertFalse(view.status.messageLabel.isVisible)
            XCTAssertFalse(view.status.retryButton.isVisible)

            // A sound without a still: an icon over the controls, no frames; Space plays it.
            let ogg = try MediaFixture.sound.bytes()
            server.route("/sound.ogg") { _ in .bytes(ogg, contentType: "audio/ogg") }
            var sound = GalleryItem(id: "s", title: "A sound", kind: .audio, fullImageURL: nil)
            sound.media = .init(url: server.url("/sound.ogg"))
            ui.window.openLargeView(ItemViewModel(item: sound, index: 1, pipeline: ui.pipeline, thumbnailPixelSize: 100,
                                                  showSensitive: false))
            Self.wait(for: .paused, of: view, "a sound")
            XCTAssertTrue(view.media.soundIcon.isVisible)
            XCTAssertNil(view.media.videoView)
            ui.activateAction("play-pause")
            Self.wait(for: .playing, of: view, "Space plays a sound")
            ui.activateAction("back")
            server.stop()
        }
    }

    /// Under the desktop's reduced-motion setting a gifv shows its first frame and waits, as an animation does;
    /// Space plays it. Minimizing the window pauses what plays, restoring it plays on.
    func testAGifvWaitsUnderReducedMotionAndMinimizingPauses() throws {
        try MainActor.assumeIsolated {
            let ui = try Self.harness()
            defer { ui.close() }
            let settings = try XCTUnwrap(Settings.default)
            settings.enableAnimations = false
            defer { settings.enableAnimations = true }
            let (view, _) = try Self.open(.loop, in: ui)
            Self.wait(for: .paused, of: view, "reduced motion: the first frame")
            ui.activateAction("play-pause")
            Self.wait(for: .playing, of: view, "Space plays it")
            AnimationTests.sendMinimized(true, to: ui)
            Self.wait(for: .paused, of: view, "minimized")
            AnimationTests.sendMinimized(false, to: ui)
            Self.wait(for: .playing, of: view, "restored")
            // Another item shown stops it: the next item's still replaces the video.
            ui.activateAction("next")
            XCTAssertFalse(view.media.player.hasPipeline, "the next item let go of the video")
        }
    }

    /// A video takes the large view's keys as a picture does: F11 and Escape for full screen (it plays on),
    /// Right to the next item (the video stops and its pipeline goes), Left back to it (its first frame again).
    func testFullScreenAndLeftRightWorkAsForPictures() throws {
        try MainActor.assumeIsolated {
            let ui = try Self.harness()
            defer { ui.close() }
            let (view, download) = try Self.open(.clip, in: ui)
            Self.wait(for: .paused, of: view, "first frame")
            ui.activateAction("play-pause")
            Self.wait(for: .playing, of: view, "playing")
            ui.press(GDK_KEY_F11)
            XCTAssertTrue(ui.window.isFullscreen, "F11 asks for full screen")
            XCTAssertEqual(view.media.player.status, .playing, "it plays on in full screen")
            ui.press(GDK_KEY_Escape)
            XCTAssertFalse(ui.window.isFullscreen, "Escape leaves full screen first")
            XCTAssertTrue(ui.window.isLargeViewOpen)

            ui.press(GDK_KEY_Right)
            XCTAssertTrue(iterateMainLoop(until: { view.download !== download }, timeout: 60), "Right shows the next item")
            XCTAssertFalse(view.media.player.hasPipeline, "the video stopped when another item was shown")
            ui.press(GDK_KEY_Left)
            XCTAssertTrue(iterateMainLoop(until: { view.download === download }, timeout: 60), "Left comes back")
            Self.wait(for: .paused, of: view, "the video's first frame again")
            ui.press(GDK_KEY_Escape)
            XCTAssertFalse(ui.window.isLargeViewOpen)
            XCTAssertFalse(view.media.player.hasPipeline)
        }
    }

    /// Escape mid-play: the pipeline is set to NULL and dropped, so its streaming threads end (or go back to
    /// GStreamer's shared pool, which keeps a few idle ones) and the descriptors it opened are closed. Played
    /// and left three times, the counts after the third time are those after the first: nothing stays behind
    /// per video.
    func testLeavingMidPlayReleasesThePipeline() throws {
        try MainActor.assumeIsolated {
            let ui = try Self.harness()
            defer { ui.close() }
            var after: [(threads: Int, descriptors: Int)] = []
            for round in 1...3 {
                let (view, _) = try Self.open(.clip, in: ui)
                Self.wait(for: .paused, of: view, "first frame, round \(round)")
                ui.activateAction("play-pause")
                Self.wait(for: .playing, of: view, "playing, round \(round)")
                XCTAssertTrue(view.media.player.hasPipeline)
                ui.activateAction("back")
                XCTAssertEqual(view.media.player.status, .idle)
                XCTAssertFalse(view.media.player.hasPipeline, "Escape drops the pipeline at once")
                if let first = after.first {
                    XCTAssertTrue(iterateMainLoop(until: { Self.threadCount() <= first.threads }, timeout: 60),
                                  "threads left after round \(round): \(Self.threadCount()) > \(first.threads)")
                    XCTAssertTrue(iterateMainLoop(until: { Self.descriptorCount() <= first.descriptors }, timeout: 60),
                                  "descriptors left after round \(round): \(Self.descriptorCount()) > \(first.descriptors)")
                }
                drainMainLoop()
                after.append((Self.threadCount(), Self.descriptorCount()))
            }
        }
    }

    static func mappedLibraries() -> [String] {
        (File.smallText(atPath: "/proc/self/maps") ?? "").split(separator: "\n").map(String.init)
    }

    static func threadCount() -> Int { entries(of: "/proc/self/task") }
    static func descriptorCount() -> Int { entries(of: "/proc/self/fd") }

    private static func entries(of path: String) -> Int {
        guard let dir = g_dir_open(path, 0, nil) else { return -1 }
        defer { g_dir_close(dir) }
        var count = 0
        while g_dir_read_name(dir) != nil { count += 1 }
        return count
    }
}
