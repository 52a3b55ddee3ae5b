import XCTest
import GObjectBindings
import GalleryDemoServer
import TestSupport
@testable import GalleryCore

/// The image pipeline against the real demo server on 127.0.0.1: real HTTP, real bytes, real decoding.
final class ImagePipelineTests: GLibTestCase {
    @MainActor
    private static func item(_ server: DemoServer, _ user: String, _ index: Int) -> DemoItem {
        server.catalog.user(named: user)!.items[index - 1]
    }

    func testDecodesAtThumbnailSizeAndReportsTheOriginalSize() throws {
        try MainActor.assumeIsolated {
            let server = try startDemoServer()
            let pipeline = ImagePipeline(client: HTTPClient())
            let big = Self.item(server, "aurora", 1)
            let image = try XCTUnwrap(loadImage(server.baseURL + big.imagePath(), with: pipeline)).get()
            XCTAssertEqual(max(image.pixbuf.width, image.pixbuf.height), 96, "downsampled while decoding")
            XCTAssertEqual(image.originalWidth, big.width)
            XCTAssertEqual(image.originalHeight, big.height)
            XCTAssertNotNil(pipeline.cache.image(for: .init(url: server.baseURL + big.imagePath(), maxPixelSize: 96)))
        }
    }

    /// Fetches are coalesced per URL, so every request waiting for it hears the download's progress; a request
    /// may keep the original bytes, and keep its result out of the memory cache.
    func testEveryRequestOfACoalescedFetchHearsItsProgressAndMayKeepTheOriginal() throws {
        try MainActor.assumeIsolated {
            let server = try startDemoServer(.init(bandwidthBytesPerSecond: 4_000_000))
            let pipeline = ImagePipeline(client: HTTPClient())
            let url = server.baseURL + Self.item(server, "aurora", 1).imagePath()
            var progress: [[LoadProgress]] = [[], []]
            var originals: [Int] = []
            var done = 0
            var thumbnailOriginal: ImageOriginal?
            pipeline.loadImage(ImageRequest(url: url, size: .fitting(96)), progress: { progress[0].append($0) }) {
                thumbnailOriginal = try? $0.get().original
                done += 1
            }
            let large = ImageRequest(url: url, size: .fitting(640), cachePolicy: [.readMemory, .disk], keepsOriginal: true,
                                     priority: .interactive)
            pipeline.loadImage(large, progress: { progress[1].append($0) }) { result in
                if let original = try? result.get().original { originals.append(original.byteCount) }
                done += 1
            }
            XCTAssertTrue(iterateMainLoop(until: { done == 2 }, timeout: 60))
            XCTAssertEqual(server.requestLog.filter { $0.contains("/images/") }.count, 1, "one download for both")
            for heard in progress {
                XCTAssertGreaterThan(heard.count, 2, "chunk by chunk")
                XCTAssertEqual(heard.map(\.receivedBytes), heard.map(\.receivedBytes).sorted())
                let last = try XCTUnwrap(heard.last)
                XCTAssertEqual(last.receivedBytes, try XCTUnwrap(last.expectedBytes), "all of the declared length")
                XCTAssertEqual(last.fraction, 1)
            }
            XCTAssertEqual(originals, [progress[1].last?.receivedBytes ?? -1], "the original, once")
            XCTAssertNil(thumbnailOriginal, "only for the request that keeps it")
            XCTAssertNotNil(pipeline.cache.image(for: .init(url: url, maxPixelSize: 96)))
            XCTAssertNil(pipeline.cache.image(for: .init(url: url, maxPixelSize: 640)), "kept out of the cache")
        }
    }

    func testFailuresCarryTheirReason() throws {
        try MainActor.assumeIsolated {
            let server = try startDemoServer()
            let pipeline = ImagePipeline(client: HTTPClient())
            let path = server.baseURL + Self.item(server, "aurora", 2).imagePath()
            let expectations: [(String, (ImageLoadError) -> Bool, String)] = [
                ("404", { $0 == .http(.status(404, "Not Found")) }, "HTTP 404 Not Found"),
                ("500", { $0 == .http(.status(500, "Internal Server Error")) }, "HTTP 500 Internal Server Error"),
                ("html", { $0 == .http(.notAnImage(mediaType: "text/html")) }, "Not an image (text/html)"),
                ("truncate", { $0 == .http(.connectionClosedEarly) }, "Download cut off (connection closed early)"),
                ("corrupt", { if case .decode = $0 { true } else { false } }, "Not a readable image"),
            ]
            for (fault, matches, message) in expectations {
                let result = loadImage("\(path)?fault=\(fault)", with: pipeline)
                guard case .failure(let error)? = result else { XCTFail("\(fault): \(String(describing: result))"); continue }
                XCTAssertTrue(matches(error), "\(fault): \(error)")
                XCTAssertTrue(error.message.hasPrefix(message), "\(fault): \(error.message)")
            }
        }
    }

    func testARedirectDeliversTheImageNotTheRedirectBody() throws {
        try MainActor.assumeIsolated {
            let server = try startDemoServer()
            let pipeline = ImagePipeline(client: HTTPClient())
            let target = Self.item(server, "aurora", 2)
            let image = try XCTUnwrap(loadImage(server.baseURL + target.imagePath() + "?fault=redirect", with: pipeline,
                                           maxPixelSize: nil)).get()
            XCTAssertEqual(image.pixbuf.width, target.width)
            XCTAssertEqual(image.pixbuf.height, target.height)
            XCTAssertEqual(server.requestLog.count, 2, "the 302, then the image")
        }
    }

    func testAStalledResponseTimesOut() throws {
        try MainActor.assumeIsolated {
            let server = try startDemoServer()
            let pipeline = ImagePipeline(client: HTTPClient(configuration: .init(ioTimeoutSeconds: 1)))
            let result = loadImage(server.baseURL + Self.item(server, "aurora", 2).imagePath() + "?fault=stall", with: pipeline)
            XCTAssertEqual(result.failureValue(), .http(.timedOut(seconds: 1)))
            XCTAssertEqual(result.failureValue()?.message, "Timed out (no data for 1 s)")
        }
    }

    func testBodiesOverTheLimitAreAbandoned() throws {
        try MainActor.assumeIsolated {
            let server = try startDemoServer()
            let pipeline = ImagePipeline(client: HTTPClient(), limits: .init(maxImageBytes: 20_000))
            let big = server.baseURL + Self.item(server, "aurora", 1).imagePath()
            XCTAssertEqual(loadImage(big, with: pipeline).failureValue(), .http(.tooLarge(limitBytes: 20_000)),
                           "declared by Content-Length")
            // A throttled body is sent chunked, without Content-Length: the limit holds while reading.
            XCTAssertEqual(loadImage(big + "?bandwidth=4000000", with: pipeline).failureValue(),
                           .http(.tooLarge(limitBytes: 20_000)), "counted while reading")
        }
    }

    func testCancellingMidFlightLeavesNothingRunningAndNoLateCallback() throws {
        try MainActor.assumeIsolated {
            let server = try startDemoServer()
            let pipeline = ImagePipeline(client: HTTPClient())
            var calls = 0
            let url = server.baseURL + Self.item(server, "aurora", 1).imagePath() + "?latency=300&bandwidth=200000"
            let task = pipeline.loadImage(ImageRequest(url: url, size: .fitting(96))) { _ in calls += 1 }
            XCTAssertTrue(iterateMainLoop(until: { server.requestCount == 1 }, timeout: 60))
            XCTAssertEqual(pipeline.activeFetchCount, 1)
            task.cancel()
            XCTAssertEqual(pipeline.unfinishedTaskCount, 0, "the job is dropped at once")
            // The transfer is over at both ends, and a whole load of the same image after it has come back: a late
            // callback of the cancelled one would have been delivered by then.
            XCTAssertTrue(iterateMainLoop(until: { server.responsesInFlight == 0 && pipeline.activeFetchCount == 0 },
                                          timeout: 60))
            let plain = server.baseURL + Self.item(server, "aurora", 1).imagePath()
            XCTAssertNotNil(try loadImage(plain, with: pipeline, timeout: 60)?.get())
            XCTAssertEqual(calls, 0, "a cancelled task is never called back")
            XCTAssertEqual(pipeline.activeFetchCount, 0)
            XCTAssertEqual(pipeline.waitingFetchCount, 0)
            XCTAssertFalse(task.isPending)
        }
    }

    func testTheSameURLIsFetchedOnceForEveryoneWhoAsks() throws {
        try MainActor.assumeIsolated {
            let server = try startDemoServer()
            let pipeline = ImagePipeline(client: HTTPClient())
            let url = server.baseURL + Self.item(server, "aurora", 7).imagePath() + "?latency=200"
            var results: [Int] = []
            let record: ImagePipeline.Completion = { if case .success(let r) = $0 { results.append(r.image.pixbuf.height) } }
            pipeline.loadImage(ImageRequest(url: url, size: .fitting(96), priority: .visible), completion: record)
            pipeline.loadImage(ImageRequest(url: url, size: .fitting(96), priority: .offscreen), completion: record)
            pipeline.loadImage(ImageRequest(url: url, size: .fitting(400), priority: .interactive), completion: record)
            let dropped = pipeline.loadImage(ImageRequest(url: url, size: .fitting(96))) { _ in XCTFail("cancelled") }
            dropped.cancel()
            iterateMainLoop(until: { results.count == 3 }, timeout: 60)
            XCTAssertEqual(results.sorted(), [96, 96, 400])
            XCTAssertEqual(server.requestLog.filter { $0.contains(Self.item(server, "aurora", 7).fileName) }.count, 1)
        }
    }

    func testFiftyImagesShareAFewKeepAliveConnections() throws {
        try MainActor.assumeIsolated {
            let server = try startDemoServer()
            let client = HTTPClient()
            let pipeline = ImagePipeline(client: client)
            let items = server.catalog.user(named: "atlas")!.items.prefix(50)
            var done = 0
            var failures: [String] = []
            for item in items {
                pipeline.loadImage(ImageRequest(url: server.baseURL + item.imagePath(thumbnailLongSide: 150), size: .fitting(96))) {
                    if case .failure(let error) = $0 { failures.append(error.message) }
                    done += 1
                }
                XCTAssertLessThanOrEqual(pipeline.activeFetchCount, client.configuration.maxConnectionsPerHost)
            }
            iterateMainLoop(until: { done == 50 }, timeout: 60)
            XCTAssertEqual(done, 50)
            XCTAssertEqual(failures, [])
            XCTAssertEqual(server.requestCount, 50)
            XCTAssertLessThanOrEqual(server.acceptedConnections, client.configuration.maxConnectionsPerHost,
                                     "connections are reused, not one per image")
        }
    }
}
