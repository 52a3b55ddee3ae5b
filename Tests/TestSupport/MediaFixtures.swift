import CGLib
import GObjectBindings
import GStreamerBindings
import GalleryDemoServer
import XCTest

/// Videos and sounds for the playback tests, encoded once per test process with GStreamer's own encoders
/// (the demo gallery's pipelines, and a few the demo does not need), then served from memory: each test
/// server answers with the same bytes every time.
public enum MediaFixture: String, CaseIterable, Sendable {
    /// The demo's gifv-style loop (H.264 in MP4, its index at the end) and its video (VP8 and Opus in WebM).
    case loop, clip, sound
    /// Twenty seconds of noise at 4 Mbit/s, 10 MB: far more than the player may hold at once.
    case long
    /// Motion JPEG in AVI: a container the allowlist refuses.
    case avi

    public var pipeline: String {
        switch self {
        case .loop: DemoMedia.loop.pipeline
        case .clip: DemoMedia.clip.pipeline
        case .sound: DemoMedia.sound.pipeline
        case .long:
            "videotestsrc pattern=snow num-buffers=300 ! video/x-raw,width=320,height=240,framerate=15/1 ! "
                + "vp8enc deadline=1 target-bitrate=4000000 ! webmmux ! filesink location=%OUTPUT%"
        case .avi:
            "videotestsrc num-buffers=30 ! video/x-raw,width=160,height=120,framerate=15/1 ! jpegenc ! avimux ! "
                + "filesink location=%OUTPUT%"
        }
    }

    public var mediaType: String {
        switch self {
        case .loop: "video/mp4"
        case .clip, .long: "video/webm"
        case .sound: "audio/ogg"
        case .avi: "video/x-msvideo"
        }
    }

    @MainActor private static var made: [MediaFixture: Bytes] = [:]
    @MainActor private static var folder: TemporaryFolder?

    /// The file's bytes (encoded on first use).
    @MainActor
    public func bytes(file: StaticString = #filePath, line: UInt = #line) throws -> Bytes {
        if let bytes = Self.made[self] { return bytes }
        let folder = Self.folder ?? TemporaryFolder(prefix: "gallery-media")
        Self.folder = folder
        let path = folder.path + "/" + rawValue
        do {
            try MediaEncoding.run(pipeline, output: path)
        } catch {
            XCTFail("\(self) could not be encoded: \(error)", file: file, line: line)
            throw error
        }
        let bytes = Bytes(try XCTUnwrap(fileBytes(atPath: path), file: file, line: line))
        Self.made[self] = bytes
        return bytes
    }
}
