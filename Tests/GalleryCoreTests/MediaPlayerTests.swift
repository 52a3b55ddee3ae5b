import GObjectBindings
import TestSupport
import XCTest
@testable import GalleryCore

/// The player with real files (encoded once by GStreamer's encoders) from a local server, through the app's
/// HTTP client and GStreamer's real pipeline; frames go to a discarding sink, as there is no window here.
final class MediaPlayerTests: GLibTestCase {
    private typealias Testing = MediaPlayerTesting

    func testAVideoShowsItsFirstFramePlaysToTheEndAndStartsAgain() throws {
        try MainActor.assumeIsolated {
            let server = try TestHTTPServer()
            var userAgents: [String?] = []
            let bytes = try MediaFixture.clip.bytes()
            server.route("/clip.webm") { request in
                userAgents.append(request.header("User-Agent"))
                return .bytes(bytes, contentType: "video/webm")
            }
            let player = Testing.player()
            player.load(server.url("/clip.webm"), options: .init())
            Testing.wait(for: .paused, of: player, "the first frame")
            XCTAssertEqual(player.duration ?? 0, 6, accuracy: 0.2)
            XCTAssertEqual(player.fileSize, bytes.count)
            XCTAssertEqual(player.mediaType, "video/webm")
            XCTAssertEqual(userAgents.first ?? nil, HTTPClient.defaultUserAgent, "the bytes came through the app's client")
            let codecs = player.codecs
            XCTAssertEqual(codecs.video?.contains("VP8"), true, "\(codecs)")
            XCTAssertEqual(codecs.audio?.contains("Opus"), true, "\(codecs)")
            player.seek(toSeconds: 5)
            player.play()
            Testing.wait(for: .ended, of: player, "the end")
            player.play()
            Testing.wait(for: .playing, of: player, "again")
            XCTAssertTrue(iterateMainLoop(until: { player.position != nil }, timeout: Testing.timeout))
            XCTAssertLessThan(player.position ?? 9, 3, "from the start")
            player.stop()
            XCTAssertFalse(player.hasPipeline)
        }
    }

    /// A gifv (an MP4 whose index is at its end, a muxer's default) starts by itself and starts over at its
    /// end: the demuxer's byte seek back to the first sample becomes a Range request through the client.
    func testAGifvLoopsWithARangeRequestBackToItsFirstSample() throws {
        try MainActor.assumeIsolated {
            let server = try TestHTTPServer()
            let bytes = try MediaFixture.loop.bytes()
            var ranges: [String] = []
            server.route("/loop.mp4") { request in
                if let range = request.header("Range") { ranges.append(range) }
                return .bytes(bytes, contentType: "video/mp4")
            }
            let player = Testing.player()
            player.load(server.url("/loop.mp4"), options: .init(autoplay: true, loops: true, muted: true))
            Testing.wait(for: .playing, of: player, "a gifv starts by itself")
            // The 3-second loop plays past its end and on from its start: looping, not ended.
            XCTAssertTrue(iterateMainLoop(until: { (player.position ?? 0) > 2 }, timeout: Testing.timeout))
            XCTAssertTrue(iterateMainLoop(until: { (player.position ?? 9) < 1 }, timeout: Testing.timeout), "it looped")
            XCTAssertEqual(player.status, .playing)
            XCTAssertFalse(ranges.isEmpty, "the start was asked for again by range")
            XCTAssertTrue(ranges.allSatisfy { $0.hasPrefix("bytes=") && $0 != "bytes=0-" }, "\(ranges)")
            XCTAssertEqual(player.rangeRequests, ranges.count)
        }
    }

    /// A 10 MB video opened and left paused: reading stops once appsrc's bounded queue (and the decoders'
    /// queues behind it) are full, and the connection is closed meanwhile. A seek far ahead reads from there
    /// with a Range request, never the bytes in between.
    func testReadingStopsAtTheQueuesLimitAndASeekReadsFromItsOffset() throws {
        try MainActor.assumeIsolated {
            let server = try TestHTTPServer()
            let bytes = try MediaFixture.long.bytes()
            XCTAssertGreaterThan(bytes.count, 8 * MediaPlayer.maxQueuedBytes / 2, "the fixture is long enough to matter")
            var ranges: [Int] = []
            server.route("/long.webm") { request in
                if let range = request.header("Range"), range.hasPrefix("bytes="),
                   let start = Int(range.dropFirst(6).prefix { $0 != "-" }) { ranges.append(start) }
                return .bytes(bytes, contentType: "video/webm")
            }
            let player = Testing.player()
            player.load(server.url("/long.webm"), options: .init())
            Testing.wait(for: .paused, of: player, "the first frame")
            let stream = try XCTUnwrap(player.stream)
            XCTAssertTrue(iterateMainLoop(until: { stream.isIdle }, timeout: Testing.timeout), "reading went on while paused")
            let read = stream.bytesPushed
            XCTAssertLessThanOrEqual(read, 3 * MediaPlayer.maxQueuedBytes, "appsrc's queue and the demuxer's hold what was read")
            XCTAssertLessThan(read, bytes.count / 2)
            player.seek(toSeconds: 18)
            XCTAssertTrue(iterateMainLoop(until: { ranges.contains { $0 > read } }, timeout: Testing.timeout),
                          "no Range request beyond the \(read) bytes read: \(ranges)")
            XCTAssertTrue(iterateMainLoop(until: { (player.position ?? 0) > 17 }, timeout: Testing.timeout), "the seek did not land")
            XCTAssertLessThan(stream.bytesPushed, bytes.count, "the bytes in between were never read")
        }
    }
}
