import GObjectBindings
import GalleryDemoServer
import GalleryHostileServer
import TestSupport
import XCTest
@testable import GalleryCore

/// The header checks that decide, before any decoder runs, what an image is and what decoding it would cost.
final class ImageHeaderTests: GLibTestCase {
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
                               ("animated.webp", .webp), ("small.avif", .avif), ("alpha.avif", .avif),
                               ("rotated.avif", .avif)] {
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
        let webp = try Self.fixture("animated.webp")
        XCTAssertEqual(webp.frames, 2)
        XCTAssertEqual(webp.framePixels, 2 * 12 * 8, "each frame decoded onto a canvas of its own")
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
                     "lossless.webp", "animated.webp", "small.avif", "alpha.avif", "rotated.avif"] {
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

    // MARK: AVIF

    func testAVIFsSizeIsItsPrimaryItemsSpatialExtent() throws {
        let alpha = try Self.fixture("alpha.avif")
        XCTAssertEqual([alpha.width, alpha.height, alpha.frames], [12, 8, 1])
        XCTAssertGreaterThanOrEqual(alpha.framePixels, 12 * 8, "the colour image, and the alpha plane beside it")
        // The primary item is found through pitm and ipma, not by taking the first ispe: a file whose first
        // property is a thumbnail's extent still reports its image's.
        let primaryFirst = Self.avif(properties: [("ispe", Self.extent(40, 30)), ("ispe", Self.extent(4000, 3000))],
                                     primary: 1, associations: [(1, [2]), (2, [1])])
        XCTAssertEqual(try Self.probe(primaryFirst).get().width, 4000)
        XCTAssertEqual(try Self.probe(primaryFirst).get().framePixels, 40 * 30 + 4000 * 3000)
        // 32-bit item ids (pitm version 1) and 15-bit property numbers (ipma flag 1).
        let wide = Self.avif(properties: [("ispe", Self.extent(640, 480))], primary: 70_000,
                             associations: [(70_000, [1])], wideIDs: true, wideIndexes: true)
        XCTAssertEqual(try Self.probe(wide).get().width, 640)
    }

    func testOtherISOMediaFilesAreNamedNotProbed() {
        XCTAssertEqual(Self.probe(Fixtures.bytes("images/animated.avif")), .failure(.unsupported("animated AVIF")))
        let heic = Self.fileType("heic", compatible: ["mif1", "heic"]) + [0, 0, 0, 8] + Array("mdat".utf8)
        XCTAssertEqual(Self.probe(heic), .failure(.unsupported("HEIF")))
        let mp4 = Self.fileType("isom", compatible: ["isom", "mp41"]) + [0, 0, 0, 8] + Array("moov".utf8)
        XCTAssertEqual(Self.probe(mp4), .failure(.unsupported("MP4 video")))
    }

    func testHostileAVIFStructuresAreMalformedNotWalkedForever() {
        let ispe = [("ispe", Self.extent(10, 10))]
        // A primary item without a size, or a size of zero.
        XCTAssertEqual(Self.probe(Self.avif(properties: ispe, primary: 2, associations: [(1, [1])])),
                       .failure(.malformed("AVIF with broken image properties")))
        XCTAssertEqual(Self.probe(Self.avif(properties: [("av1C", [0x81, 0, 0, 0])], primary: 1, associations: [(1, [1])])),
                       .failure(.malformed("AVIF without a size for its image")))
        XCTAssertEqual(Self.probe(Self.avif(properties: [("ispe", Self.extent(0, 10))], primary: 1, associations: [(1, [1])])),
                       .failure(.malformed("AVIF with an impossible size")))
        // Property numbers past the end of ipco, and 0 ("none").
        XCTAssertEqual(Self.probe(Self.avif(properties: ispe, primary: 1, associations: [(1, [0, 9])])),
                       .failure(.malformed("AVIF without a size for its image")))
        // A box whose size runs past its container, or is smaller than its own header.
        var overlong = Self.avif(properties: ispe, primary: 1, associations: [(1, [1])])
        let ipco = Self.offset(of: "ipco", in: overlong) - 4
        overlong.replaceSubrange(ipco..<(ipco + 4), with: Self.bigEndian32(100_000))
        XCTAssertEqual(Self.probe(overlong), .failure(.malformed("AVIF with broken image properties")))
        var tiny = Self.avif(properties: ispe, primary: 1, associations: [(1, [1])])
        tiny.replaceSubrange(ipco..<(ipco + 4), with: Self.bigEndian32(3))
        XCTAssertEqual(Self.probe(tiny), .failure(.malformed("AVIF with broken image properties")))
        // Thousands of empty boxes: the walk stops at its cap.
        let flood = Array(repeating: ("free", [UInt8]()), count: 5000) + ispe
        XCTAssertEqual(Self.probe(Self.avif(properties: flood, primary: 1, associations: [(1, [5001])], wideIndexes: true)),
                       .failure(.malformed("AVIF with broken image properties")))
        let topLevel = Self.fileType("avif", compatible: ["avif", "mif1"])
            + Array(repeating: [0, 0, 0, 8] + Array("free".utf8), count: 5000).joined()
        XCTAssertEqual(Self.probe(Array(topLevel)), .failure(.malformed("AVIF with too many boxes")))
        // An entry count of four billion in ipma ends with the box, not after four billion turns.
        var endless = Self.avif(properties: ispe, primary: 9, associations: [(1, [1])])
        let ipma = Self.offset(of: "ipma", in: endless) + 8
        endless.replaceSubrange(ipma..<(ipma + 4), with: [0xFF, 0xFF, 0xFF, 0xFF])
        XCTAssertEqual(Self.probe(endless), .failure(.malformed("AVIF with broken image properties")))
    }

    func testAVIFBombsAreSeenForWhatTheyAre() throws {
        try MainActor.assumeIsolated {
            let bomb = try Self.probe(HostileImages.avifBomb).get()
            XCTAssertEqual([bomb.width, bomb.height], [16000, 16000])
            XCTAssertFalse(bomb.fits(ImageDecodeLimits(), maxPixelSize: 96))
            let frames = try Self.probe(HostileImages.webpFramesBomb).get()
            XCTAssertEqual([frames.width, frames.height, frames.frames], [4000, 4000, 20])
            XCTAssertEqual(frames.framePixels, 20 * 4000 * 4000, "1 × 1 frames, each decoded onto the whole canvas")
            XCTAssertFalse(frames.fits(ImageDecodeLimits(), maxPixelSize: 96))
        }
    }

    // MARK: Building ISO media files

    private static func box(_ type: String, _ content: [UInt8]) -> [UInt8] {
        Self.bigEndian32(8 + content.count) + Array(type.utf8) + content
    }

    private static func fileType(_ major: String, compatible: [String]) -> [UInt8] {
        box("ftyp", Array(major.utf8) + [0, 0, 0, 0] + compatible.flatMap { Array($0.utf8) })
    }

    private static func extent(_ width: Int, _ height: Int) -> [UInt8] {
        [0, 0, 0, 0] + Self.bigEndian32(width) + Self.bigEndian32(height)
    }

    /// ftyp, then meta with pitm and iprp (ipco holding `properties`, ipma `associations`), then an empty mdat.
    private static func avif(properties: [(String, [UInt8])], primary: Int, associations: [(Int, [Int])],
                             wideIDs: Bool = false, wideIndexes: Bool = false) -> [UInt8] {
        let id: (Int) -> [UInt8] = { wideIDs ? Self.bigEndian32($0) : Self.bigEndian16($0) }
        let pitm = box("pitm", [wideIDs ? 1 : 0, 0, 0, 0] + id(primary))
        let ipco = box("ipco", properties.flatMap { box($0.0, $0.1) })
        var ipma = [wideIDs ? 1 : 0, 0, 0, wideIndexes ? 1 : 0] + Self.bigEndian32(associations.count)
        for (item, indexes) in associations {
            ipma += id(item) + [UInt8(indexes.count)]
            ipma += indexes.flatMap { wideIndexes ? Self.bigEndian16($0) : [UInt8($0)] }
        }
        let meta = box("meta", [0, 0, 0, 0] + pitm + box("iprp", ipco + box("ipma", ipma)))
        return fileType("avif", compatible: ["avif", "mif1", "miaf"]) + meta + box("mdat", [])
    }

    private static func bigEndian32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }
    private static func bigEndian16(_ value: Int) -> [UInt8] { [UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)] }

    private static func offset(of type: String, in bytes: [UInt8]) -> Int {
        let needle = Array(type.utf8)
        return (0...(bytes.count - 4)).first { Array(bytes[$0..<($0 + 4)]) == needle }!
    }

    // MARK: Other formats

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
