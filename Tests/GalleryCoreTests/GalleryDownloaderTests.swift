import CGLib
import GObjectBindings
import TestSupport
import XCTest
@testable import GalleryCore

/// `--download`'s core against a real SoupServer on 127.0.0.1 writing real files in a temporary folder.
final class GalleryDownloaderTests: GLibTestCase {
    /// Bytes that differ all along, over several read chunks, so a misplaced or repeated chunk shows.
    static let payload = PatternBytes.make(count: 600_000, key: "payload")

    // MARK: Helpers

    /// Downloads `jobs` into `folder` and runs the loop until the downloader is done.
    @MainActor
    static func run(_ jobs: [GalleryDownloader.Job], into folder: TemporaryFolder,
                            limits: ImagePipeline.Limits = .init(), client: HTTPClient = HTTPClient(),
                            cancelWhen: ((GalleryDownloader) -> Bool)? = nil) -> GalleryDownloader {
        let downloader = GalleryDownloader(pipeline: ImagePipeline(client: client, limits: limits), directory: folder.path)
        var done = false
        if let cancelWhen {
            downloader.onProgress = { [weak downloader] in
                if let downloader, cancelWhen(downloader) { downloader.cancel() }
            }
        }
        downloader.start(jobs) { done = true }
        XCTAssertTrue(iterateMainLoop(until: { done }, timeout: 120), "the downloads never ended")
        return downloader
    }

    @MainActor
    private static func imageServer() throws -> TestHTTPServer {
        let server = try TestHTTPServer()
        server.route("/img/*") { _ in .bytes(payload, contentType: "image/png") }
        return server
    }

    // MARK: Tests

    func testSavesEveryImageByteForByteAndMakesNoRequestForThemNextTime() throws {
        try MainActor.assumeIsolated {
            let folder = TemporaryFolder(prefix: "gallery-downloads")
            let server = try Self.imageServer()
            let jobs = ["a.png", "b.png", "c.png"].map { GalleryDownloader.Job(name: $0, url: server.url("/img/\($0)")) }
            let first = Self.run(jobs, into: folder)
            XCTAssertEqual(first.progress.saved, 3)
            XCTAssertEqual(first.failures, [])
            XCTAssertEqual(first.progress.bytesReceived, 3 * Self.payload.count)
            for name in ["a.png", "b.png", "c.png"] { XCTAssertEqual(folder.contents(name), Self.payload, name) }
            XCTAssertEqual(folder.names(), ["a.png", "b.png", "c.png"], "no partial files left")
            XCTAssertEqual(server.requestLog.count, 3)
            for request in server.requestLog { XCTAssertTrue(request.hasPrefix("/img/")) }

            let second = Self.run(jobs, into: folder)
            XCTAssertEqual(second.progress.skipped, 3)
            XCTAssertEqual(second.progress.saved, 0)
            XCTAssertEqual(server.requestCount, 3, "no request for an image that is already saved")
        }
    }

    func testAFinishedDownloaderLetsGoOfItsDownloadsAndClient() throws {
        try MainActor.assumeIsolated {
            let folder = TemporaryFolder(prefix: "gallery-downloads")
            let server = try Self.imageServer()
            weak var client: HTTPClient?
            weak var downloader: GalleryDownloader?
            do {
                let jobs = ["a.png", "b.png"].map { GalleryDownloader.Job(name: $0, url: server.url("/img/\($0)")) }
                let httpClient = HTTPClient()
                client = httpClient
                let finished = Self.run(jobs, into: folder, client: httpClient)
                XCTAssertEqual(finished.progress.saved, 2)
                downloader = finished
            }
            // Callbacks still queued may hold them for a moment; nothing may hold them for good.
            XCTAssertTrue(iterateMainLoop(until: { downloader == nil && client == nil }, timeout: 60),
                          "no download (nor its scheduler ticket) keeps the downloader or the client alive after the run")
        }
    }

    func testResumesAPartialFileWithARangeRequest() throws {
        try MainActor.assumeIsolated {
            let folder = TemporaryFolder(prefix: "gallery-downloads")
            let server = try TestHTTPServer()
            var ranges: [String?] = []
            server.route("/img/*") { request in
                ranges.append(request.header("Range"))
                return .bytes(Self.payload, contentType: "image/png")
            }
            folder.write(Array(Self.payload[..<250_000]), to: ".c.png.part")
            let downloader = Self.run([.init(name: "c.png", url: server.url("/img/c.png"))], into: folder)
            XCTAssertEqual(ranges, ["bytes=250000-"])
            XCTAssertEqual(downloader.progress.resumed, 1)
            XCTAssertEqual(downloader.progress.bytesReceived, Self.payload.count - 250_000, "only the rest was sent")
            XCTAssertEqual(folder.contents("c.png"), Self.payload)
            XCTAssertEqual(folder.names(), ["c.png"])
        }
    }

    func testStartsOverWhenTheServerIgnoresTheRange() throws {
        try MainActor.assumeIsolated {
            let folder = TemporaryFolder(prefix: "gallery-downloads")
            let server = try TestHTTPServer()
            // A streamed body: the server cannot cut a range out of it and answers 200 with everything.
            server.route("/img/*") { _ in .bytes(Self.payload, contentType: "image/png").throttled(bytesPerSecond: 100_000_000) }
            folder.write([UInt8](repeating: 0xAA, count: 1000), to: ".c.png.part")
            let downloader = Self.run([.init(name: "c.png", url: server.url("/img/c.png"))], into: folder)
            XCTAssertEqual(downloader.progress.resumed, 0)
            XCTAssertEqual(folder.contents("c.png"), Self.payload, "the old partial bytes are gone")
            XCTAssertEqual(server.requestCount, 1, "the full response was used, not asked for again")
        }
    }

    func testStartsOverWhenTheContentRangeDoesNotContinueThePartialFile() throws {
        try MainActor.assumeIsolated {
            let folder = TemporaryFolder(prefix: "gallery-downloads")
            let server = try TestHTTPServer()
            server.route("/img/*") { request in
                guard request.header("Range") != nil else { return .bytes(Self.payload, contentType: "image/png") }
                return TestResponse(status: 206, headers: ["Content-Range": "bytes 0-99/\(Self.payload.count)"],
                                    body: Array(Self.payload[..<100]), contentType: "image/png")
            }
            folder.write(Array(Self.payload[..<5000]), to: ".c.png.part")
            let downloader = Self.run([.init(name: "c.png", url: server.url("/img/c.png"))], into: folder)
            XCTAssertEqual(downloader.failures, [])
            XCTAssertEqual(folder.contents("c.png"), Self.payload)
            XCTAssertEqual(server.requestCount, 2, "a second request, without Range")
        }
    }

    /// A login or error page in answer to a Range request is not a reason to throw the partial file away.
    func testAnErrorPageForARangeRequestKeepsThePartialFile() throws {
        try MainActor.assumeIsolated {
            let folder = TemporaryFolder(prefix: "gallery-downloads")
            let server = try TestHTTPServer()
            // Streamed, so that libsoup does not answer the Range itself (with a 416: the page is shorter).
            server.route("/img/*") { _ in .html("<html><body>Please sign in</body></html>").throttled(bytesPerSecond: 1_000_000) }
            folder.write(Array(Self.payload[..<5000]), to: ".c.png.part")
            let downloader = Self.run([.init(name: "c.png", url: server.url("/img/c.png"))], into: folder)
            XCTAssertEqual(downloader.failures, [.init(name: "c.png", reason: "Not an image (text/html)")])
            XCTAssertEqual(folder.contents(".c.png.part"), Array(Self.payload[..<5000]))
        }
    }

    /// A run stopped between creating the partial file and its first write leaves it empty.
    func testAnEmptyPartialFileIsReplaced() throws {
        try MainActor.assumeIsolated {
            let folder = TemporaryFolder(prefix: "gallery-downloads")
            let server = try Self.imageServer()
            folder.write([], to: ".c.png.part")
            let downloader = Self.run([.init(name: "c.png", url: server.url("/img/c.png"))], into: folder)
            XCTAssertEqual(downloader.failures, [])
            XCTAssertEqual(folder.contents("c.png"), Self.payload)
            XCTAssertEqual(folder.names(), ["c.png"])
        }
    }

    func testAPartialFileThatIsAlreadyCompleteIsRenamed() throws {
        try MainActor.assumeIsolated {
            let folder = TemporaryFolder(prefix: "gallery-downloads")
            let server = try TestHTTPServer()
            server.route("/img/*") { request in
                guard request.header("Range") == "bytes=\(Self.payload.count)-" else { return .status(500) }
                return TestResponse.status(416).header("Content-Range", "bytes */\(Self.payload.count)")
            }
            folder.write(Self.payload, to: ".c.png.part")
            let downloader = Self.run([.init(name: "c.png", url: server.url("/img/c.png"))], into: folder)
            XCTAssertEqual(downloader.progress.saved, 1)
            XCTAssertEqual(downloader.progress.bytesReceived, 0, "416: nothing after the partial file")
            XCTAssertEqual(folder.contents("c.png"), Self.payload)
            XCTAssertEqual(folder.names(), ["c.png"])
        }
    }

    func testFailuresAreListedAndNeverLeaveAFileUnderTheImagesName() throws {
        try MainActor.assumeIsolated {
            let folder = TemporaryFolder(prefix: "gallery-downloads")
            let server = try Self.imageServer()
            server.route("/missing.png") { _ in .status(404) }
            server.route("/page.png") { _ in .html("<html><body>Sign in</body></html>") }
            server.route("/disguised.png") { _ in .bytes(Array("<!DOCTYPE html><p>Error</p>".utf8), contentType: "image/png") }
            server.route("/huge.png") { _ in .bytes([UInt8](repeating: 1, count: 300_000), contentType: "image/png") }
            server.route("/cut.png") { _ in .bytes(Self.payload, contentType: "image/png").truncated(afterBytes: 300_000) }
            let names = ["ok.png", "missing.png", "page.png", "disguised.png", "huge.png", "cut.png"]
            let jobs = names.map { GalleryDownloader.Job(name: $0, url: server.url($0 == "ok.png" ? "/img/ok.png" : "/\($0)")) }
            let downloader = Self.run(jobs, into: folder, limits: .init(maxImageBytes: 200_000 + Self.payload.count))
            let reasons = Dictionary(uniqueKeysWithValues: downloader.failures.map { ($0.name, $0.reason) })
            XCTAssertEqual(reasons, [
                "missing.png": "HTTP 404 Not Found",
                "page.png": "Not an image (text/html)",
                "disguised.png": "Not an image (text/html)",
                "cut.png": "Download cut off (connection closed early)",
            ])
            XCTAssertEqual(downloader.progress.saved, 2, "ok.png and huge.png (under the limit)")
            XCTAssertEqual(downloader.progress.failed, 4)
            let files = folder.names()
            for name in ["missing.png", "page.png", "disguised.png", "cut.png"] {
                XCTAssertFalse(files.contains(name), "\(name) must not exist under its final name")
            }
            XCTAssertEqual(folder.contents(".cut.png.part"), Array(Self.payload[..<300_000]),
                           "kept for a resume, with every byte received: those held when the body broke off too")

            let small = Self.run([.init(name: "big.png", url: server.url("/huge.png"))], into: folder, limits: .init(maxImageBytes: 100_000))
            XCTAssertEqual(small.failures.map(\.name), ["big.png"])
            XCTAssertTrue(small.failures.first?.reason.hasPrefix("Too large") ?? false, "\(small.failures)")
            XCTAssertFalse(folder.names().contains("big.png"))
            XCTAssertFalse(folder.names().contains(".big.png.part"))
        }
    }

    func testASinkWritesTheChunksItHoldsTogetherOnceTheyAreEnoughAndTheRestWhenItCloses() {
        MainActor.assumeIsolated {
            let folder = TemporaryFolder(prefix: "gallery-downloads")
            let sink = FileSink(file: File(path: folder.path + "/.a.png.part"), name: "a.png", mode: .create,
                                flushBytes: 10_000)
            let chunks = stride(from: 0, to: 15_000, by: 3_000).map { Bytes(Array(Self.payload[$0..<$0 + 3_000])) }
            for chunk in chunks[0..<3] {
                var taken = false
                sink.write(chunk) { failure in
                    XCTAssertNil(failure)
                    taken = true
                }
                XCTAssertTrue(taken, "a chunk that is held is taken at once")
            }
            XCTAssertEqual(folder.names(), [], "9,000 bytes held, nothing written")

            var written = false
            sink.write(chunks[3]) { failure in
                XCTAssertNil(failure)
                written = true
            }
            XCTAssertFalse(written, "12,000 bytes are written before the sink takes more")
            XCTAssertTrue(iterateMainLoop(until: { written }, timeout: 60))
            XCTAssertEqual(folder.contents(".a.png.part"), Array(Self.payload[..<12_000]), "the four chunks, in one write")
            XCTAssertTrue(sink.createdFile)

            sink.write(chunks[4]) { XCTAssertNil($0) }
            XCTAssertEqual(folder.contents(".a.png.part")?.count, 12_000, "the fifth is held")
            var closed = false
            sink.close(movingTo: File(path: folder.path + "/a.png")) { failure in
                XCTAssertNil(failure)
                closed = true
            }
            XCTAssertTrue(iterateMainLoop(until: { closed }, timeout: 60))
            XCTAssertEqual(folder.names(), ["a.png"])
            XCTAssertEqual(folder.contents("a.png"), Array(Self.payload[..<15_000]), "what was held is written before the rename")
        }
    }

    func testASinkHoldsABoundedNumberOfChunksHoweverSmall() {
        MainActor.assumeIsolated {
            let folder = TemporaryFolder(prefix: "gallery-downloads")
            let sink = FileSink(file: File(path: folder.path + "/.drip.png.part"), name: "drip.png", mode: .create,
                                flushBytes: 10_000)
            var taken = 0
            for index in 0..<FileSink.maxHeldChunks {
                sink.write(Bytes([Self.payload[index]])) { failure in
                    XCTAssertNil(failure)
                    taken += 1
                }
            }
            XCTAssertEqual(taken, FileSink.maxHeldChunks - 1, "the last chunk waits for the write")
            XCTAssertTrue(iterateMainLoop(until: { taken == FileSink.maxHeldChunks }, timeout: 60))
            XCTAssertEqual(folder.contents(".drip.png.part"), Array(Self.payload[..<FileSink.maxHeldChunks]))
            var closed = false
            sink.close(movingTo: nil) { _ in closed = true }
            XCTAssertTrue(iterateMainLoop(until: { closed }, timeout: 60))
        }
    }

    func testCancellingLeavesOnlyPartialFilesThatTheNextRunResumes() throws {
        try MainActor.assumeIsolated {
            let folder = TemporaryFolder(prefix: "gallery-downloads")
            let server = try TestHTTPServer()
            var ranges: [String] = []
            server.route("/slow/*") { request in
                if let range = request.header("Range") { ranges.append(range) }
                return .bytes(Self.payload, contentType: "image/png").throttled(bytesPerSecond: 400_000)
            }
            server.route("/img/*") { request in
                if let range = request.header("Range") { ranges.append(range) }
                return .bytes(Self.payload, contentType: "image/png")
            }
            let slow = [GalleryDownloader.Job(name: "s.png", url: server.url("/slow/s.png"))]
            let stopped = Self.run(slow, into: folder, cancelWhen: { $0.progress.bytesReceived >= 50_000 })
            XCTAssertTrue(stopped.isCancelled)
            XCTAssertEqual(stopped.progress.saved, 0)
            XCTAssertEqual(folder.names(), [".s.png.part"], "only the hidden partial file")
            let partial = try XCTUnwrap(folder.contents(".s.png.part"))
            XCTAssertGreaterThanOrEqual(partial.count, 50_000)
            XCTAssertEqual(partial, Array(Self.payload[..<partial.count]), "the partial file is a prefix of the image")
            XCTAssertTrue(iterateMainLoop(until: { server.responsesInFlight == 0 }, timeout: 60), "the transfer stopped")

            let resumed = Self.run([GalleryDownloader.Job(name: "s.png", url: server.url("/img/s.png"))], into: folder)
            XCTAssertEqual(resumed.progress.resumed, 1)
            XCTAssertEqual(ranges, ["bytes=\(partial.count)-"])
            XCTAssertEqual(folder.contents("s.png"), Self.payload)
        }
    }

    func testJobsAreTheImagesWithSafeUniqueNamesGivenOldestFirst() {
        let items = [
            GalleryItem(id: "3", title: "New sunset", fullImageURL: "https://example.org/x/Sunset.jpg"),
            GalleryItem(id: "2", title: "Clip", kind: .video, fullImageURL: nil, pageURL: "https://example.org/v"),
            GalleryItem(id: "1", title: "Old sunset", fullImageURL: "https://example.org/y/sunset.jpg"),
            GalleryItem(id: "0", title: "Sneaky", fullImageURL: "https://example.org/z/..%2F..%2F.bashrc"),
        ]
        XCTAssertEqual(GalleryDownloader.jobs(for: items), [
            .init(name: "Sunset (3).jpg", url: "https://example.org/x/Sunset.jpg"),
            .init(name: "sunset.jpg", url: "https://example.org/y/sunset.jpg"),
            .init(name: "_bashrc", url: "https://example.org/z/..%2F..%2F.bashrc"),
        ])
    }
}

