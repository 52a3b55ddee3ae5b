import GObjectBindings
import GalleryDemoServer
import GalleryHostileServer
import TestSupport
import XCTest
@testable import GalleryCore

/// The header checks that decide, before any decoder runs, what an image is and what decoding it would cost.
final class ImageHeaderTests: XCTestCase {
    private static func probe(_ bytes: Bytes) -> Result<ImageHeader, ImageProbeError> {
        bytes.withUnsafeBytes { ImageHeader.probe($0) }
    }

    private static func probe(_ bytes: [UInt8]) -> Result<ImageHeader, ImageProbeError> {
        bytes.withUnsafeBytes { ImageHeader.probe($0) }
    }

    private static func fixture(_ name: String) throws -> ImageHeader {
        try probe(Fixtures.bytes("images/" + name)).get()
    }

    func testEveryFormatItDecodesIsReadFromItsHeader() throws {
        for (name, format) in [("small.png", ImageFormat.png), ("small.jpg", .jpeg), ("animated.gif", .gif),
                               ("small.bmp", .bmp), ("lossy.webp", .webp), ("lossless.webp", .webp),
                               ("animated.webp", .webp)] {
            let header = try Self.fixture(name)
            XCTAssertEqual(header.format, format, name)
            XCTAssertEqual(header.width, 12, name)
            XCTAssertEqual(header.height, 8, name)
        }
        XCTAssertFalse(try Self.fixture("small.jpg").isProgressive)
        XCTAssertTrue(try Self.fixture("progressive.jpg").isProgressive)
        let gif = try Self.fixture("animated.gif")
        XCTAssertEqual(gif.frames, 3)
        XCTAssertEqual(gif.framePixels, 12 * 8 * 2 + 6 * 4)
        XCTAssertEqual(try Self.fixture("animated.webp").frames, 2)
        XCTAssertEqual(try Self.fixture("small.svg").format, .svg)
    }

    func testFormatsWithoutAHeaderCheckAreRefusedByName() {
        XCTAssertEqual(Self.probe(Fixtures.bytes("images/small.tiff")), .failure(.unsupported("TIFF")))
        XCTAssertEqual(Self.probe(Array("<html><body>no</body></html>".utf8)), .failure(.unknown))
        XCTAssertEqual(Self.probe([UInt8]()), .failure(.unknown))
        XCTAssertEqual(Self.probe([0x00, 0x00, 0x01, 0x00, 0x01, 0x00]), .failure(.unsupported("ICO")))
    }

    func testCutOffAndContradictoryHeadersAreMalformed() throws {
        for name in ["small.png", "small.jpg", "progressive.jpg", "animated.gif", "small.bmp", "lossy.webp",
                     "lossless.webp", "animated.webp"] {
            let bytes = Fixtures.bytes("images/" + name).array
            // Cut anywhere: an error, or the true size once the size fields are in — never a size made up.
            for length in 0..<bytes.count {
                if case .success(let header) = Self.probe(Array(bytes.prefix(length))),
                   header.width != 12 || header.height != 8 {
                    XCTFail("\(name) cut at \(length) passed as \(header)")
                }
            }
        }
        var zeroWidth = Fixtures.bytes("images/small.png").array
        zeroWidth.replaceSubrange(16..<20, with: [0, 0, 0, 0])
        XCTAssertEqual(Self.probe(zeroWidth), .failure(.malformed("PNG with an impossible size")))
        var sosFirst = Array(Fixtures.bytes("images/small.jpg").array.prefix(2)) + [0xFF, 0xDA, 0x00, 0x02]
        sosFirst += [0xFF, 0xD9]
        XCTAssertEqual(Self.probe(sosFirst), .failure(.malformed("JPEG without a frame header")))
    }

    func testTopDownBitmapsHaveAPositiveHeight() throws {
        var bytes = Fixtures.bytes("images/small.bmp").array
        bytes.replaceSubrange(22..<26, with: [0xF8, 0xFF, 0xFF, 0xFF])  // height -8: rows stored top to bottom
        let header = try Self.probe(bytes).get()
        XCTAssertEqual(header.height, 8)
    }

    func testDecompressionBombsAreSeenForWhatTheyAre() throws {
        try MainActor.assumeIsolated {
            let limits = ImageDecodeLimits()
            let png = try Self.probe(HostileImages.pngBomb).get()
            XCTAssertEqual([png.width, png.height], [30000, 30000])
            XCTAssertFalse(png.fits(limits, maxPixelSize: 96), "900 MP is over the pixel limit whatever the target")
            let jpeg = try Self.probe(HostileImages.jpegBomb).get()
            XCTAssertEqual([jpeg.width, jpeg.height], [60000, 60000])
            XCTAssertFalse(jpeg.fits(limits, maxPixelSize: 96))
            let frames = try Self.probe(HostileImages.gifFramesBomb).get()
            XCTAssertEqual(frames.frames, 200)
            XCTAssertEqual(frames.framePixels, 200_000_000)
            XCTAssertFalse(frames.fits(limits, maxPixelSize: 96), "each frame is small; together they are not")
            let bmp = try Self.probe(HostileImages.bmpBomb).get()
            XCTAssertFalse(bmp.fits(limits, maxPixelSize: 96))
            XCTAssertTrue(try Self.probe(HostileImages.small).get().fits(limits, maxPixelSize: nil))
        }
    }

    func testWhatADecodeCostsFollowsEachLoader() {
        let mebibyte = 1_048_576
        // PNG decodes at full size: a 40 MP PNG costs 160 MB whatever the target, the limit's edge.
        let png = ImageHeader(format: .png, width: 8000, height: 5000)
        XCTAssertEqual(png.decodeBytes(maxPixelSize: 96) / mebibyte, 152)
        XCTAssertTrue(png.fits(ImageDecodeLimits(), maxPixelSize: 96))
        XCTAssertFalse(ImageHeader(format: .png, width: 8000, height: 6000).fits(ImageDecodeLimits(), maxPixelSize: 96))
        // JPEG shrinks by up to 8 while decoding: the same size costs an eighth squared for a thumbnail...
        let jpeg = ImageHeader(format: .jpeg, width: 8000, height: 5000)
        XCTAssertEqual(jpeg.decodeBytes(maxPixelSize: 96), 1000 * 625 * 4 + 96 * 60 * 4)
        // ...and a quarter for a 1920 px screen (2000 px still covers 1920; 1000 would not).
        XCTAssertEqual(jpeg.decodeBytes(maxPixelSize: 1920), 2000 * 1250 * 4 + 1920 * 1200 * 4)
        // A progressive JPEG keeps every coefficient while decoding.
        let progressive = ImageHeader(format: .jpeg, width: 8000, height: 5000, isProgressive: true, components: 3)
        XCTAssertEqual(progressive.decodeBytes(maxPixelSize: 96) - jpeg.decodeBytes(maxPixelSize: 96), 8000 * 5000 * 6)
        // A vector image costs its target size only.
        XCTAssertEqual(ImageHeader(format: .svg, width: 0, height: 0).decodeBytes(maxPixelSize: 100), 100 * 100 * 4)
        // Sizes a header can claim do not overflow into a small number.
        let absurd = ImageHeader(format: .png, width: 0x7FFF_FFFF, height: 0x7FFF_FFFF)
        XCTAssertEqual(absurd.decodeBytes(maxPixelSize: nil), Int.max)
    }
}
