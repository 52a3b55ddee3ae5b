import Glibc
import TestSupport
import XCTest
@testable import GalleryCore

/// The saved extension is the one of the format the bytes are, on every way a file reaches its name — a
/// fresh download, a resume, a partial file that was already complete, a streamed gallery's deferred
/// rename — and a rerun finds the file under that name. Real SoupServer on 127.0.0.1, real files.
final class SavedExtensionTests: GLibTestCase {
    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// A PNG's start and then enough bytes that a download takes several chunks (nothing here decodes it).
    static let png = pngSignature + PatternBytes.make(count: 400_000, key: "png")
    /// An MP4 video's start: an `ftyp` box with video brands.
    static let mp4 = [0, 0, 0, 0x18] + Array("ftypmp42".utf8) + [0, 0, 0, 0] + Array("mp42isom".utf8)
        + PatternBytes.make(count: 100_000, key: "mp4")

    func testNamesFollowTheFormat() {
        XCTAssertEqual(SavedExtension.name("a.jpg", for: .png), "a.png")
        XCTAssertEqual(SavedExtension.name("a.JPEG", for: .jpeg), "a.JPEG", "a matching extension stays, in any case")
        XCTAssertEqual(SavedExtension.name("a.jpe", for: .jpeg), "a.jpe")
        XCTAssertEqual(SavedExtension.name("photo", for: .gif), "photo.gif")
        XCTAssertEqual(SavedExtension.name("v1.2 final", for: .webp), "v1.2 final.webp")
        XCTAssertEqual(SavedExtension.name("clip.mp4", for: .png), "clip.mp4.png", "not an image extension: appended")
        XCTAssertEqual(SavedExtension.name("a.jpg", for: nil), "a.jpg")
        XCTAssertEqual(SavedExtension.format(of: Array(Self.png.prefix(64))), .png)
        XCTAssertNil(SavedExtension.format(of: Array(Self.mp4.prefix(64))), "a video is no image format")
        XCTAssertNil(SavedExtension.format(of: Array(Self.pngSignature.prefix(4))))
        XCTAssertNil(SavedExtension.format(of: Array("BMW owners' club, 1998 photos".utf8)), "text that starts with BM")
        XCTAssertEqual(SavedExtension.format(of: Array("BM".utf8) + [UInt8](repeating: 0, count: 12) + [40, 0, 0, 0]), .bmp)
        XCTAssertEqual(SavedExtension.candidates(for: "a.jpg").first, "a.jpg")
        XCTAssertTrue(SavedExtension.candidates(for: "a.jpg").contains("a.png"))
    }

    /// Serves `bytes` for every path, honouring a Range (206, or 416 past the end), and counts requests.
    @MainActor
    private static func server(_ bytes: [UInt8], type: String = "image/jpeg") throws -> TestHTTPServer {
        let server = try TestHTTPServer()
        let whole = TestResponse.bytes(bytes, contentType: type)
        server.route("/*") { request in
            guard let range = request.header("Range"), range.hasPrefix("bytes="), range.hasSuffix("-"),
                  let from = Int(range.dropFirst("bytes=".count).dropLast()) else { return whole }
            guard from < bytes.count else { return TestResponse.status(416).header("Content-Range", "bytes */\(bytes.count)") }
            return TestResponse(status: 206, headers: ["Content-Range": "bytes \(from)-\(bytes.count - 1)/\(bytes.count)"],
                                body: Array(bytes[from...]), contentType: type)
        }
        return server
    }

    func testAPNGServedAsJPGIsSavedAsPNGAndARerunSkipsIt() throws {
        try MainActor.assumeIsolated {
            let folder = TemporaryFolder(prefix: "gallery-downloads")
            let server = try Self.server(Self.png)
            let jobs = [GalleryDownloader.Job(name: "a.jpg", url: server.url("/a.jpg")),
                        GalleryDownloader.Job(name: "b", url: server.url("/b"))]
            var saved: [String] = []
            let first = GalleryDownloader(pipeline: ImagePipeline(client: HTTPClient()), directory: folder.path)
            first.onEvent = { if case .saved(let name, _) = $0 { saved.append(name) } }
            var done = false
            first.start(jobs) { done = true }
            XCTAssertTrue(iterateMainLoop(until: { done }, timeout: 120), "the downloads never ended")
            XCTAssertEqual(first.failures, [])
            XCTAssertEqual(folder.names(), ["a.png", "b.png"] as Set)
            XCTAssertEqual(saved.sorted(), ["a.png", "b.png"], "the run says the name the file has")
            XCTAssertTrue(folder.contents("a.png") == Self.png)

            let again = GalleryDownloaderTests.run(jobs, into: folder)
            XCTAssertEqual(again.progress.skipped, 2)
            XCTAssertEqual(server.requestCount, 2, "no request for an image saved under its corrected name")
            XCTAssertEqual(folder.names(), ["a.png", "b.png"] as Set)
        }
    }

    func testAResumedOrAlreadyCompletePartialFileTakesTheNameOfItsBytes() throws {
        try MainActor.assumeIsolated {
            let folder = TemporaryFolder(prefix: "gallery-downloads")
            let server = try Self.server(Self.png)
            // One cut off (resumed with a Range), one whole (the server answers 416: nothing after it).
            folder.write(Array(Self.png.prefix(150_000)), to: ".cut.jpg.part")
            folder.write(Self.png, to: ".whole.jpg.part")
            let jobs = ["cut.jpg", "whole.jpg"].map { GalleryDownloader.Job(name: $0, url: server.url("/" + $0)) }
            let downloader = GalleryDownloaderTests.run(jobs, into: folder)
            XCTAssertEqual(downloader.failures, [])
            XCTAssertEqual(downloader.progress.resumed, 2)
            XCTAssertEqual(folder.names(), ["cut.png", "whole.png"] as Set)
            XCTAssertTrue(folder.contents("cut.png") == Self.png)
            XCTAssertTrue(folder.contents("whole.png") == Self.png)
        }
    }

    /// Only image formats rename: a video (h-video's downloads), or bytes of no known format, keep the name.
    func testAVideoOrAnUnknownFormatKeepsItsName() throws {
        try MainActor.assumeIsolated {
            let folder = TemporaryFolder(prefix: "gallery-downloads")
            let video = try Self.server(Self.mp4, type: "image/jpeg")
            let other = try Self.server(PatternBytes.make(count: 50_000, key: "other"))
            let jobs = [GalleryDownloader.Job(name: "clip.mp4", url: video.url("/clip.mp4")),
                        GalleryDownloader.Job(name: "film.jpg", url: video.url("/film.jpg")),
                        GalleryDownloader.Job(name: "odd.jpg", url: other.url("/odd.jpg"))]
            let downloader = GalleryDownloaderTests.run(jobs, into: folder)
            XCTAssertEqual(downloader.failures, [])
            XCTAssertEqual(folder.names(), ["clip.mp4", "film.jpg", "odd.jpg"] as Set)
        }
    }

    /// "a.jpg" whose bytes are a PNG keeps its name when "a.png" is another image of the gallery: neither
    /// overwrites the other, and a rerun does not take one for the other.
    func testACorrectedNameNeverTakesAnotherImagesName() throws {
        try MainActor.assumeIsolated {
            let folder = TemporaryFolder(prefix: "gallery-downloads")
            let server = try Self.server(Self.png)
            let jobs = ["a.jpg", "a.png"].map { GalleryDownloader.Job(name: $0, url: server.url("/" + $0)) }
            let downloader = GalleryDownloaderTests.run(jobs, into: folder)
            XCTAssertEqual(downloader.failures, [])
            XCTAssertEqual(folder.names(), ["a.jpg", "a.png"] as Set)
            XCTAssertEqual(unlink(folder.path + "/a.jpg"), 0)
            let again = GalleryDownloaderTests.run(jobs, into: folder)
            XCTAssertEqual(again.progress.saved, 1, "a.png is not a.jpg's file")
            XCTAssertEqual(folder.names(), ["a.jpg", "a.png"] as Set)
        }
    }

    /// A streamed gallery's files are renamed by the downloader once the feed ended (or, for images that
    /// waited for the final names, by their download): both take their bytes' extension.
    func testAStreamedGalleryIsSavedUnderItsBytesExtensionsAndARerunSkipsIt() throws {
        try MainActor.assumeIsolated {
            let folder = TemporaryFolder(prefix: "gallery-downloads")
            let server = try Self.server(Self.png)
            // Item 1 comes last and is older than item 3, which wants the same name: 3 is renamed "p (3).jpg".
            let pages = [["3", "2"], ["1"]].map { ids in
                ids.map { GalleryItem(id: $0, title: $0, fullImageURL: server.url("/\($0 == "2" ? "q" : "p")/\($0 == "2" ? "q" : "p").jpg")) }
            }
            let stream = { () -> GalleryDownloader in
                let downloader = GalleryDownloader(pipeline: ImagePipeline(client: HTTPClient()), directory: folder.path)
                var done = false
                downloader.startStreaming { done = true }
                for page in pages { downloader.add(page) }
                downloader.finishAdding()
                XCTAssertTrue(iterateMainLoop(until: { done }, timeout: 120), "the downloads never ended")
                return downloader
            }
            let first = stream()
            XCTAssertEqual(first.failures, [])
            XCTAssertEqual(folder.names(), ["p (3).png", "p.png", "q.png"] as Set)
            let requests = server.requestCount
            let again = stream()
            XCTAssertEqual(again.progress.skipped, 3)
            XCTAssertEqual(server.requestCount, requests, "no request for an image saved under its corrected name")
        }
    }
}
