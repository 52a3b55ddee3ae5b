import CGLib
import CGtk
import TestSupport
import XCTest

/// `iterateMainLoop(until:timeout:)` for conditions that can fail the test (`try ui.download(i)`): a throw
/// ends the wait and goes to the caller's assertion.
@MainActor @_disfavoredOverload @discardableResult
func iterateMainLoop(until condition: () throws -> Bool, timeout seconds: Double = 60) throws -> Bool {
    var thrown: (any Error)?
    let met = iterateMainLoop(until: {
        do { return try condition() } catch { thrown = error; return true }
    }, timeout: seconds)
    if let thrown { throw thrown }
    return met
}

/// Waits until `widget`'s toplevel has drawn `count` frames after now, each asked for with a redraw. A frame
/// lays out and paints what was queued before it (a resize, a restyle, a redraw): after two, all of it is done.
@MainActor @discardableResult
func waitForFrames(of widget: UnsafeMutablePointer<GtkWidget>, count: Int = 2, timeout: Double = 60) -> Bool {
    guard let clock = gtk_widget_get_frame_clock(widget) else {
        XCTFail("the widget is not realized: it has no frame clock")
        return false
    }
    for _ in 0..<count {
        let start = gdk_frame_clock_get_frame_counter(clock)
        gtk_widget_queue_draw(widget)
        guard iterateMainLoop(until: { gdk_frame_clock_get_frame_counter(clock) > start }, timeout: timeout) else {
            return false
        }
    }
    return true
}
