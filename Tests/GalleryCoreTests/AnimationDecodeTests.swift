import GObjectBindings
import TestSupport
import XCTest
@testable import GalleryCore
@testable import GalleryDemoServer

/// Animated GIF and WebP through the decoder and the pipeline: the layout read beside the header (delays,
/// loops, where the first frame ends), the first frame alone when the whole is over the limits, and the
/// frames a request that plays animations gets, composited by the decoder helper.
final class AnimationDecodeTests: GLibTestCase {
    /// Solid frames of 64 × 48, each its own colour, so a frame is told by any of its pixels.
    static let colours: [UInt32] = [0xff0000ff, 0x00ff00ff, 0x0000ffff, 0xffff00ff]

    static func frames() -> [Pixbuf] {
        colours.map { colour in
            PixbufCanvas(width: 64, height: 48, hasAlpha: false, rgba: colour).finish()
        }
    }

    /// The top-left pixel's red, green and blue, each 0 or 255 (lossy WebP is off by one here and there).
    static func corner(_ pixbuf: Pixbuf) -> [UInt8] {
        pixbuf.withUnsafePixels { pixels, _, _ in (0..<3).map { pixels[$0] > 127 ? 255 : 0 } }
    }

    static func colour(_ index: Int) -> [UInt8] {
        let value = colours[index]
        return [UInt8(value >> 24), UInt8((value >> 16) & 0xff), UInt8((value >> 8) & 0xff)]
    }

    @MainActor
    private static func decode(_ bytes: Bytes, maxPixelSize: Int? = nil, keepsAnimation: Bool = false,
                               limits: ImageDecodeLimits = .init()) -> Result<ImageDecoder.Output, ImageLoadError>? {
        var result: Result<ImageDecoder.Output, ImageLoadError>?
        let decoder = ImageDecoder(limits: limits)
        decoder.decode(bytes, maxPixelSize: maxPixelSize, keepsAnimation: keepsAnimation, cancellable: Cancellable()) {
            result = $0
        }
        _ = withExtendedLifetime(decoder) { iterateMainLoop(until: { result != nil }, timeout: 60) }
        return result
    }

    private static func layout(_ bytes: Bytes, maxFrames: Int = 100) -> AnimationLayout? {
        bytes.withUnsafeBytes { buffer in
            guard let header = try? ImageHeader.probe(buffer).get() else { return nil }
            return AnimationLayout.read(buffer, format: header.format, maxFrames: maxFrames)
        }
    }

    /// A GIF89a of 1 × 1 frames with these delays (hundredths) and NETSCAPE loop count (nil: no extension),
    /// on a canvas of `width` × `height`.
    static func gif(delays: [Int], loopCount: Int?, width: Int = 1, height: Int = 1) -> Bytes {
        var bytes = Array("GIF89a".utf8) + [UInt8(width & 0xff), UInt8(width >> 8), UInt8(height & 0xff), UInt8(height >> 8), 0, 0, 0]
        if let loopCount {
            bytes += [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1, UInt8(loopCount & 0xff), UInt8(loopCount >> 8), 0]
        }
        for delay in delays {
            bytes += [0x21, 0xF9, 4, 0, UInt8(delay & 0xff), UInt8(delay >> 8), 0, 0]
            bytes += [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0x80, 0, 0, 0, 255, 255, 255]
            bytes += [2, 2, 0x4C, 0x01, 0]  // clear, index 0, end
        }
        return Bytes(bytes + [0x3B])
    }

    func testTheLayoutHoldsEachFramesDelayAndTheLoopCount() throws {
        let looping = try XCTUnwrap(Self.layout(Self.gif(delays: [0, 1, 2, 5], loopCount: 3)))
        XCTAssertEqual(looping.frameDelays, [0, 10, 20, 50], "hundredths, in milliseconds")
        XCTAssertEqual(looping.plays, 4, "NETSCAPE's count repeats after the first play")
        XCTAssertNil(try XCTUnwrap(Self.layout(Self.gif(delays: [5, 5], loopCount: 0))).plays, "0: forever")
        XCTAssertEqual(try XCTUnwrap(Self.layout(Self.gif(delays: [5, 5], loopCount: nil))).plays, 1,
                       "without the extension a GIF plays once")
        XCTAssertEqual(try XCTUnwrap(Self.layout(Self.gif(delays: [5, 5, 5], loopCount: 0), maxFrames: 2)).frameDelays, [],
                       "more frames than may play: no timing kept")

        let webp = try DemoAnimationEncoder.webp(Self.frames(), quality: 90)
        let webpLayout = try XCTUnwrap(Self.layout(webp))
        XCTAssertEqual(webpLayout.frameDelays, [70, 70, 70, 70])
        XCTAssertNil(webpLayout.plays)
        XCTAssertEqual(webpLayout.firstFramePixels, 64 * 48, "a WebP frame is decoded onto the whole canvas")
    }

    func testFramesOfTenMillisecondsOrLessShowForATenthOfASecondAsInBrowsers() {
        XCTAssertEqual([0, 1, 10, 11, 20, 80].map(AnimationLayout.displayDelay), [100, 100, 100, 11, 20, 80])
    }

    func testTheFirstFrameFileIsAWholeImageOfOneFrame() throws {
        for bytes in [DemoAnimationEncoder.gif(Self.frames()), try DemoAnimationEncoder.webp(Self.frames(), quality: 90)] {
            let layout = try XCTUnwrap(Self.layout(bytes))
            let first = Bytes(try bytes.withUnsafeBytes { layout.firstFrameFile(of: $0, format: try ImageHeader.probe($0).get().format) })
            let header = try first.withUnsafeBytes { try ImageHeader.probe($0).get() }
            XCTAssertEqual([header.width, header.height, header.frames], [64, 48, 1])
            let decoded = try PixbufDecoding.decode(first, loaderType: header.format.loaderName, maxPixelSize: nil,
                                                    cancellable: nil).get()
            XCTAssertEqual(Self.corner(decoded.pixbuf), Self.colour(0))
        }
    }

    func testAnAnimationOverTheLimitsGivesItsFirstFrame() throws {
        try MainActor.assumeIsolated {
            for bytes in [DemoAnimationEncoder.gif(Self.frames()), try DemoAnimationEncoder.webp(Self.frames(), quality: 90)] {
                // Over the frame count, then over the memory the frames take together (one frame fits).
                for limits in [ImageDecodeLimits(maxAnimationFrames: 3), ImageDecodeLimits(maxDecodeBytes: 64 * 48 * 4 * 3)] {
                    let output = try XCTUnwrap(Self.decode(bytes, keepsAnimation: true, limits: limits)).get()
                    XCTAssertTrue(output.image.isFirstFrameOnly)
                    XCTAssertEqual(output.image.frameCount, 4)
                    XCTAssertNil(output.animation, "nothing to play")
                    XCTAssertEqual(Self.corner(output.image.pixbuf), Self.colour(0))
                }
                // Not even one frame fits: refused as before.
                let refused = Self.decode(bytes, limits: ImageDecodeLimits(maxDecodeBytes: 64 * 48 * 2))?.failureValue
                XCTAssertEqual(refused, .tooLarge(width: 64, height: 48, frames: 4))
            }
        }
    }

    func testAnAnimationWhoseFramesTogetherAreOverTheBytesAllowedPlaysSmaller() throws {
        try MainActor.assumeIsolated {
            // Ten 1 × 1 frames changing a 400 × 300 canvas: little to decode, but every composited frame is as
            // large as the canvas, and ten of them are over the bytes allowed (three canvases).
            let bytes = Self.gif(delays: Array(repeating: 5, count: 10), loopCount: 0, width: 400, height: 300)
            let limits = ImageDecodeLimits(maxDecodeBytes: 400 * 300 * 4 * 3)
            let output = try XCTUnwrap(Self.decode(bytes, keepsAnimation: true, limits: limits)).get()
            XCTAssertFalse(output.image.isFirstFrameOnly, "it plays")
            let animation = try XCTUnwrap(output.animation)
            XCTAssertEqual(animation.frames.count, 10, "every frame")
            let (width, height) = (output.image.pixbuf.width, output.image.pixbuf.height)
            XCTAssertLessThan(width, 400, "smaller than asked for")
            XCTAssertGreaterThanOrEqual(width * 4, 400, "by a quarter of the side at most")
            XCTAssertEqual(Double(width) / Double(height), 4.0 / 3.0, accuracy: 0.02, "the same shape")
            XCTAssertLessThanOrEqual(width * height * 4 * 10, limits.maxDecodeBytes, "together within the bytes allowed")
            for frame in animation.frames {
                XCTAssertEqual([frame.width, frame.height], [width, height], "scaled as the first frame")
            }
            XCTAssertEqual([output.image.originalWidth, output.image.originalHeight], [400, 300])

            // A hundred of them would have to shrink past a quarter of the side: the first frame shows, still, at
            // the size asked for.
            let many = Self.gif(delays: Array(repeating: 5, count: 100), loopCount: 0, width: 400, height: 300)
            let still = try XCTUnwrap(Self.decode(many, keepsAnimation: true, limits: ImageDecodeLimits(maxDecodeBytes: 1_000_000))).get()
            XCTAssertTrue(still.image.isFirstFrameOnly)
            XCTAssertNil(still.animation)
            XCTAssertEqual([still.image.pixbuf.width, still.image.pixbuf.height], [400, 300])
        }
    }

    func testAKeptAnimationGivesEveryFrameOfOnePlayInOrder() throws {
        try MainActor.assumeIsolated {
            for bytes in [DemoAnimationEncoder.gif(Self.frames()), try DemoAnimationEncoder.webp(Self.frames(), quality: 90)] {
                let output = try XCTUnwrap(Self.decode(bytes, maxPixelSize: 32, keepsAnimation: true)).get()
                XCTAssertFalse(output.image.isFirstFrameOnly)
                XCTAssertEqual([output.image.pixbuf.width, output.image.pixbuf.height], [32, 24])
                let animation = try XCTUnwrap(output.animation)
                XCTAssertEqual(animation.frameCount, 4)
                XCTAssertEqual(animation.frames.count, 4, "one play, every frame")
                for frame in animation.frames {
                    XCTAssertEqual([frame.width, frame.height], [32, 24], "scaled as the first frame")
                }
                XCTAssertEqual(animation.frames.map(Self.corner), (0..<4).map(Self.colour), "each frame once, in order")
                XCTAssertEqual(animation.frameDelays, Self.layout(bytes)?.frameDelays, "the file's delays, one a frame")
                XCTAssertEqual(Self.corner(output.image.pixbuf), Self.colour(0),
                               "the first frame handed out is a copy: playing does not change it")
            }
        }
    }

    func testAPlayRequestIsNotAnsweredByTheCachedFirstFrame() throws {
        try MainActor.assumeIsolated {
            let gif = DemoAnimationEncoder.gif(Self.frames()).array
            let server = try TestHTTPServer()
            server.route("/a.gif") { _ in TestResponse.bytes(gif, contentType: "image/gif") }
            let pipeline = ImagePipeline(client: HTTPClient())
            @MainActor func load(_ request: ImageRequest) -> ImageResponse? {
                var result: Result<ImageResponse, ImageLoadError>?
                pipeline.loadImage(request) { result = $0 }
                iterateMainLoop(until: { result != nil }, timeout: 60)
                return try? result?.get()
            }
            let url = server.url("/a.gif")
            let still = try XCTUnwrap(load(ImageRequest(url: url, size: .fitting(400))))
            XCTAssertNil(still.animation, "a request that does not play gets no frames")
            XCTAssertTrue(still.image.isAnimated)
            let played = try XCTUnwrap(load(ImageRequest(url: url, size: .fitting(400), playsAnimation: true)))
            XCTAssertNotNil(played.animation, "decoded again for its frames, not answered by the cached first frame")
            XCTAssertEqual(pipeline.cache.count, 1)
        }
    }
}
