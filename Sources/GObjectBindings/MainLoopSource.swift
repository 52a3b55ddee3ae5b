import CGtk

/// A GLib main-loop source (idle or timeout) whose callback is a Swift closure on the main actor.
///
/// GLib semantics: dropping the handle does not remove the source; it runs until its closure says stop, it
/// fires once (one-shot kinds), or `cancel()` is called. Cancelling twice, or after it fired, is harmless.
public final class MainLoopSource {
    private let source: UnsafeMutablePointer<GSource>

    private init(_ source: UnsafeMutablePointer<GSource>, priority: Int32,
                 body: @escaping @MainActor () -> Bool) {
        self.source = source
        g_source_set_priority(source, priority)
        let box = Unmanaged.passRetained(SignalHandlerBox<Void, Bool> { body() }).toOpaque()
        g_source_set_callback(source, sourceTrampoline, box, releaseSourceBox)
        g_source_attach(source, nil)
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

    /// Runs `body` every `milliseconds` for as long as it returns true.
    @MainActor @discardableResult
    public static func every(milliseconds: UInt32, priority: Int32 = G_PRIORITY_DEFAULT,
                             _ body: @escaping @MainActor () -> Bool) -> MainLoopSource {
        MainLoopSource(g_timeout_source_new(milliseconds), priority: priority, body: body)
    }
}

private let sourceTrampoline: GSourceFunc = { data in
    let box = SignalHandlerBox<Void, Bool>.from(data)
    return MainActor.assumeIsolated { box.handler(()) }.gboolean
}

private let releaseSourceBox: GDestroyNotify = { data in
    Unmanaged<AnyObject>.fromOpaque(data!).release()
}
