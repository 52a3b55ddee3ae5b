import CGLib
import CGtk
import GObjectBindings
@_spi(GtkInterop) import GtkBindings
import GalleryCore
import TestSupport
import XCTest
@testable import GalleryUI

/// R and Shift+R turn the large view's picture (not the file), fitted again, as the window paints it: the
/// demo photo's bright sky (its top) ends on the right after a clockwise turn, on the left after a
/// counterclockwise one. The next image starts unturned.
final class RotateTests: GLibTestCase {
    func testRAndShiftRTurnThePictureAsPainted() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            let view = ui.openPhoto()
            XCTAssertEqual(view.quarterTurns, 0)
            let upright = try Self.edges(of: view, in: ui)
            XCTAssertGreaterThan(upright.top, upright.bottom + 0.2, "the photo's sky is brighter than its ground")

            ui.press(GDK_KEY_r)
            XCTAssertEqual(view.quarterTurns, 1)
            let viewport = try XCTUnwrap(view.zoom.viewport)
            XCTAssertEqual(viewport.imageWidth, 2667, "sideways: the width is the photo's height")
            XCTAssertEqual(viewport.imageHeight, 4000)
            XCTAssertTrue(viewport.isFit, "fitted again")
            let clockwise = try Self.edges(of: view, in: ui)
            XCTAssertGreaterThan(clockwise.right, clockwise.left + 0.2, "turned clockwise, the sky is on the right")

            ui.press(GDK_KEY_R, GDK_SHIFT_MASK)
            XCTAssertEqual(view.quarterTurns, 0, "Shift+R turns it back")
            ui.press(GDK_KEY_R, GDK_SHIFT_MASK)
            XCTAssertEqual(view.quarterTurns, 3)
            let counterclockwise = try Self.edges(of: view, in: ui)
            XCTAssertGreaterThan(counterclockwise.left, counterclockwise.right + 0.2, "counterclockwise, the sky is on the left")

            // A rotated view zooms like any other: 100 % and back to fit keep the turn.
            ui.press(GDK_KEY_1)
            XCTAssertTrue(iterateMainLoop(until: { !view.zoom.isFit && !view.zoom.isMoving }, timeout: 60))
            XCTAssertEqual(view.quarterTurns, 3)
            XCTAssertTrue(view.sizeLine.hasSuffix("%"), "the size line says the zoom: \(view.sizeLine)")
            ui.press(GDK_KEY_r)
            XCTAssertEqual(view.quarterTurns, 0)
            XCTAssertTrue(view.zoom.isFit, "a turn fits the picture again")
            XCTAssertEqual(view.sizeLine, "4000 × 2667 pixels", "and the size line says so")

            ui.press(GDK_KEY_Page_Down)
            XCTAssertTrue(iterateMainLoop(until: { view.download?.index == 1 }, timeout: 60))
            XCTAssertEqual(view.quarterTurns, 0, "the next image is shown unturned")
        }
    }

    /// Mean brightness (0–1) of the painted picture's four edge bands, in the window as it is drawn.
    @MainActor
    static func edges(of view: LargeImageView, in ui: UIHarness) throws -> (top: Double, bottom: Double, left: Double, right: Double) {
        XCTAssertTrue(iterateMainLoop(until: { !view.zoom.isMoving }, timeout: 60))
        let viewport = try XCTUnwrap(view.zoom.viewport)
        let rendered = try RenderedWindow(ui.window.window.widget)
        let area = try XCTUnwrap(rendered.rectangle(of: view.canvas.area.widget), "the picture is on screen")
        let left = area.x + Int(viewport.offsetX), top = area.y + Int(viewport.offsetY)
        let width = Int(viewport.shownWidth), height = Int(viewport.shownHeight)
        let band = 8
        func mean(_ xs: Range<Int>, _ ys: Range<Int>) -> Double {
            var sum = 0.0, count = 0
            for y in ys where y >= 0 && y < rendered.height {
                for x in xs where x >= 0 && x < rendered.width {
                    sum += Contrast.luminance(rendered.pixel(x: x, y: y))
                    count += 1
                }
            }
            return count == 0 ? 0 : sum / Double(count)
        }
        let inner = (left + width / 4)..<(left + 3 * width / 4), middle = (top + height / 4)..<(top + 3 * height / 4)
        return (mean(inner, (top + 2)..<(top + 2 + band)), mean(inner, (top + height - 2 - band)..<(top + height - 2)),
                mean((left + 2)..<(left + 2 + band), middle), mean((left + width - 2 - band)..<(left + width - 2), middle))
    }
}
