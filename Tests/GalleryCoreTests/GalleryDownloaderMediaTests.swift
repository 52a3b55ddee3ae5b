import CGLib
import GObjectBindings
import TestSupport
import XCTest
@testable import GalleryCore

/// `--download` and Save As save videos and sounds like pictures: the same names, resume and checks, with a
/// size limit of their own; `--images-only` leaves them out.
final class GalleryDownloaderMediaTests: GLibTestCase {
    private static let items: [GalleryItem] = {
        var video = GalleryItem(id: "v", title: "", kind: .video, fullImageURL: nil, pageURL: "https://a.example/p/v")
        video.media = .init(url: "https://a.example/clip.webm", durationMilliseconds: 6000)
        var sound = GalleryItem(id: "s", title: "", kind: .audio, fullImageURL: nil)
        sound.media = .init(url: "https://a.example/sound.ogg")
        let picture = GalleryItem(id: "p", title: "", fullImageURL: "https://a.example/pic.jpg")
        // A Bluesky video the app cannot fetch itself yet: nothing to save.
        let page = GalleryItem(id: "w", title: "", kind: .video, fullImageURL: nil, pageURL: "https://a.example/p/w")
        return [video, sound, picture, page]
    }()

    func testJobsIncludeVideosAndSoundsUnlessImagesOnly() {
        let jobs = GalleryDownloader.jobs(for: Self.items)
        XCTAssertEqual(jobs, [.init(name: "clip.webm", url: "https://a.example/clip.webm", isMedia: true),
                              .init(name: "sound.ogg", url: "https://a.example/sound.ogg", isMedia: true),
                              .init(name: "pic.jpg", url: "https://a.example/pic.jpg")])
        XCTAssertEqual(GalleryDownloader.jobs(for: Self.items, imagesOnly: true),
                       [.init(name: "pic.jpg", url: "https://a.example/pic.jpg")])
    }

    /// A video larger than the image limit, served as video/webm (which an image download refuses), saved byte
    /// for byte; a sound's partial file resumed with a Range request.
    func testAVideoIsSavedByteIdenticalAndASoundResumes() throws {
        try MainActor.assumeIsolated {
            let folder = TemporaryFolder(prefix: "gallery-downloads")
            let server = try TestHTTPServer()
            let clip = try MediaFixture.clip.bytes().array
            let sound = try MediaFixture.sound.bytes().array
            var ranges: [String?] = []
            server.route("/clip.webm") { _ in .bytes(clip, contentType: "video/webm") }
            server.route("/as-image.webm") { _ in .bytes(clip, contentType: "video/webm") }
            server.route("/sound.ogg") { request in
                ranges.append(request.header("Range"))
                return .bytes(sound, contentType: "audio/ogg")
            }
            folder.write(Array(sound[..<4000]), to: DownloadNames.partialName(of: "sound.ogg"))
            let limits = ImagePipeline.Limits(maxImageBytes: clip.count / 2)
            let downloader = GalleryDownloader(pipeline: ImagePipeline(client: HTTPClient(), limits: limits), directory: folder.path)
            var done = false
            downloader.start([.init(name: "clip.webm", url: server.url("/clip.webm"), isMedia: true),
                              .init(name: "sound.ogg", url: server.url("/sound.ogg"), isMedia: true),
                              .init(name: "as-image.webm", url: server.url("/as-image.webm"))]) { done = true }
            XCTAssertTrue(iterateMainLoop(until: { done }, timeout: 120), "the downloads never ended")
            XCTAssertEqual(folder.contents("clip.webm"), clip)
            XCTAssertEqual(folder.contents("sound.ogg"), sound)
            XCTAssertEqual(ranges, ["bytes=4000-"], "the sound was resumed")
            XCTAssertEqual(downloader.progress.saved, 2)
            XCTAssertEqual(downloader.failures.count, 1, "the same file as an image: not an image, and too large")
            XCTAssertFalse(folder.names().contains("as-image.webm"))
        }
    }
}
