import CGLib

/// A GLib main-loop source (idle or timeout) whose callback is a Swift closure on the main actor.
///
/// GLib semantics: dropping the handle does not remove the source; it runs until its closure says stop, it
/// fires once (one-shot kinds), or `cancel()` is called. Cancelling twice, or after it fired, is harmless.
public final class MainLoopSource {
    private let source: UnsafeMutablePointer<GSource>

    /// Takes the caller's reference to `source`. `callback` is the source's trampoline, cast to GSourceFunc
    /// when the source kind calls back with a different signature (GSocketSourceFunc); `box` is its user data.
    private init(_ source: UnsafeMutablePointer<GSource>, priority: Int32, callback: GSourceFunc, box: AnyObject) {
        self.source = source
        g_source_set_priority(source, priority)
        g_source_set_callback(source, callback, Unmanaged.passRetained(box).toOpaque(), releaseBoxNotify)
        g_source_attach(source, nil)
    }

    private convenience init(_ source: UnsafeMutablePointer<GSource>, priority: Int32,
                             body: @escaping @MainActor () -> Bool) {
        self.init(source, priority: priority, callback: sourceTrampoline,
                  box: SignalHandlerBox<Void, Bool> { body() })
    }

    deinit { g_source_unref(source) }

    /// Removes the source; its closure will not run again.
    public func cancel() { g_source_destroy(source) }

    public var isActive: Bool { g_source_is_destroyed(source) == 0 }

    /// Runs `body` once, the next time the main loop is idle.
    @MainActor @discardableResult
    public static func idle(priority: Int32 = G_PRIORITY_DEFAULT_IDLE,
                            _ body: @escaping @MainActor () -> Void) -> MainLoopSource {
        MainLoopSource(g_idle_source_new(), priority: priority) { body(); return false }
    }

    /// Runs `body` once after `milliseconds`.
    @MainActor @discardableResult
    public static func after(milliseconds: UInt32, priority: Int32 = G_PRIORITY_DEFAULT,
                             _ body: @escaping @MainActor () -> Void) -> MainLoopSource {
        MainLoopSource(g_timeout_source_new(milliseconds), priority: priority) { body(); return false }
    }

    /// Runs `body` each time the main loop is idle, for as long as it returns true: work cut into steps,
    /// each its own iteration, so that events and frames come between them.
    @MainActor @discardableResult
    public static func whileIdle(priority: Int32 = G_PRIORITY_DEFAULT_IDLE,
                                 _ body: @escaping @MainActor () -> Bool) -> MainLoopSource {
        MainLoopSource(g_idle_source_new(), priority: priority, body: body)
    }

    /// Runs `body` every `milliseconds` for as long as it returns true.
    @MainActor @discardableResult
    public static func every(milliseconds: UInt32, priority: Int32 = G_PRIORITY_DEFAULT,
                             _ body: @escaping @MainActor () -> Bool) -> MainLoopSource {
        MainLoopSource(g_timeout_source_new(milliseconds), priority: priority, body: body)
    }
}

extension MainLoopSource {
    /// GLib's priorities for the `priority:` arguments; lower runs first. Idle sources run at
    /// `defaultIdle`, timers and sources at `default`; GTK lays out at `highIdle + 10` and draws at
    /// `highIdle + 20`.
    public enum Priority {
        public static let high: Int32 = G_PRIORITY_HIGH
        public static let `default`: Int32 = G_PRIORITY_DEFAULT
        public static let highIdle: Int32 = G_PRIORITY_HIGH_IDLE
        public static let defaultIdle: Int32 = G_PRIORITY_DEFAULT_IDLE
        public static let low: Int32 = G_PRIORITY_LOW
    }
}

extension MainLoopSource {
    /// Runs `body` on the main loop each time the process receives `signal` (SIGINT, SIGTERM, SIGHUP), for as
    /// long as it returns true. GLib turns the signal into a main-loop event, so unlike a C signal handler
    /// `body` may do anything: cancel downloads, close files, quit the loop.
    @MainActor @discardableResult
    public static func unixSignal(_ signal: Int32, _ body: @escaping @MainActor () -> Bool) -> MainLoopSource {
        MainLoopSource(g_unix_signal_source_new(signal), priority: G_PRIORITY_HIGH, body: body)
    }

    /// Runs `body` whenever `socket` meets `condition` (readable, hung up, ...) for as long as it returns true.
    /// The source holds its own reference to the socket.
    @MainActor @discardableResult
    public static func watch(socket: UnsafeMutablePointer<GSocket>, condition: GIOCondition,
                             priority: Int32 = G_PRIORITY_DEFAULT,
                             _ body: @escaping @MainActor (GIOCondition) -> Bool) -> MainLoopSource {
        MainLoopSource(g_socket_create_source(socket, condition, nil), priority: priority,
                       callback: unsafeBitCast(socketTrampoline, to: GSourceFunc.self),
                       box: SignalHandlerBox<GIOCondition, Bool>(body))
    }

    /// Runs `body` once, when the pollable input `stream` can be read without blocking or `cancellable` was
    /// cancelled. The source holds its own reference to the stream.
    @MainActor @discardableResult
    static func readable(_ stream: OpaquePointer, cancellable: UnsafeMutablePointer<GCancellable>?,
                         _ body: @escaping @MainActor () -> Void) -> MainLoopSource {
        MainLoopSource(g_pollable_input_stream_create_source(stream, cancellable), priority: G_PRIORITY_DEFAULT,
                       callback: unsafeBitCast(pollableTrampoline, to: GSourceFunc.self),
                       box: SignalHandlerBox<Void, Bool> { body(); return false })
    }
}

// Shape: gboolean callback(GObject *pollable_stream, gpointer user_data)
private let pollableTrampoline: GPollableSourceFunc = { _, data in
    let box = SignalHandlerBox<Void, Bool>.from(data)
    return MainActor.assumeIsolated { box.handler(()) }.gboolean
}

// Shape: gboolean callback(GSocket *socket, GIOCondition condition, gpointer user_data)
private let socketTrampoline: GSocketSourceFunc = { _, condition, data in
    let box = SignalHandlerBox<GIOCondition, Bool>.from(data)
    return MainActor.assumeIsolated { box.handler(condition) }.gboolean
}

private let sourceTrampoline: GSourceFunc = { data in
    let box = SignalHandlerBox<Void, Bool>.from(data)
    return MainActor.assumeIsolated { box.handler(()) }.gboolean
}
