import GObjectBindings
@_spi(Testing) import GStreamerBindings
import TestSupport
import XCTest
@testable import GalleryCore

/// What goes wrong while a video plays ends in a clear message (and Retry), never a crash, a hang or a critical:
/// a 404 at once or half-way, a body cut off, a server that stops sending, a container the allowlist refuses,
/// bytes that are no video at all. Without a sound output the video plays silently.
final class MediaPlayerFaultTests: GLibTestCase {
    private typealias Testing = MediaPlayerTesting

    func testA404AtOnceOrHalfWaySaysSoAndRetryPlays() throws {
        try MainActor.assumeIsolated {
            let server = try TestHTTPServer()
            let player = Testing.player()
            player.load(server.url("/missing.webm"), options: .init())
            XCTAssertEqual(Testing.failure(of: player, "404 at once"), "HTTP 404 Not Found")

            let bytes = try MediaFixture.long.bytes()
            // Range requests are answered until the first frame is shown: the demuxer may ask for one while it
            // reads the file's index (whether it does depends on how far the first read got, so on the
            // machine's speed); the seek then needs a part not read yet, which the stream asks for by Range.
            var rangesRefused = false
            server.route("/long.webm") { request in
                if request.header("Range") != nil && rangesRefused { return .status(404) }
                return .bytes(bytes, contentType: "video/webm")
            }
            player.load(server.url("/long.webm"), options: .init())
            Testing.wait(for: .paused, of: player, "first frame")
            rangesRefused = true
            player.seek(toSeconds: 18)
            XCTAssertEqual(Testing.failure(of: player, "404 half-way"), "HTTP 404 Not Found")
            rangesRefused = false
            player.retry()
            Testing.wait(for: .paused, of: player, "Retry")
            player.seek(toSeconds: 18)
            XCTAssertTrue(iterateMainLoop(until: { (player.position ?? 0) > 17 }, timeout: Testing.timeout), "the seek after Retry")
        }
    }

    func testABodyCutOffOrStalledEndsWithItsReason() throws {
        try MainActor.assumeIsolated {
            let server = try TestHTTPServer()
            let bytes = try MediaFixture.long.bytes()
            server.route("/cut.webm") { _ in TestResponse.bytes(bytes, contentType: "video/webm").truncated(afterBytes: 500_000) }
            server.route("/stalled.webm") { _ in TestResponse.bytes(bytes, contentType: "video/webm").stalled(afterBytes: 300_000) }
            let player = Testing.player(HTTPClient(configuration: .init(ioTimeoutSeconds: 1)))
            player.load(server.url("/cut.webm"), options: .init())
            XCTAssertEqual(Testing.failure(of: player, "cut off"), HTTPError.connectionClosedEarly.message)
            player.load(server.url("/stalled.webm"), options: .init())
            XCTAssertEqual(Testing.failure(of: player, "stalled"), HTTPError.timedOut(seconds: 1).message)
            player.stop()
            XCTAssertTrue(iterateMainLoop(until: { server.responsesInFlight == 0 }, timeout: Testing.timeout),
                          "the stalled response was let go")
        }
    }

    func testAContainerOffTheAllowlistIsAnUnsupportedFormat() throws {
        try MainActor.assumeIsolated {
            let server = try TestHTTPServer()
            let bytes = try MediaFixture.avi.bytes()
            server.route("/clip.avi") { _ in .bytes(bytes, contentType: "video/x-msvideo") }
            XCTAssertFalse(GStreamer.pluggableFactories().contains("avidemux"))
            XCTAssertTrue(GStreamer.hasElement("avidemux"), "installed (gstreamer1.0-plugins-good), only not allowed")
            let player = Testing.player()
            player.load(server.url("/clip.avi"), options: .init())
            let reason = Testing.failure(of: player, "AVI")
            XCTAssertTrue(reason.hasPrefix("Unsupported video format ("), reason)
            XCTAssertTrue(reason.contains("AVI"), reason)
        }
    }

    /// Noise, and a real WebM whose every byte after its header is overwritten: GStreamer's threads meet them,
    /// the player reports them, nothing crashes or hangs.
    func testBytesThatAreNoVideoEndInAMessage() throws {
        try MainActor.assumeIsolated {
            let server = try TestHTTPServer()
            var random = SystemRandomNumberGenerator()
            let noise = (0..<200_000).map { _ in UInt8.random(in: 0...255, using: &random) }
            server.route("/noise.webm") { _ in .bytes(noise, contentType: "video/webm") }
            var lying = try MediaFixture.clip.bytes().array
            for index in 400..<lying.count { lying[index] = UInt8(truncatingIfNeeded: index &* 7919) }
            server.route("/lying.webm") { _ in .bytes(lying, contentType: "video/webm") }
            let player = Testing.player()
            player.load(server.url("/noise.webm"), options: .init())
            XCTAssertFalse(Testing.failure(of: player, "noise").isEmpty)
            player.load(server.url("/lying.webm"), options: .init(autoplay: true))
            XCTAssertFalse(Testing.failure(of: player, "a header and garbage").isEmpty)
        }
    }

    func testWithoutASoundOutputAVideoPlaysSilently() throws {
        try MainActor.assumeIsolated {
            GStreamer.hideAudioOutputs()
            let server = try TestHTTPServer()
            let bytes = try MediaFixture.clip.bytes()
            server.route("/clip.webm") { _ in .bytes(bytes, contentType: "video/webm") }
            let player = Testing.player()
            player.load(server.url("/clip.webm"), options: .init())
            Testing.wait(for: .paused, of: player, "first frame")
            XCTAssertTrue(player.hasNoSoundOutput)
            player.seek(toSeconds: 5)
            player.play()
            Testing.wait(for: .ended, of: player, "it plays to the end, silently")
        }
    }
}
