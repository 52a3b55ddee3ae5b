import CGLib
import GObjectBindings
import GalleryDemoServer
import GalleryHostileServer
import TestSupport
import XCTest
@testable import GalleryCore

/// The image pipeline against the hostile server: every misbehaving response ends in its own error, in bounded
/// time and memory, and frees its connection slot.
final class HostileImageTests: GLibTestCase {
    /// A client with the knobs turned down so that slow failures come fast: 1 s without data, a 4 KB/s floor
    /// over 2 s windows (longer than the silence timeout, so a stall is told from a drip).
    @MainActor
    private static func pipeline(maxImageBytes: Int = 50 * 1_048_576, decode: ImageDecodeLimits = .init()) -> ImagePipeline {
        let client = HTTPClient(configuration: .init(ioTimeoutSeconds: 1, minimumBytesPerSecond: 4096, throughputWindowSeconds: 2))
        return ImagePipeline(client: client, limits: .init(maxImageBytes: maxImageBytes, decode: decode))
    }

    func testDecompressionBombsAreRefusedFromTheirHeaders() throws {
        try MainActor.assumeIsolated {
            let server = HostileServer()
            try server.start()
            let pipeline = Self.pipeline()
            let expected: [(HostileImage, ImageLoadError, String)] = [
                (.pngBomb, .tooLarge(width: 30000, height: 30000, frames: 1), "Image too large (30000 × 30000)"),
                (.jpegBomb, .tooLarge(width: 60000, height: 60000, frames: 1), "Image too large (60000 × 60000)"),
                (.gifBomb, .tooLarge(width: 30000, height: 30000, frames: 1), "Image too large (30000 × 30000)"),
                (.bmpBomb, .tooLarge(width: 30000, height: 30000, frames: 1), "Image too large (30000 × 30000)"),
                (.avifBomb, .tooLarge(width: 16000, height: 16000, frames: 1), "Image too large (16000 × 16000)"),
            ]
            for (image, error, message) in expected {
                for size in [96, 4096] as [Int?] {  // thumbnails and the large view
                    let failure = loadImage(server.imageURL(image), with: pipeline, maxPixelSize: size).failureValue()
                    XCTAssertEqual(failure, error, "\(image) at \(String(describing: size))")
                    XCTAssertEqual(failure?.message, message)
                }
            }
            // Animations whose frames add up to a bomb, each frame small: the first frame alone is decoded.
            for (image, frames) in [(HostileImage.gifFramesBomb, 200), (.webpFramesBomb, 20)] {
                for size in [96, 4096] as [Int?] {
                    let decoded = try XCTUnwrap(loadImage(server.imageURL(image), with: pipeline, maxPixelSize: size)?.get(),
                                                "\(image) at \(String(describing: size))")
                    XCTAssertTrue(decoded.isFirstFrameOnly, "\(image)")
                    XCTAssertEqual(decoded.frameCount, frames)
                }
            }
            XCTAssertEqual(pipeline.decoder.bytesInUse, 0)
            XCTAssertNotNil(try loadImage(server.imageURL(.octetStream), with: pipeline)?.get(),
                            "a valid image sent as octet-stream loads: the bytes decide")
        }
    }

    func testTheLoaderThatRunsIsTheOneWhoseHeaderWasChecked() throws {
        // A PNG signature with a JPEG inside: sniffing would pick gdk-pixbuf's JPEG loader, whose header was
        // never checked. The PNG loader (the format probed) refuses the data instead.
        let jpeg = try Pixbuf.filled(width: 8, height: 8, rgba: 0xff0000ff).encoded(as: "jpeg").array
        var png = try pngHeaderOnly()
        png += jpeg
        let decoded = PixbufDecoding.decode(Bytes(png), loaderType: "png", maxPixelSize: 96, expectedSize: (8, 8),
                                            maxPixels: 100, cancellable: nil)
        guard case .failure(.failed) = decoded else { return XCTFail("\(decoded)") }
    }

    func testTheLoaderMustSeeTheSizeTheHeaderDeclared() throws {
        let png = try Pixbuf.filled(width: 800, height: 400, rgba: 0x336699ff).encoded(as: "png")
        XCTAssertEqual(PixbufDecoding.decode(png, loaderType: "png", maxPixelSize: 96, expectedSize: (80, 40),
                                             cancellable: nil).failureValue, .refused(width: 800, height: 400),
                       "a size other than the one probed stops the loader in size-prepared")
        XCTAssertEqual(PixbufDecoding.decode(png, loaderType: "png", maxPixelSize: 96, maxPixels: 1000,
                                             cancellable: nil).failureValue, .refused(width: 800, height: 400))
        XCTAssertNotNil(try PixbufDecoding.decode(png, loaderType: "png", maxPixelSize: 96, expectedSize: (800, 400),
                                                  maxPixels: 320_000, cancellable: nil).get())
        XCTAssertEqual(PixbufDecoding.decode(png, loaderType: "no-such-format", maxPixelSize: 96, cancellable: nil).failureValue,
                       .noLoader("no-such-format"))
    }

    func testDecodesWaitForMemoryWhenTogetherTheyWouldCostTooMuch() throws {
        try MainActor.assumeIsolated {
            let server = try TestHTTPServer()
            let png = try Pixbuf.filled(width: 1000, height: 1000, rgba: 0x336699ff).encoded(as: "png").array
            server.route("/img/*") { _ in .bytes(png, contentType: "image/png") }
            // Room for one 4 MB decode at a time.
            let pipeline = Self.pipeline(decode: .init(maxDecodeBytes: 5 * 1_048_576, concurrentDecodeBytes: 5 * 1_048_576))
            var done = 0
            var most = 0
            for index in 0..<6 {
                pipeline.loadImage(ImageRequest(url: server.url("/img/\(index).png"), size: .fitting(96))) { _ in done += 1 }
            }
            iterateMainLoop(until: {
                most = max(most, pipeline.decoder.bytesInUse)
                return done == 6
            }, timeout: 60)
            XCTAssertEqual(done, 6)
            XCTAssertGreaterThan(most, 0)
            XCTAssertLessThanOrEqual(most, 5 * 1_048_576, "never two at once")
        }
    }

    func testOddURLsFailAtOnceButNeverBeforeLoadReturns() {
        MainActor.assumeIsolated {
            let pipeline = Self.pipeline()
            for url in ["/img/a.jpg", "data:image/png;base64,AA", "javascript:alert(1)", "ftp://127.0.0.1/a.png",
                        "http://[::1", "", "file:///etc/passwd"] {
                var result: Result<ImageResponse, ImageLoadError>?
                let task = pipeline.loadImage(ImageRequest(url: url, size: .fitting(96))) { result = $0 }
                XCTAssertNil(result, "\(url): completed inside loadImage, before its caller could look")
                XCTAssertTrue(task.isPending)
                XCTAssertTrue(iterateMainLoop(until: { result != nil }, timeout: 60), "\(url) never completed")
                XCTAssertEqual(result.failureValue(), .http(.notAWebAddress), url)
                XCTAssertEqual(result.failureValue()?.message, "Not a web address")
            }
            XCTAssertEqual(pipeline.unfinishedTaskCount, 0, "no job left behind")
            XCTAssertEqual(pipeline.activeFetchCount, 0, "no connection slot held")
        }
    }

    func testTransportAbusesEachEndInTheirOwnError() throws {
        try MainActor.assumeIsolated {
            let server = HostileServer()
            try server.start()
            let pipeline = Self.pipeline()
            let expected: [(HostileImage, ImageLoadError)] = [
                (.notFound, .http(.status(404, "Not Found"))),
                (.serverError, .http(.status(500, "Internal Server Error"))),
                (.forbidden, .http(.status(403, "Forbidden"))),
                (.tooManyRequests, .http(.status(429, "Too Many Requests"))),
                (.tooManyRequestsRetryNow, .http(.status(429, "Too Many Requests"))),
                (.html, .http(.notAnImage(mediaType: "text/html"))),
                (.truncated, .http(.connectionClosedEarly)),
                (.hugeBody, .http(.tooLarge(limitBytes: 50 * 1_048_576))),
                (.hugeChunkedBody, .http(.tooLarge(limitBytes: 50 * 1_048_576))),
                (.gzipBomb, .http(.tooLarge(limitBytes: 50 * 1_048_576))),
                (.stall, .http(.timedOut(seconds: 1))),
                (.drip, .http(.tooSlow(minimumBytesPerSecond: 4096))),
            ]
            // Each ends in the error of the limit that stopped it (the stall by the watchdog, the drip by the
            // minimum rate): the server would go on for ever, so only that limit can have ended it.
            for (image, error) in expected {
                XCTAssertEqual(loadImage(server.imageURL(image), with: pipeline, timeout: 120).failureValue(), error, "\(image)")
            }
            for image in [HostileImage.corrupt, .empty, .redirectLoop, .redirectToFile, .reset] {
                let failure = loadImage(server.imageURL(image), with: pipeline).failureValue()
                XCTAssertNotNil(failure, "\(image) loaded")
                XCTAssertFalse(failure?.message.isEmpty ?? true)
            }
            XCTAssertEqual(pipeline.unfinishedTaskCount, 0)
            XCTAssertEqual(pipeline.activeFetchCount, 0, "every slot was freed")
            XCTAssertTrue(iterateMainLoop(until: { server.responsesInFlight == 0 }, timeout: 60),
                          "the client hung up on every endless body")
        }
    }
}

/// The first 33 bytes of a PNG (signature and an 8 × 8 IHDR), with nothing after them.
private func pngHeaderOnly() throws -> [UInt8] {
    Array(try Pixbuf.filled(width: 8, height: 8, rgba: 0).encoded(as: "png").array.prefix(33))
}
