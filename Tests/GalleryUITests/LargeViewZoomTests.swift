import CGLib
import CGtk
import GObjectBindings
@_spi(GtkInterop) import GtkBindings
import GalleryCore
import GalleryDemoServer
import TestSupport
import XCTest
@testable import GalleryUI

/// The large view as an image viewer: zoom, pan, double-click, full screen and their keys, driven through
/// real key and mouse events (or GAction, as a menu item does) on a real window, against aurora's 4000 px
/// photo (item 0, 4000 × 2667, decoded to the 1280 px screen at first).
final class LargeViewZoomTests: GLibTestCase {
    @MainActor
    private static func waitForRest(_ view: LargeImageView) {
        XCTAssertTrue(iterateMainLoop(until: { !view.zoom.isMoving }, timeout: 60), "the view did not come to rest")
    }

    func testKeysZoomPanAndStillChangeTheImageWhenItFits() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            let view = ui.openPhoto()
            XCTAssertTrue(view.zoom.isFit, "fit to the window by default")
            let fit = try XCTUnwrap(view.zoom.viewport)
            XCTAssertEqual(view.zoom.level, min((fit.viewWidth - 24) / 4000, (fit.viewHeight - 24) / 2667), accuracy: 0.001,
                           "the whole photo in view, with a margin")
            XCTAssertFalse(view.zoom.isZoomedIn)

            ui.press(GDK_KEY_1)  // 100 %
            Self.waitForRest(view)
            XCTAssertEqual(view.zoom.level, 1, accuracy: 0.001)
            XCTAssertFalse(view.zoom.isFit)
            XCTAssertTrue(view.zoom.isZoomedIn)
            XCTAssertEqual(ui.window.header.bar.subtitle, "4000 × 2667 pixels · 100 %")
            XCTAssertTrue(iterateMainLoop(until: { view.fullResolutionPixbuf != nil }, timeout: 60),
                          "zooming past the screen-sized decode decodes the original at full resolution")
            XCTAssertEqual(view.fullResolutionPixbuf?.width, 4000)
            XCTAssertLessThan(ui.pipeline.cache.totalBytes, 4000 * 2667 * 3, "the full-resolution image stays out of the cache")

            let before = view.zoom.imageOffset
            ui.press(GDK_KEY_Right)
            XCTAssertEqual(view.download?.index, 0, "zoomed in, → pans instead of changing the image")
            XCTAssertLessThan(view.zoom.imageOffset.x, before.x, "→ shows more of the right side")
            ui.press(GDK_KEY_Down)
            XCTAssertLessThan(view.zoom.imageOffset.y, before.y)
            ui.press(GDK_KEY_Left)
            XCTAssertEqual(view.zoom.imageOffset.x, before.x, accuracy: 0.5)

            ui.press(GDK_KEY_minus)
            Self.waitForRest(view)
            XCTAssertEqual(view.zoom.level, 1 / 1.25, accuracy: 0.001, "- zooms out one step")
            ui.press(GDK_KEY_plus, GDK_SHIFT_MASK)
            Self.waitForRest(view)
            XCTAssertEqual(view.zoom.level, 1, accuracy: 0.001, "+ zooms in one step")
            ui.press(GDK_KEY_equal, GDK_CONTROL_MASK)
            Self.waitForRest(view)
            XCTAssertEqual(view.zoom.level, 1.25, accuracy: 0.001, "Ctrl+= zooms in one step")
            ui.press(GDK_KEY_0, GDK_CONTROL_MASK)
            Self.waitForRest(view)
            XCTAssertEqual(view.zoom.level, 1, accuracy: 0.001, "Ctrl+0 is 100 %")

            ui.press(GDK_KEY_f)
            Self.waitForRest(view)
            XCTAssertTrue(view.zoom.isFit, "F fits the image again")
            ui.press(GDK_KEY_Right)
            XCTAssertEqual(view.download?.index, 1, "fitted, → shows the next image")
            XCTAssertNil(view.fullResolutionPixbuf, "the previous image's full resolution is let go")
            ui.press(GDK_KEY_Left)
            XCTAssertEqual(view.download?.index, 0)
            XCTAssertTrue(iterateMainLoop(until: { view.isShowingFullImage }, timeout: 60))

            // The same through the image menu's actions.
            ui.activateAction("zoom-in")
            Self.waitForRest(view)
            XCTAssertFalse(view.zoom.isFit)
            ui.activateAction("zoom-fit")
            Self.waitForRest(view)
            XCTAssertTrue(view.zoom.isFit)
        }
    }

    func testDoubleClickTogglesFitAndRealSizeAroundThePointer() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            let view = ui.openPhoto()
            let canvas = view.canvas.area
            let viewport = try XCTUnwrap(view.zoom.viewport)
            // Near the middle of the picture. (These events go to the picture's own window; that nothing over
            // the middle swallows a real pointer's events is the end-to-end test's double-click, via X.)
            let point = (x: viewport.viewWidth / 2 - 30, y: viewport.viewHeight / 2 - 20)
            let imagePoint = ((point.x - viewport.offsetX) / viewport.scale, (point.y - viewport.offsetY) / viewport.scale)

            ui.click(canvas, x: point.x, y: point.y, double: true)
            Self.waitForRest(view)
            XCTAssertEqual(view.zoom.level, 1, accuracy: 0.001, "a double-click shows 100 %")
            let zoomed = try XCTUnwrap(view.zoom.viewport)
            XCTAssertEqual(zoomed.viewHeight, viewport.viewHeight, "view \(zoomed.viewWidth)x\(zoomed.viewHeight) was \(viewport.viewWidth)x\(viewport.viewHeight)")
            XCTAssertEqual((point.x - zoomed.offsetX) / zoomed.scale, imagePoint.0, accuracy: 1,
                           "the point double-clicked stays under the pointer")
            XCTAssertEqual((point.y - zoomed.offsetY) / zoomed.scale, imagePoint.1, accuracy: 1)

            ui.click(canvas, x: point.x, y: point.y, double: true)
            Self.waitForRest(view)
            XCTAssertTrue(view.zoom.isFit, "a second double-click fits again")
        }
    }

    func testCtrlWheelZoomsAroundThePointerAndDraggingPans() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            let view = ui.openPhoto()
            let canvas = view.canvas.area
            ui.wheel(canvas, x: 500, y: 200, up: true, control: false)
            XCTAssertTrue(view.zoom.isFit, "the wheel alone does not zoom")

            let viewport = try XCTUnwrap(view.zoom.viewport)
            let imageX = (500 - viewport.offsetX) / viewport.scale
            for _ in 0..<8 { ui.wheel(canvas, x: 500, y: 200, up: true, control: true) }
            Self.waitForRest(view)
            XCTAssertEqual(view.zoom.level, viewport.zoom * pow(1.25, 8), accuracy: 0.01, "eight clicks, eight steps")
            let zoomed = try XCTUnwrap(view.zoom.viewport)
            XCTAssertEqual((500 - zoomed.offsetX) / zoomed.scale, imageX, accuracy: 2, "zoomed around the pointer")

            let before = view.zoom.imageOffset
            ui.drag(canvas, from: (300, 300), to: (200, 250))
            Self.waitForRest(view)
            XCTAssertEqual(view.zoom.imageOffset.x, before.x - 100, accuracy: 1, "the image follows the drag")
            XCTAssertEqual(view.zoom.imageOffset.y, before.y - 50, accuracy: 1)

            for _ in 0..<12 { ui.wheel(canvas, x: 500, y: 200, up: false, control: true) }
            Self.waitForRest(view)
            XCTAssertTrue(view.zoom.isFit, "zooming out stops at fit")
        }
    }

    func testF11AndEscapeLeaveFullScreenFirstThenTheView() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            _ = ui.openPhoto()
            XCTAssertFalse(ui.window.isFullscreen)
            ui.press(GDK_KEY_F11)
            XCTAssertTrue(ui.window.isFullscreen, "F11 asks for full screen")
            ui.press(GDK_KEY_Escape)
            XCTAssertFalse(ui.window.isFullscreen, "Escape leaves full screen first")
            XCTAssertTrue(ui.window.isLargeViewOpen, "and stays in the large view")
            ui.press(GDK_KEY_Escape)
            XCTAssertFalse(ui.window.isLargeViewOpen, "a second Escape goes back to the gallery")

            ui.press(GDK_KEY_F11)
            XCTAssertFalse(ui.window.isFullscreen, "F11 belongs to the large view")
            // The risk is the view's key acting behind the gallery: its zoom action must be off, and the
            // list's selection and scroll position must not move.
            XCTAssertEqual(g_action_group_get_action_enabled(ui.window.window.ref.opaque, "zoom-real-size"), 0,
                           "the view's zoom is off while the gallery shows")
            let selected = ui.list.selectedIndex
            let visible = ui.list.visibleRange
            ui.press(GDK_KEY_1)
            XCTAssertFalse(ui.window.isLargeViewOpen, "the view's keys do nothing in the gallery")
            XCTAssertEqual(ui.list.selectedIndex, selected, "1 does not move the selection")
            XCTAssertEqual(ui.list.visibleRange, visible, "1 does not scroll the list")
        }
    }
}
