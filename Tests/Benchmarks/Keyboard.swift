import CGLib
import CGtk
import GObjectBindings
import GtkBindings
import Glibc

/// Keys as a user's keyboard sends them: `xdotool` injects them through XTest, so they travel the app's
/// real path (X event → GtkWindow → accelerators → the focused widget's handlers and key bindings).
/// GDK's own gdk_test_simulate_key cannot be used: it sends core events, which GTK's XInput2 windows ignore.
@MainActor
enum Keyboard {
    /// Gives `window` the X input focus (bare Xvfb has no window manager to do it) and lets it arrive.
    static func focus(_ window: Widget) {
        guard let gdkWindow = gtk_widget_get_window(window.widget) else { return }
        gdk_window_focus(gdkWindow, UInt32(GDK_CURRENT_TIME))
        Loop.run(for: 0.2)
    }

    /// Taps `key` (an X keysym name: "End", "Down") `times` times, `delayMilliseconds` apart, from a child
    /// process; the keys reach the focused window while the caller iterates the main loop. Keep the result
    /// until they have: letting it go stops the child.
    static func tap(_ key: String, times: Int = 1, delayMilliseconds: Int = 12) throws(BenchmarkError) -> KeyTaps {
        try KeyTaps(key: key, arguments: ["xdotool", "key", "--delay", String(delayMilliseconds)]
            + Array(repeating: key, count: times))
    }

    /// Holds `key` down as auto-repeat does: a press every `repeatMilliseconds`, until `release()`.
    static func hold(_ key: String, repeatMilliseconds: UInt32) throws(BenchmarkError) -> HeldKey {
        try HeldKey(key: key, repeatMilliseconds: Int(repeatMilliseconds))
    }
}

/// A key held down: one second of taps per xdotool child, the next child as soon as the last one is done
/// (one long child would outlive a scenario that ends early).
@MainActor
final class HeldKey {
    /// The presses sent so far, counted in whole batches.
    private(set) var presses: Int
    private var taps: KeyTaps
    private var refill: MainLoopSource?

    fileprivate init(key: String, repeatMilliseconds: Int) throws(BenchmarkError) {
        let batch = max(1, 1000 / repeatMilliseconds)
        taps = try Keyboard.tap(key, times: batch, delayMilliseconds: repeatMilliseconds)
        presses = batch
        refill = MainLoopSource.every(milliseconds: 50) { [weak self] in
            guard let self else { return false }
            if !self.taps.isRunning, let next = try? Keyboard.tap(key, times: batch, delayMilliseconds: repeatMilliseconds) {
                self.taps = next
                self.presses += batch
            }
            return true
        }
    }

    isolated deinit { release() }

    /// Stops the presses (and lets go of a key the child still holds).
    func release() {
        refill?.cancel()
        refill = nil
        taps.stop()
    }
}

/// An `xdotool key …` child process, started with posix_spawn: glibc starts it as vfork does, sharing this
/// process's memory until the exec. A fork (GSubprocess's way) write-protects every page of this large
/// process, and the app's main thread then took a page fault on the first write to each page it touched,
/// hundreds to a thousand and more in the frame after each batch of taps (the worst pieces of main-thread
/// work while End was held): the harness's cost, charged to the app.
@MainActor
final class KeyTaps {
    private var pid: pid_t = 0
    private let key: String

    fileprivate init(key: String, arguments: [String]) throws(BenchmarkError) {
        self.key = key
        pid = try MainLoopProbe.pausing { Result { () throws(BenchmarkError) in try Self.spawn(arguments) } }.get()
    }

    isolated deinit { stop() }

    /// False once every key was sent (reaped here: GLib watches only the children it started).
    var isRunning: Bool {
        guard pid > 0 else { return false }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid { pid = 0 }
        return pid > 0
    }

    /// Stops the taps; a key the child pressed but did not release yet is released, or the X server would
    /// keep it down and later presses of it would go nowhere.
    func stop() {
        guard isRunning else { return }
        MainLoopProbe.pausing {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            pid = 0
            if let release = try? Self.spawn(["xdotool", "keyup", key]) { waitpid(release, &status, 0) }
        }
    }

    private static func spawn(_ arguments: [String]) throws(BenchmarkError) -> pid_t {
        var argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawnp(&pid, arguments[0], nil, nil, &argv, environ)
        guard result == 0 else {
            throw BenchmarkError(description: "could not start \(arguments[0]): \(String(cString: strerror(result)))")
        }
        return pid
    }
}
