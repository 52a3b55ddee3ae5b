import GObjectBindings
import TestSupport
import XCTest
@testable import GalleryCore

/// Streaming: images saved while the feed is still read, named when it ends.
extension GalleryDownloaderTests {
    /// A server whose every path is an image of 200,000 bytes that differ per path (so a file saved under
    /// another image's name shows), each made once: `bodies` gives the bytes to compare with.
    @MainActor
    fileprivate static func pagedServer() throws -> (server: TestHTTPServer, bodies: PatternBodies) {
        let server = try TestHTTPServer()
        let bodies = PatternBodies(size: 200_000)
        server.route("/*") { request in
            let body = bodies.body(for: request.path)
            // A Range request resumes a partial file; past the end it is already complete.
            guard let range = request.header("Range"), range.hasPrefix("bytes="), range.hasSuffix("-"),
                  let from = Int(range.dropFirst("bytes=".count).dropLast()) else {
                return .bytes(body, contentType: "image/jpeg")
            }
            guard from < body.count else { return TestResponse.status(416).header("Content-Range", "bytes */\(body.count)") }
            return TestResponse(status: 206, headers: ["Content-Range": "bytes \(from)-\(body.count - 1)/\(body.count)"],
                                body: body.suffix(from: from), contentType: "image/jpeg")
        }
        return (server, bodies)
    }

    @MainActor
    fileprivate static func item(_ id: String, _ path: String, _ server: TestHTTPServer) -> GalleryItem {
        GalleryItem(id: id, title: id, fullImageURL: server.url(path))
    }

    /// Feeds `pages` one by one, then ends the feed. `requested`: each page's images are all asked for before
    /// the next page comes (and before the end).
    @MainActor
    fileprivate static func stream(_ pages: [[GalleryItem]], into folder: TemporaryFolder, server: TestHTTPServer,
                               requested: Bool = false) -> GalleryDownloader {
        let downloader = GalleryDownloader(pipeline: ImagePipeline(client: HTTPClient()), directory: folder.path)
        var done = false
        downloader.startStreaming { done = true }
        for page in pages {
            let before = server.requestCount
            downloader.add(page)
            if requested {
                XCTAssertTrue(iterateMainLoop(until: { server.requestCount == before + page.count }, timeout: 120),
                              "the page's images were asked for while the feed was still read")
            }
        }
        downloader.finishAdding()
        XCTAssertTrue(iterateMainLoop(until: { done }, timeout: 120), "the downloads never ended")
        return downloader
    }

    func testImagesDownloadWhileTheFeedIsStillReadAndGetTheirNamesWhenItEnds() throws {
        try MainActor.assumeIsolated {
            let folder = TemporaryFolder(prefix: "gallery-downloads")
            let (server, bodies) = try Self.pagedServer()
            let pages = [["4", "3"], ["2", "1"]].map { ids in ids.map { Self.item($0, "/p\($0)/image-\($0).jpg", server) } }
            let downloader = Self.stream(pages, into: folder, server: server, requested: true)
            XCTAssertEqual(downloader.progress.saved, 4)
            XCTAssertEqual(downloader.failures, [])
            XCTAssertEqual(folder.names(), ["image-1.jpg", "image-2.jpg", "image-3.jpg", "image-4.jpg"])
            for id in 1...4 { XCTAssertEqual(folder.contents("image-\(id).jpg"), bodies.array(for: "/p\(id)/image-\(id).jpg")) }

            let again = Self.stream(pages, into: folder, server: server)
            XCTAssertEqual(again.progress.skipped, 4)
            XCTAssertEqual(server.requestCount, 4, "no request for an image that is already saved")
        }
    }

    /// More complete images wait for their names at the feed's end than one batch of renames takes: every
    /// batch runs, one after another, and the run ends only after the last.
    func testMoreCompleteImagesThanOneBatchOfRenamesAllGetTheirNames() throws {
        try MainActor.assumeIsolated {
            let folder = TemporaryFolder(prefix: "gallery-downloads")
            let (server, bodies) = try Self.pagedServer()
            let count = 150
            let page = (1...count).reversed().map { Self.item("\($0)", "/q\($0)/image-\($0).jpg", server) }
            let downloader = GalleryDownloader(pipeline: ImagePipeline(client: HTTPClient()), directory: folder.path)
            var done = false
            downloader.startStreaming { done = true }
            downloader.add(page)
            // Every image complete in its partial file before the feed ends: their renames come all at once.
            XCTAssertTrue(iterateMainLoop(until: { server.requestCount == count && server.responsesInFlight == 0 }, timeout: 120))
            XCTAssertTrue(iterateMainLoop(until: { downloader.progress.running == 0 }, timeout: 120))
            let partials = { folder.names().filter { $0.hasSuffix(".part") }.count }
            XCTAssertTrue(iterateMainLoop(until: { partials() == count }, timeout: 120), "\(partials()) of \(count) partial files")
            XCTAssertEqual(folder.names().count, count, "only partial files: no name is given before the feed ends")
            XCTAssertFalse(done)
            downloader.finishAdding()
            XCTAssertTrue(iterateMainLoop(until: { done }, timeout: 120), "the run ends once every batch is renamed")
            XCTAssertEqual(downloader.progress.saved, count)
            XCTAssertEqual(downloader.failures, [])
            XCTAssertEqual(folder.names(), Set((1...count).map { "image-\($0).jpg" }))
            for id in [1, 64, 65, 128, 129, count] {
                XCTAssertTrue(folder.contents("image-\(id).jpg") == bodies.array(for: "/q\(id)/image-\(id).jpg"), "image-\(id).jpg")
            }
        }
    }

    /// Names are given oldest first: an older image with the same name, on a later page, takes the name the
    /// newer one downloaded under; the newer one's file is renamed, not downloaded twice.
    func testAnOlderImageOnALaterPageTakesTheNameAndTheStreamedOneIsRenamed() throws {
        try MainActor.assumeIsolated {
            let folder = TemporaryFolder(prefix: "gallery-downloads")
            let (server, bodies) = try Self.pagedServer()
            let newer = Self.item("9", "/new/sunset.jpg", server)
            let other = Self.item("8", "/other/sea.jpg", server)
            let older = Self.item("1", "/old/Sunset.jpg", server)
            let downloader = Self.stream([[newer, other], [older]], into: folder, server: server)
            XCTAssertEqual(downloader.failures, [])
            XCTAssertEqual(folder.names(), ["Sunset.jpg", "sea.jpg", "sunset (9).jpg"], "as `jobs(for:)` names them")
            XCTAssertEqual(GalleryDownloader.jobs(for: [newer, other, older]).map(\.name), ["sunset (9).jpg", "sea.jpg", "Sunset.jpg"])
            XCTAssertEqual(folder.contents("Sunset.jpg"), bodies.array(for: "/old/Sunset.jpg"), "the older image's bytes")
            XCTAssertEqual(folder.contents("sunset (9).jpg"), bodies.array(for: "/new/sunset.jpg"))
            XCTAssertEqual(server.requestCount, 3, "each image once")
            XCTAssertEqual(downloader.progress.saved, 3)
        }
    }

    /// Stopped while the feed is read: only partial files, under the names the next run gives the same
    /// images first (the newest image with a name takes it), so the next run resumes them.
    func testStoppedWhileTheFeedIsReadLeavesOnlyPartialFilesTheNextRunFinishes() throws {
        try MainActor.assumeIsolated {
            let folder = TemporaryFolder(prefix: "gallery-downloads")
            let (server, bodies) = try Self.pagedServer()
            let first = [Self.item("2", "/a/two.jpg", server), Self.item("1", "/a/one.jpg", server)]
            let downloader = GalleryDownloader(pipeline: ImagePipeline(client: HTTPClient()), directory: folder.path)
            var done = false
            downloader.startStreaming { done = true }
            downloader.add(first)
            // Both downloads over and their partial files complete: the cancel finds them waiting for their names.
            let complete = { [".one.jpg.part", ".two.jpg.part"].allSatisfy { folder.contents($0)?.count == bodies.size } }
            XCTAssertTrue(iterateMainLoop(until: { server.responsesInFlight == 0 && downloader.progress.running == 0 && complete() },
                                          timeout: 120))
            downloader.cancel()
            XCTAssertTrue(iterateMainLoop(until: { done }, timeout: 120))
            XCTAssertEqual(folder.names(), [".one.jpg.part", ".two.jpg.part"], "no name is given before the feed ends")

            let next = Self.stream([first], into: folder, server: server)
            XCTAssertEqual(folder.names(), ["one.jpg", "two.jpg"])
            XCTAssertEqual(next.progress.saved, 2)
            XCTAssertEqual(next.progress.resumed, 2, "the complete partial files were resumed (nothing after them)")
            XCTAssertEqual(folder.contents("one.jpg"), bodies.array(for: "/a/one.jpg"))
        }
    }
}
