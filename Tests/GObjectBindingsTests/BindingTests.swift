import CGLib
import GObjectBindings
import TestSupport
import XCTest
import Foundation

/// The binding layer's promises besides ownership (OwnershipTests): main-loop sources that run once and can
/// be cancelled, work handed to GTask threads and back, GErrors, pixbuf decoding.
final class BindingTests: GLibTestCase {
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
            var steps = 0
            let stepping = MainLoopSource.whileIdle {
                steps += 1
                return steps < 4
            }
            // GLib dispatches timers by their deadline: once a later one has run, the cancelled one would have.
            var later = false
            MainLoopSource.after(milliseconds: 20) { later = true }
            XCTAssertTrue(iterateMainLoop(until: { later && !repeating.isActive && !stepping.isActive }, timeout: 60))
            XCTAssertEqual(fired, ["idle"])
            XCTAssertEqual(ticks, 3, "stops when the closure says so")
            XCTAssertFalse(repeating.isActive)
            repeating.cancel()  // after it ended: harmless
            XCTAssertEqual(steps, 4, "an idle step runs again until it says it is done")
            XCTAssertFalse(stepping.isActive)
        }
    }

    func testWorkerTasksRunOffTheMainThreadAndReportOnIt() {
        MainActor.assumeIsolated {
            var result: (onMain: Bool, ranOnMain: Bool)?
            WorkerTask.run({ Thread.isMainThread }, completion: { ranOnMain in
                result = (Thread.isMainThread, ranOnMain)
            })
            XCTAssertTrue(iterateMainLoop(until: { result != nil }, timeout: 60))
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

    func testLoadingLoadersMapsTheirModulesAndNamesTheMissingOnes() throws {
        // TGA's loader is a shared library of gdk-pixbuf's own that nothing else in the test process loads
        // (the app's decoders load their formats' loaders, GIF and SVG among them, when the first is made), so
        // it is mapped only if this call mapped it. PNG's is built in.
        XCTAssertEqual(PixbufDecoding.loadLoaders(["png", "tga", "svg", "no-such-format"]), ["no-such-format"])
        // GLib reads /proc files to their end (Foundation goes by their size, which is 0).
        var contents: UnsafeMutablePointer<gchar>?
        XCTAssertNotEqual(g_file_get_contents("/proc/self/maps", &contents, nil, nil), 0)
        defer { g_free(contents) }
        let maps = try XCTUnwrap(contents.map { String(cString: $0) })
        XCTAssertTrue(maps.contains("libpixbufloader-tga.so"), "TGA's loader is mapped")
    }
}
