import XCTest
@testable import GalleryUI

/// The large view's geometry without a window: fit, zoom around a point, edges.
final class ImageViewportTests: XCTestCase {
    private func photo() -> ImageViewport {
        var viewport = ImageViewport(imageWidth: 4000, imageHeight: 2667)
        viewport.resize(width: 760, height: 674, deviceScale: 1)
        return viewport
    }

    func testFitShowsTheWholeImageCentredAndNeverEnlargesASmallOne() {
        let viewport = photo()
        XCTAssertTrue(viewport.isFit)
        XCTAssertEqual(viewport.zoom, 736.0 / 4000, accuracy: 1e-9)
        XCTAssertEqual(viewport.offsetX, 12)
        XCTAssertEqual(viewport.offsetY, ((674 - 2667 * 736.0 / 4000) / 2).rounded())
        var small = ImageViewport(imageWidth: 200, imageHeight: 100)
        small.resize(width: 760, height: 674, deviceScale: 1)
        XCTAssertEqual(small.zoom, 1, "a small image stays at 100 %")
        var placeholder = ImageViewport(imageWidth: 200, imageHeight: 100)
        placeholder.capsFitAtRealSize = false
        placeholder.resize(width: 760, height: 674, deviceScale: 2)
        XCTAssertEqual(placeholder.shownWidth, 736, accuracy: 1e-9, "a placeholder is stretched to fit")
    }

    func testZoomKeepsThePointUnderTheAnchorAndEdgesCoverTheView() {
        var viewport = photo()
        let point = viewport.imagePoint(at: (200, 300))
        viewport.setZoom(1, around: (200, 300))
        XCTAssertFalse(viewport.isFit)
        XCTAssertEqual(viewport.imagePoint(at: (200, 300)).x, point.x, accuracy: 1e-6)
        XCTAssertEqual(viewport.imagePoint(at: (200, 300)).y, point.y, accuracy: 1e-6)
        viewport.pan(dx: 10_000, dy: 10_000)
        XCTAssertEqual(viewport.offsetX, 0, "no empty band at the left edge")
        XCTAssertEqual(viewport.offsetY, 0)
        viewport.pan(dx: -10_000, dy: -10_000)
        XCTAssertEqual(viewport.offsetX, 760 - 4000)
        XCTAssertEqual(viewport.offsetY, 674 - 2667)
        XCTAssertTrue(viewport.isZoomedIn)
        viewport.setZoom(0.01, around: nil)
        XCTAssertTrue(viewport.isFit, "zooming out below fit is fit")
    }

    /// An animation's frames go through zooms at which the image is smaller than the view and is centred;
    /// holding the start's image point at the anchor makes the end the same however many frames there were.
    func testWhereAZoomEndsDoesNotDependOnItsFrames() {
        var stepped = photo()
        let point = stepped.imagePoint(at: (200, 300))
        for frame in 1...30 {
            let zoom = stepped.fitZoom * pow(1 / stepped.fitZoom, Double(frame) / 30)
            stepped.setZoom(zoom, placing: point, at: (200, 300))
        }
        var direct = photo()
        direct.setZoom(1, around: (200, 300))
        XCTAssertEqual(stepped.offsetX, direct.offsetX, accuracy: 1e-6)
        XCTAssertEqual(stepped.offsetY, direct.offsetY, accuracy: 1e-6)
    }
}
