import GStreamerBindings
import TestSupport
import XCTest
@testable import GalleryCore

/// What the player tests share: a player whose frames go nowhere (there is no window here), and waits for its
/// status.
@MainActor
enum MediaPlayerTesting {
    /// Bounds a wait only when something is broken.
    static let timeout = 60.0

    static func player(_ client: HTTPClient = HTTPClient()) -> MediaPlayer {
        MediaPlayer(client: client, makeVideoSink: { VideoSink.discarding() })
    }

    static func wait(for status: MediaPlayer.Status, of player: MediaPlayer, _ what: String,
                     file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(iterateMainLoop(until: { player.status == status }, timeout: timeout),
                      "\(what): the player is \(player.status), not \(status)", file: file, line: line)
    }

    /// Waits for a failure and returns its reason; the pipeline must be gone by then.
    static func failure(of player: MediaPlayer, _ what: String, file: StaticString = #filePath, line: UInt = #line) -> String {
        XCTAssertTrue(iterateMainLoop(until: { if case .failed = player.status { true } else { false } }, timeout: timeout),
                      "\(what): the player is \(player.status)", file: file, line: line)
        XCTAssertFalse(player.hasPipeline, "\(what): a failure lets go of the pipeline", file: file, line: line)
        if case .failed(let reason) = player.status { return reason }
        return ""
    }
}
