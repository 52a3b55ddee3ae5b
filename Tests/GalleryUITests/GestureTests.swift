import CGLib
import CGtk
import GObjectBindings
@_spi(GtkInterop) import GtkBindings
import GalleryCore
import TestSupport
import XCTest
@testable import GalleryUI

/// The large view's touchpad gestures, from GDK events sent to the real window's picture: a pinch zooms
/// around the fingers and follows them, a two-finger swipe (a touchpad's smooth scroll) changes the image once.
/// Against aurora's 4000 px photo (item 0).
final class GestureTests: GLibTestCase {
    func testAPinchZoomsAroundTheFingersAndMovesWithThem() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            let view = ui.openPhoto()
            let area = view.canvas.area
            let start = try XCTUnwrap(view.zoom.viewport)
            let fit = start.zoom
            let fingers = (x: start.viewWidth / 2 + 40, y: start.viewHeight / 2 - 20)
            let held = start.imagePoint(at: fingers)

            Touchpad.pinch(GDK_TOUCHPAD_GESTURE_PHASE_BEGIN, on: area, x: fingers.x, y: fingers.y, scale: 1)
            let moved = (x: fingers.x - 30, y: fingers.y + 15)
            Touchpad.pinch(GDK_TOUCHPAD_GESTURE_PHASE_UPDATE, on: area, x: moved.x, y: moved.y, scale: 3)
            let zoomed = try XCTUnwrap(view.zoom.viewport)
            XCTAssertEqual(zoomed.zoom, fit * 3, accuracy: 1e-9, "at once three times the zoom the fingers began at: no easing")
            let under = zoomed.imagePoint(at: moved)
            XCTAssertEqual(under.x, held.x, accuracy: 0.5, "the image point between the fingers stays between them")
            XCTAssertEqual(under.y, held.y, accuracy: 0.5)

            // A mouse drag meanwhile does not pan: only the fingers move the picture.
            let offset = view.zoom.imageOffset
            ui.drag(area, from: (200, 200), to: (300, 260))
            XCTAssertEqual(view.zoom.imageOffset.x, offset.x, "no pan while the fingers are down")
            XCTAssertEqual(view.zoom.imageOffset.y, offset.y)
            XCTAssertFalse(ui.window.itemDrags.isDraggingFromLargeView)

            Touchpad.pinch(GDK_TOUCHPAD_GESTURE_PHASE_END, on: area, x: moved.x, y: moved.y, scale: 3)
            ui.drag(area, from: (200, 200), to: (300, 260))
            XCTAssertNotEqual(view.zoom.imageOffset.x, offset.x, "the fingers lifted, a drag pans the zoomed picture")
            XCTAssertTrue(iterateMainLoop(until: { !view.zoom.isMoving }, timeout: 60))

            // Pinching in below the fit fits again.
            Touchpad.pinch(GDK_TOUCHPAD_GESTURE_PHASE_BEGIN, on: area, x: fingers.x, y: fingers.y, scale: 1)
            Touchpad.pinch(GDK_TOUCHPAD_GESTURE_PHASE_UPDATE, on: area, x: fingers.x, y: fingers.y, scale: 0.1)
            Touchpad.pinch(GDK_TOUCHPAD_GESTURE_PHASE_END, on: area, x: fingers.x, y: fingers.y, scale: 0.1)
            XCTAssertTrue(view.zoom.isFit)
        }
    }

    func testATwoFingerSwipeChangesTheImageOncePerSwipe() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            let view = ui.openPhoto()
            let area = view.canvas.area
            var time: UInt32 = 1_000
            @MainActor func swipe(_ dx: Double, events: Int, stop: Bool = true, fromTouchpad: Bool = true) {
                for _ in 0..<events {
                    time += 10
                    Touchpad.scroll(area, dx: dx, time: time, fromTouchpad: fromTouchpad)
                }
                if stop {
                    time += 10
                    Touchpad.scroll(area, dx: 0, time: time, stop: true, fromTouchpad: fromTouchpad)
                }
            }
            swipe(3, events: 30)
            XCTAssertEqual(view.download?.index, 1, "fingers to the left: the next image, one only though they went far")
            swipe(-3, events: 30)
            XCTAssertEqual(view.download?.index, 0, "to the right: the previous one")
            swipe(1, events: 10)
            XCTAssertEqual(view.download?.index, 0, "a short slide changes nothing")

            // Without a stop event, a pause starts a new swipe; without a pause, the same swipe goes on.
            swipe(3, events: 30, stop: false)
            XCTAssertEqual(view.download?.index, 1)
            time += TouchpadSwipe.gapMilliseconds + 1
            swipe(3, events: 30, stop: false)
            XCTAssertEqual(view.download?.index, 2)
            time += 10
            swipe(-3, events: 30)
            XCTAssertEqual(view.download?.index, 2, "the swipe that already changed the image changes nothing more")

            swipe(3, events: 30, fromTouchpad: false)
            XCTAssertEqual(view.download?.index, 2, "a mouse's smooth scroll is no swipe")
            ui.window.showNeighbour(-2)  // the 4000 px photo, larger than the window at 100 %
            XCTAssertTrue(iterateMainLoop(until: { view.isShowingFullImage }, timeout: 60))
            ui.press(GDK_KEY_1)
            XCTAssertTrue(iterateMainLoop(until: { !view.zoom.isMoving }, timeout: 60))
            let offset = view.zoom.imageOffset
            swipe(3, events: 30)
            XCTAssertEqual(view.download?.index, 0, "zoomed in, two fingers pan instead")
            XCTAssertLessThan(view.zoom.imageOffset.x, offset.x)
        }
    }
}
