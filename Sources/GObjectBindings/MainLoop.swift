import CGLib

/// A GLib main loop of its own, for a command that runs without GApplication (`--list`, `--download`):
/// `run()` dispatches the default main context's sources until a callback calls `quit()`. A `quit()` before
/// `run()` is not remembered.
public final class MainLoop {
    private let loop: OpaquePointer

    public init() { loop = g_main_loop_new(nil, 0) }

    deinit { g_main_loop_unref(loop) }

    public func run() { g_main_loop_run(loop) }

    public func quit() { g_main_loop_quit(loop) }
}
