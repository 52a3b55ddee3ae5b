import CGLib
import GObjectBindings
import GalleryDemoServer
import GalleryHostileServer
import TestSupport
import XCTest
@testable import GalleryCore

/// WebP and AVIF through the app's decoder (header probe, limits, the probed format's loader): Debian's
/// webp-pixbuf-loader and libavif-gdk-pixbuf, installed by `make deps`.
final class ModernFormatDecodeTests: GLibTestCase {
    @MainActor
    private static func decode(_ bytes: Bytes, maxPixelSize: Int?,
                               limits: ImageDecodeLimits = .init()) -> Result<DecodedPixbuf, ImageLoadError>? {
        var result: Result<DecodedPixbuf, ImageLoadError>?
        let decoder = ImageDecoder(limits: limits)
        decoder.decode(bytes, maxPixelSize: maxPixelSize, cancellable: Cancellable()) { result = $0.map(\.image) }
        // The decoder holds its callbacks weakly: it must live until they ran.
        _ = withExtendedLifetime(decoder) { iterateMainLoop(until: { result != nil }, timeout: 60) }
        return result
    }

    func testTheLoadersAreInstalled() {
        // Without them every WebP and AVIF becomes "Unsupported image format": make deps installs both.
        for (type, package) in [("webp", "webp-pixbuf-loader"), ("avif", "libavif-gdk-pixbuf")] {
            var error: UnsafeMutablePointer<GError>?
            let loader = gdk_pixbuf_loader_new_with_type(type, &error)
            XCTAssertNotNil(loader, "no gdk-pixbuf loader named \(type): install \(package)")
            if let loader {
                gdk_pixbuf_loader_close(loader, nil)
                g_object_unref(UnsafeMutableRawPointer(loader))
            }
            if let error { g_error_free(error) }
        }
    }

    func testWebPStillsAndAnimationsDecodeToTheirThumbnailSize() throws {
        try MainActor.assumeIsolated {
            for name in ["lossy.webp", "lossless.webp", "animated.webp"] {
                let bytes = Fixtures.bytes("images/" + name)
                let full = try XCTUnwrap(Self.decode(bytes, maxPixelSize: nil)).get()
                XCTAssertEqual([full.pixbuf.width, full.pixbuf.height], [12, 8], name)
                let thumbnail = try XCTUnwrap(Self.decode(bytes, maxPixelSize: 6)).get()
                XCTAssertEqual([thumbnail.pixbuf.width, thumbnail.pixbuf.height], [6, 4], "\(name): scaled to fit")
                XCTAssertEqual([thumbnail.originalWidth, thumbnail.originalHeight], [12, 8], name)
            }
        }
    }

    func testAVIFDecodesWithAlphaAndRotation() throws {
        try MainActor.assumeIsolated {
            let small = try XCTUnwrap(Self.decode(Fixtures.bytes("images/small.avif"), maxPixelSize: 6)).get()
            XCTAssertEqual([small.pixbuf.width, small.pixbuf.height], [6, 4])
            XCTAssertEqual([small.originalWidth, small.originalHeight], [12, 8])
            XCTAssertEqual(gdk_pixbuf_get_has_alpha(small.pixbuf.pointer), 0)
            let alpha = try XCTUnwrap(Self.decode(Fixtures.bytes("images/alpha.avif"), maxPixelSize: nil)).get()
            XCTAssertEqual([alpha.pixbuf.width, alpha.pixbuf.height], [12, 8])
            XCTAssertNotEqual(gdk_pixbuf_get_has_alpha(alpha.pixbuf.pointer), 0, "the alpha plane is decoded")
            // irot 90°: stored 12 × 8, shown 8 × 12. The loader reports the size after rotating, which the
            // header's ispe does not say; the decode is not refused for it.
            let rotated = try XCTUnwrap(Self.decode(Fixtures.bytes("images/rotated.avif"), maxPixelSize: nil)).get()
            XCTAssertEqual([rotated.pixbuf.width, rotated.pixbuf.height], [8, 12])
        }
    }

    func testAnAVIFSequenceIsRefusedByName() {
        MainActor.assumeIsolated {
            let result = Self.decode(Fixtures.bytes("images/animated.avif"), maxPixelSize: 96)
            XCTAssertEqual(result.failureValue(), .unsupportedFormat("animated AVIF"))
            XCTAssertEqual(result.failureValue()?.message, "Unsupported image format (animated AVIF)")
        }
    }

    func testBombsInBothFormatsAreRefusedBeforeAnyLoaderRuns() throws {
        try MainActor.assumeIsolated {
            // Twenty frames on a 4000 × 4000 canvas are a bomb together: only the first is decoded.
            let first = Self.decode(HostileImages.webpFramesBomb, maxPixelSize: 96)
            XCTAssertEqual(try first?.get().isFirstFrameOnly, true)
            XCTAssertEqual(try first?.get().frameCount, 20)
            // A canvas over the limit even for one frame is refused before any loader runs.
            XCTAssertEqual(Self.decode(HostileImages.webpFramesBomb, maxPixelSize: 96,
                                       limits: ImageDecodeLimits(maxDecodeBytes: 32 * 1_048_576)).failureValue(),
                           .tooLarge(width: 4000, height: 4000, frames: 20))
            XCTAssertEqual(Self.decode(HostileImages.avifBomb, maxPixelSize: 96).failureValue(),
                           .tooLarge(width: 16000, height: 16000, frames: 1))
            // Within the pixel limit, but over what one decode may cost: an AVIF is decoded whole (11 bytes a
            // pixel), so 4000 × 4000 passes at 160 MiB only as a PNG would, not as an AVIF.
            let tight = ImageDecodeLimits(maxPixels: 100_000_000, maxDecodeBytes: 160 * 1_048_576)
            XCTAssertTrue(ImageHeader(format: .png, width: 4000, height: 4000).fits(tight, maxPixelSize: 96))
            XCTAssertFalse(ImageHeader(format: .avif, width: 4000, height: 4000).fits(tight, maxPixelSize: 96))
        }
    }
}
