import CGtk
import GObjectBindings
import GtkBindings

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
        try KeyTaps(arguments: ["xdotool", "key", "--delay", String(delayMilliseconds)]
            + Array(repeating: key, count: times))
    }
}

/// An `xdotool key …` child process.
@MainActor
final class KeyTaps {
    private let process: OpaquePointer

    fileprivate init(arguments: [String]) throws(BenchmarkError) {
        var argv = arguments.map { UnsafePointer(strdup($0)) } + [nil]
        defer { argv.forEach { free(UnsafeMutableRawPointer(mutating: $0)) } }
        var error: UnsafeMutablePointer<GError>?
        guard let process = g_subprocess_newv(&argv, G_SUBPROCESS_FLAGS_NONE, &error) else {
            throw BenchmarkError(description: "could not run xdotool (make test-deps): \(GLibError(consuming: error!).message)")
        }
        self.process = process
    }

    isolated deinit {
        stop()
        g_object_unref(UnsafeMutableRawPointer(process))
    }

    /// False once every key was sent (GLib reaps the child in the background).
    var isRunning: Bool { g_subprocess_get_identifier(process) != nil }

    func stop() {
        if isRunning { g_subprocess_force_exit(process) }
    }
}
