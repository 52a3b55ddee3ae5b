import GObjectBindings
import TestSupport
import XCTest
@testable import GalleryCore

/// Each `ImageRequest` option through the real pipeline, against a SoupServer on 127.0.0.1 that counts requests:
/// the sizes (thumbnail, fitted, original), the cache policies (memory, disk, none), keeping the original (and
/// what it serves without a request), and saving to a file.
final class ImageRequestOptionTests: GLibTestCase {
    static let width = 800
    static let height = 600

    /// `/img/NAME.png`: an 800 × 600 PNG, cacheable for a day.
    @MainActor
    private static func server() throws -> (TestHTTPServer, [UInt8]) {
        let png = try Pixbuf.filled(width: width, height: height, rgba: 0x3584e4ff).encoded(as: "png").array
        let server = try TestHTTPServer()
        server.route("/img/*") { _ in
            TestResponse.bytes(png, contentType: "image/png").header("Cache-Control", "public, max-age=86400")
        }
        return (server, png)
    }

    @MainActor
    private static func load(_ request: ImageRequest, _ pipeline: ImagePipeline) -> ImageResponse? {
        var result: Result<ImageResponse, ImageLoadError>?
        pipeline.loadImage(request) { result = $0 }
        XCTAssertTrue(iterateMainLoop(until: { result != nil }, timeout: 60), "\(request.url) never completed")
        XCTAssertNoThrow(try result?.get())
        return try? result?.get()
    }

    func testThumbnailFittedAndOriginalSizes() throws {
        try MainActor.assumeIsolated {
            let (server, _) = try Self.server()
            let pipeline = ImagePipeline(client: HTTPClient())
            let url = server.url("/img/a.png")
            let thumbnail = try XCTUnwrap(Self.load(ImageRequest(url: url, size: .fitting(96)), pipeline))
            XCTAssertEqual([thumbnail.image.pixbuf.width, thumbnail.image.pixbuf.height], [96, 72])
            let fitted = try XCTUnwrap(Self.load(ImageRequest(url: url, size: .fitting(400), priority: .interactive), pipeline))
            XCTAssertEqual([fitted.image.pixbuf.width, fitted.image.pixbuf.height], [400, 300])
            let original = try XCTUnwrap(Self.load(ImageRequest(url: url, size: .original), pipeline))
            XCTAssertEqual([original.image.pixbuf.width, original.image.pixbuf.height], [Self.width, Self.height])
            for image in [thumbnail.image, fitted.image, original.image] {
                XCTAssertEqual([image.originalWidth, image.originalHeight], [Self.width, Self.height])
            }
            XCTAssertNil(thumbnail.original, "no bytes for a request that does not keep them")
            XCTAssertEqual(pipeline.cache.count, 3, "each size cached apart")
            XCTAssertEqual(server.requestCount, 3)
        }
    }

    /// Every response says what file its image came from — the format read from the bytes, however the server
    /// labels them, and the byte count — also one served from the memory cache.
    func testResponsesCarryTheFilesFormatAndSizeAlsoFromTheMemoryCache() throws {
        try MainActor.assumeIsolated {
            let (server, png) = try Self.server()
            server.route("/mislabelled.jpg") { _ in TestResponse.bytes(png, contentType: "image/jpeg") }
            let pipeline = ImagePipeline(client: HTTPClient())
            let expected = ImageFileInfo(format: .png, byteCount: png.count)
            let url = server.url("/img/a.png")
            XCTAssertEqual(Self.load(ImageRequest(url: url, size: .fitting(96)), pipeline)?.file, expected)
            var cached: ImageResponse?
            pipeline.loadImage(ImageRequest(url: url, size: .fitting(96))) { cached = try? $0.get() }
            XCTAssertEqual(cached?.file, expected, "remembered beside the decoded image")
            XCTAssertEqual(Self.load(ImageRequest(url: url, size: .original, cachePolicy: .none, keepsOriginal: true),
                                     pipeline)?.file, expected)
            XCTAssertEqual(Self.load(ImageRequest(url: server.url("/mislabelled.jpg"), size: .fitting(96)), pipeline)?.file,
                           expected, "the bytes say PNG, whatever the Content-Type")
            XCTAssertEqual(server.requestCount, 3)
        }
    }

    func testTheMemoryCacheIsReadAndWrittenOnlyAsThePolicySays() throws {
        try MainActor.assumeIsolated {
            let (server, _) = try Self.server()
            let pipeline = ImagePipeline(client: HTTPClient())
            let url = server.url("/img/a.png")
            _ = Self.load(ImageRequest(url: url, size: .fitting(96), cachePolicy: [.readMemory, .disk]), pipeline)
            XCTAssertEqual(pipeline.cache.count, 0, "not written")
            _ = Self.load(ImageRequest(url: url, size: .fitting(96)), pipeline)
            XCTAssertEqual(pipeline.cache.count, 1)
            XCTAssertEqual(server.requestCount, 2)

            var cached: ImageResponse?
            pipeline.loadImage(ImageRequest(url: url, size: .fitting(96))) { cached = try? $0.get() }
            XCTAssertNotNil(cached, "read from memory before loadImage returns")
            _ = Self.load(ImageRequest(url: url, size: .fitting(96), cachePolicy: .none), pipeline)
            XCTAssertEqual(server.requestCount, 3, "a request without cache policy goes to the network")
        }
    }

    func testWithoutTheDiskPolicyTheHTTPCacheNeitherAnswersNorStores() throws {
        try MainActor.assumeIsolated {
            let (server, _) = try Self.server()
            let folder = TemporaryFolder(prefix: "gallery-cache")
            let cache = HTTPCache(directory: folder.path + "/http", maxBytes: 10_000_000)
            let pipeline = ImagePipeline(client: HTTPClient(cache: cache))
            let noMemory: ImageRequest.CachePolicy = [.disk]
            _ = Self.load(ImageRequest(url: server.url("/img/a.png"), size: .fitting(96), cachePolicy: noMemory), pipeline)
            cache.finishWrites()
            _ = Self.load(ImageRequest(url: server.url("/img/a.png"), size: .fitting(96), cachePolicy: noMemory), pipeline)
            XCTAssertEqual(server.requestCount, 1, "stored, then answered from disk")
            _ = Self.load(ImageRequest(url: server.url("/img/a.png"), size: .fitting(96), cachePolicy: .none), pipeline)
            XCTAssertEqual(server.requestCount, 2, "not answered from disk")
            _ = Self.load(ImageRequest(url: server.url("/img/b.png"), size: .fitting(96), cachePolicy: .none), pipeline)
            cache.finishWrites()
            _ = Self.load(ImageRequest(url: server.url("/img/b.png"), size: .fitting(96), cachePolicy: noMemory), pipeline)
            XCTAssertEqual(server.requestLog.filter { $0 == "/img/b.png" }.count, 2, "not stored on disk")
        }
    }

    /// A request that keeps the original gets the downloaded bytes; while the caller holds them, any request for
    /// the same URL — another size, a file save — is served from them; once let go, the next goes to the network.
    func testAKeptOriginalServesTheSameURLWithoutARequestWhileItIsHeld() throws {
        try MainActor.assumeIsolated {
            let (server, png) = try Self.server()
            let folder = TemporaryFolder(prefix: "gallery-held")
            let pipeline = ImagePipeline(client: HTTPClient())
            let url = server.url("/img/a.png")
            var held: ImageOriginal? = try XCTUnwrap(
                Self.load(ImageRequest(url: url, size: .fitting(400), keepsOriginal: true), pipeline)?.original)
            XCTAssertEqual(held?.byteCount, png.count)
            XCTAssertEqual(server.requestCount, 1)

            let full = try XCTUnwrap(Self.load(ImageRequest(url: url, size: .original, cachePolicy: [.readMemory]), pipeline))
            XCTAssertEqual(full.image.pixbuf.width, Self.width)
            var saved: Result<SavedFile, ImageLoadError>?
            pipeline.saveFile(ImageRequest(url: url, size: .original), to: FileDestination(directory: folder.path, name: "a.png")) {
                saved = $0
            }
            XCTAssertTrue(iterateMainLoop(until: { saved != nil }, timeout: 60))
            XCTAssertEqual(try saved?.get(), SavedFile(resumed: false, fromHeldOriginal: true, name: "a.png"))
            XCTAssertEqual(folder.contents("a.png"), png, "byte for byte")
            XCTAssertEqual(server.requestCount, 1, "the decode and the save came from the held bytes")

            withExtendedLifetime(held) {}
            held = nil  // the caller lets go
            _ = Self.load(ImageRequest(url: url, size: .fitting(200)), pipeline)
            XCTAssertEqual(server.requestCount, 2, "nothing held: downloaded again")
        }
    }

    func testSavingToAFileWritesTheServersBytesAndTwoSavesOfOneFileAreOne() throws {
        try MainActor.assumeIsolated {
            let (server, png) = try Self.server()
            let folder = TemporaryFolder(prefix: "gallery-save")
            let pipeline = ImagePipeline(client: HTTPClient())
            let destination = FileDestination(directory: folder.path, name: "a.png")
            var outcomes: [Result<SavedFile, ImageLoadError>] = []
            var progress: [LoadProgress] = []
            pipeline.saveFile(ImageRequest(url: server.url("/img/a.png"), size: .original), to: destination,
                              progress: { progress.append($0) }) { outcomes.append($0) }
            pipeline.saveFile(ImageRequest(url: server.url("/img/a.png"), size: .original, priority: .interactive),
                              to: destination) { outcomes.append($0) }
            XCTAssertTrue(iterateMainLoop(until: { outcomes.count == 2 }, timeout: 60))
            for outcome in outcomes { XCTAssertEqual(try outcome.get(), SavedFile(resumed: false, fromHeldOriginal: false, name: "a.png")) }
            XCTAssertEqual(server.requestCount, 1, "one download for both")
            XCTAssertEqual(folder.names(), ["a.png"], "no partial file left")
            XCTAssertEqual(folder.contents("a.png"), png)
            XCTAssertEqual(progress.first, LoadProgress(receivedBytes: 0, expectedBytes: png.count), "the length, once accepted")
            XCTAssertEqual(progress.last, LoadProgress(receivedBytes: png.count, expectedBytes: png.count))
            XCTAssertEqual(pipeline.unfinishedTaskCount, 0)
        }
    }

    /// Saves and image downloads share the per-host slots, and a save still waiting for one gives it up.
    func testSavesWaitForTheSameHostSlotsAsImagesAndLeaveTheQueueWhenCancelled() throws {
        try MainActor.assumeIsolated {
            let server = try TestHTTPServer()
            server.route("/slow/*") { _ in TestResponse.bytes([1, 2, 3], contentType: "image/png").delayed(milliseconds: 300) }
            let folder = TemporaryFolder(prefix: "gallery-save")
            let pipeline = ImagePipeline(client: HTTPClient())
            let cap = pipeline.maxConnectionsPerHost
            var tasks: [ImageTask] = []
            for index in 0..<cap {
                tasks.append(pipeline.loadImage(ImageRequest(url: server.url("/slow/\(index).png"), size: .fitting(96))) { _ in })
            }
            XCTAssertEqual(pipeline.activeFetchCount, cap)
            let save = pipeline.saveFile(ImageRequest(url: server.url("/slow/file.png"), size: .original),
                                         to: FileDestination(directory: folder.path, name: "file.png")) { _ in XCTFail("cancelled") }
            XCTAssertTrue(save.isWaitingForConnection, "behind the images on the same host")
            XCTAssertEqual(pipeline.waitingFetchCount, 1)
            save.cancel()
            XCTAssertEqual(pipeline.waitingFetchCount, 0)
            tasks.forEach { $0.cancel() }
            // The slots are free again, and a save asked for afterwards has gone out and come back: had the
            // cancelled save kept its place in the queue, it would have gone out before it.
            XCTAssertTrue(iterateMainLoop(until: { pipeline.activeFetchCount == 0 && pipeline.waitingFetchCount == 0 },
                                          timeout: 60))
            var probed = false
            let probeFolder = TemporaryFolder(prefix: "gallery-save")
            _ = pipeline.saveFile(ImageRequest(url: server.url("/slow/probe.png"), size: .original),
                                  to: FileDestination(directory: probeFolder.path, name: "probe.png")) { _ in probed = true }
            XCTAssertTrue(iterateMainLoop(until: { probed }, timeout: 60))
            XCTAssertTrue(server.requestLog.contains("/slow/probe.png"))
            XCTAssertFalse(server.requestLog.contains("/slow/file.png"), "never sent")
            XCTAssertEqual(folder.names(), [])
        }
    }
}
