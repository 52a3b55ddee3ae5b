import CGLib
import CGtk
import GObjectBindings
import TestSupport
import XCTest
import Foundation

/// The binding layer's promises: references taken and dropped exactly once, signal closures released by
/// GLib, main-loop sources that run once and can be cancelled, work handed to GTask threads and back.
final class BindingTests: GLibTestCase {
    private final class Token {}

    func testSignalClosuresRunAndAreReleasedWhenTheObjectGoesAway() {
        MainActor.assumeIsolated {
            weak var captured: Token?
            var calls = 0
            do {
                let token = Token()
                captured = token
                let action = ObjectRef(g_simple_action_new("go", nil).raw, transfer: .full)
                action.connect("activate") { (_: UnsafeMutableRawPointer?) in
                    withExtendedLifetime(token) { calls += 1 }
                }
                g_action_activate(action.opaque, nil)
                g_action_activate(action.opaque, nil)
            }
            XCTAssertEqual(calls, 2)
            XCTAssertNil(captured, "the closure (and what it captured) was released with the object")
        }
    }

    func testDisconnectingReleasesTheClosureAndIsSafeAfterTheObjectIsGone() {
        MainActor.assumeIsolated {
            weak var captured: Token?
            let action = ObjectRef(g_simple_action_new("go", nil).raw, transfer: .full)
            var calls = 0
            var connection: SignalConnection?
            do {
                let token = Token()
                captured = token
                connection = action.connect("activate") { (_: UnsafeMutableRawPointer?) in
                    withExtendedLifetime(token) { calls += 1 }
                }
            }
            XCTAssertTrue(connection!.isConnected)
            connection!.disconnect()
            g_action_activate(action.opaque, nil)
            XCTAssertEqual(calls, 0)
            XCTAssertNil(captured)
            XCTAssertFalse(connection!.isConnected)
            connection!.disconnect()  // twice: harmless
        }
    }

    func testFloatingReferencesAreSunkNotLeaked() {
        MainActor.assumeIsolated {
            // GtkAdjustment is a GInitiallyUnowned (floating when new) that needs no display.
            let object = gtk_adjustment_new(0, 0, 1, 1, 1, 1)!.raw
            XCTAssertEqual(g_object_is_floating(object), 1)
            weak var wrapperGone: ObjectRef?
            var finalized = false
            g_object_weak_ref(object.as(GObject.self), { data, _ in
                data!.assumingMemoryBound(to: Bool.self).pointee = true
            }, &finalized)
            do {
                let ref = ObjectRef(object, transfer: .floating)
                wrapperGone = ref
                XCTAssertEqual(g_object_is_floating(object), 0, "sunk")
            }
            XCTAssertNil(wrapperGone)
            XCTAssertTrue(finalized, "the only reference was the wrapper's: finalized with it")
        }
    }

    func testSourcesRunOnceAndCancelledOnesNever() {
        MainActor.assumeIsolated {
            var fired: [String] = []
            MainLoopSource.idle { fired.append("idle") }
            let cancelled = MainLoopSource.after(milliseconds: 10) { fired.append("cancelled") }
            cancelled.cancel()
            cancelled.cancel()
            var ticks = 0
            let repeating = MainLoopSource.every(milliseconds: 5) {
                ticks += 1
                return ticks < 3
            }
            iterateMainLoop(for: 0.2)
            XCTAssertEqual(fired, ["idle"])
            XCTAssertEqual(ticks, 3, "stops when the closure says so")
            XCTAssertFalse(repeating.isActive)
            repeating.cancel()  // after it ended: harmless
        }
    }

    func testWorkerTasksRunOffTheMainThreadAndReportOnIt() {
        MainActor.assumeIsolated {
            var result: (onMain: Bool, ranOnMain: Bool)?
            WorkerTask.run({ Thread.isMainThread }, completion: { ranOnMain in
                result = (Thread.isMainThread, ranOnMain)
            })
            XCTAssertTrue(iterateMainLoop(until: { result != nil }, timeout: 5))
            XCTAssertEqual(result?.ranOnMain, false, "the work ran on a GTask worker thread")
            XCTAssertEqual(result?.onMain, true, "the completion came back to the main loop")
        }
    }

    func testGErrorsBecomeSwiftErrors() {
        var contents: UnsafeMutablePointer<gchar>?
        XCTAssertThrowsError(try GLibError.check { error in g_file_get_contents("/nonexistent/file", &contents, nil, error) }) {
            let error = $0 as! GLibError
            XCTAssertEqual(error.domainName, "g-file-error-quark")
            XCTAssertTrue(error.message.contains("/nonexistent/file"))
            XCTAssertFalse(error.isCancelled)
        }
        XCTAssertTrue(GLibError.cancelled.isCancelled)
    }

    func testPixbufDecodingDownsamplesAndReportsTheOriginalSize() throws {
        let png = try Pixbuf.filled(width: 800, height: 400, rgba: 0x336699ff).encoded(as: "png")
        let decoded = try PixbufDecoding.decode(png, maxPixelSize: 100, cancellable: nil).get()
        XCTAssertEqual(decoded.pixbuf.width, 100)
        XCTAssertEqual(decoded.pixbuf.height, 50)
        XCTAssertEqual(decoded.originalWidth, 800)
        XCTAssertEqual(decoded.originalHeight, 400)
        XCTAssertThrowsError(try PixbufDecoding.decode(Bytes("<html>no</html>"), maxPixelSize: 100, cancellable: nil).get())
        let cancellable = Cancellable()
        cancellable.cancel()
        XCTAssertThrowsError(try PixbufDecoding.decode(png, maxPixelSize: nil, cancellable: cancellable).get()) {
            XCTAssertTrue(($0 as? PixbufDecodingError)?.isCancelled == true)
        }
    }
}
