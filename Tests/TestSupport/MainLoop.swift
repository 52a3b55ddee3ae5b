import CGLib
import GObjectBindings

/// Drives the default GLib main context from a test until `condition` holds or `timeout` passes.
/// Returns whether the condition held. Tests run on the main thread, which is the GLib main loop's thread.
@MainActor @discardableResult
public func iterateMainLoop(until condition: () -> Bool, timeout seconds: Double = 10) -> Bool {
    let deadline = g_get_monotonic_time() + Int(seconds * 1_000_000)
    // A periodic wake-up so a blocking iteration re-checks the deadline even when nothing else happens.
    let ticker = MainLoopSource.every(milliseconds: 20) { true }
    defer { ticker.cancel() }
    while !condition() {
        if g_get_monotonic_time() >= deadline { return false }
        g_main_context_iteration(nil, 1)
    }
    return true
}

/// Runs the main loop for a fixed time, for checks that something does *not* happen. Prefer waiting for the
/// mechanism that rules it out (a closure released, a later request through the same queue answered); where
/// a window is used, its caller says in a comment why it is long enough on a slow, loaded machine.
@MainActor
public func iterateMainLoop(for seconds: Double) {
    let deadline = g_get_monotonic_time() + Int(seconds * 1_000_000)
    iterateMainLoop(until: { g_get_monotonic_time() >= deadline }, timeout: seconds + 1)
}

/// Runs whatever is pending without blocking.
@MainActor
public func drainMainLoop() {
    while g_main_context_iteration(nil, 0) != 0 {}
}
