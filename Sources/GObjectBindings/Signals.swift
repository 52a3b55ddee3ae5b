import CGLib

// Signals as Swift closures.
//
// A handler closure is boxed and the box is retained once for GLib; the closure-notify releases it when the
// handler is disconnected or the instance is finalized (or destroyed, for widgets). Call sites never see the
// box, the trampoline or the notify, so they cannot get the ownership wrong.
//
// There is one @convention(c) trampoline per C signature ("shape"), shared by every signal of that shape.
// Handlers run on the GLib main loop, which runs on the main thread, so each trampoline enters the main actor
// with `MainActor.assumeIsolated`: a signal emitted from any other thread traps instead of racing.

// The box is Sendable because its only content is a main-actor closure (which is Sendable: it can only run on
// the main actor); the trampolines hand it into `MainActor.assumeIsolated`. The arguments they hand along
// (C pointers, `SignalEmitter`) are not Sendable and need not be: they never leave the thread GLib called on,
// which `assumeIsolated` checks is the main one. Hence `nonisolated(unsafe)` on them, and on nothing else.
final class SignalHandlerBox<Arguments, Result>: Sendable {
    let handler: @MainActor (Arguments) -> Result
    init(_ handler: @escaping @MainActor (Arguments) -> Result) { self.handler = handler }

    static func from(_ data: gpointer?) -> SignalHandlerBox {
        Unmanaged<SignalHandlerBox>.fromOpaque(data!).takeUnretainedValue()
    }
}

/// The GDestroyNotify for a box passed with `Unmanaged.passRetained` as user data (sources, server handlers).
public let releaseBoxNotify: GDestroyNotify = { data in
    Unmanaged<AnyObject>.fromOpaque(data!).release()
}

/// The object that emitted a signal, as every handler can receive it: a handler that needs its own object (an
/// action setting its state) takes it from here instead of capturing its Swift wrapper, which may be gone.
/// Valid for the duration of the call (transfer none); take an `ObjectRef` to keep it. Not Sendable: it is a
/// borrowed pointer for one call on the main thread, never something to hand to another thread.
public struct SignalEmitter {
    public let pointer: UnsafeMutableRawPointer
    public var opaque: OpaquePointer { OpaquePointer(pointer) }
}

private typealias VoidBox = SignalHandlerBox<SignalEmitter, Void>
private typealias PointerBox = SignalHandlerBox<(SignalEmitter, UnsafeMutableRawPointer?), Void>
private typealias EventBox = SignalHandlerBox<(SignalEmitter, UnsafeMutableRawPointer?), Bool>

// Every trampoline passes the instance on: GLib always calls a handler with the emitting object first.

// Shape: void handler(GObject *instance, gpointer user_data)
private let voidTrampoline: @convention(c) (gpointer?, gpointer?) -> Void = { instance, data in
    let box = VoidBox.from(data)
    nonisolated(unsafe) let emitter = SignalEmitter(pointer: instance!)
    MainActor.assumeIsolated { box.handler(emitter) }
}

// Shape: void handler(GObject *instance, gpointer argument, gpointer user_data)
private let pointerTrampoline: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { instance, argument, data in
    let box = PointerBox.from(data)
    nonisolated(unsafe) let arguments = (SignalEmitter(pointer: instance!), argument)
    MainActor.assumeIsolated { box.handler(arguments) }
}

// Shape: gboolean handler(GObject *instance, gpointer event, gpointer user_data) — the *-event signals and
// GtkWidget::draw; returning true stops further handlers.
private let eventTrampoline: @convention(c) (gpointer?, gpointer?, gpointer?) -> gboolean = { instance, event, data in
    let box = EventBox.from(data)
    nonisolated(unsafe) let arguments = (SignalEmitter(pointer: instance!), event)
    return MainActor.assumeIsolated { box.handler(arguments) }.gboolean
}

private let releaseHandlerBox: GClosureNotify = { data, _ in
    Unmanaged<AnyObject>.fromOpaque(data!).release()
}

/// A connected signal handler. Dropping it keeps the handler connected (GLib owns it); `disconnect()` removes it
/// early and is safe to call after the instance is gone.
public final class SignalConnection {
    private let instance = UnsafeMutablePointer<GWeakRef>.allocate(capacity: 1)
    public let handlerID: gulong

    init(instance object: UnsafeMutableRawPointer, handlerID: gulong) {
        self.handlerID = handlerID
        g_weak_ref_init(instance, object)
    }

    deinit {
        g_weak_ref_clear(instance)
        instance.deallocate()
    }

    public func disconnect() {
        guard let object = g_weak_ref_get(instance) else { return }
        if g_signal_handler_is_connected(object, handlerID) != 0 {
            g_signal_handler_disconnect(object, handlerID)
        }
        g_object_unref(object)
    }

    public var isConnected: Bool {
        guard let object = g_weak_ref_get(instance) else { return false }
        defer { g_object_unref(object) }
        return g_signal_handler_is_connected(object, handlerID) != 0
    }
}

extension ObjectRef {
    /// Connects `box` through `trampoline`; the box is released when the handler goes. Internal, so that the
    /// shapes of other files (`DragSignals.swift`) connect the same way.
    func connect(
        _ signal: String, box: AnyObject, trampoline: GCallback, after: Bool
    ) -> SignalConnection {
        let data = Unmanaged.passRetained(box).toOpaque()
        let flags = after ? G_CONNECT_AFTER : GConnectFlags(rawValue: 0)
        let id = g_signal_connect_data(pointer, signal, trampoline, data, releaseHandlerBox, flags)
        precondition(id != 0, "no signal \(signal) on \(typeName)")
        return SignalConnection(instance: pointer, handlerID: id)
    }

    /// Connects a handler for a signal whose only argument is the instance (`clicked`, `activate`, `changed`).
    @MainActor @discardableResult
    public func connect(
        _ signal: String, after: Bool = false, _ handler: @escaping @MainActor () -> Void
    ) -> SignalConnection {
        connectWithEmitter(signal, after: after) { (_: SignalEmitter) in handler() }
    }

    /// Connects a handler for a signal with one pointer argument (`row-activated`, `size-allocate`).
    @MainActor @discardableResult
    public func connect(
        _ signal: String, after: Bool = false,
        _ handler: @escaping @MainActor (UnsafeMutableRawPointer?) -> Void
    ) -> SignalConnection {
        connectWithEmitter(signal, after: after) { (_: SignalEmitter, argument: UnsafeMutableRawPointer?) in handler(argument) }
    }

    /// Connects a handler for a gboolean-returning signal with one pointer argument (`button-press-event`,
    /// `key-press-event`, `draw`). Return true to stop other handlers.
    @MainActor @discardableResult
    public func connectEvent(
        _ signal: String, after: Bool = false,
        _ handler: @escaping @MainActor (UnsafeMutableRawPointer?) -> Bool
    ) -> SignalConnection {
        connect(signal, box: EventBox { handler($0.1) }, trampoline: unsafeBitCast(eventTrampoline, to: GCallback.self),
                after: after)
    }

    // The same shapes with the emitting object passed first. A distinct name rather than overloads, so that a
    // closure whose parameter types are left to inference never has two candidates.

    /// Connects a handler that receives the emitting object, for a signal without arguments.
    @MainActor @discardableResult
    public func connectWithEmitter(
        _ signal: String, after: Bool = false, _ handler: @escaping @MainActor (SignalEmitter) -> Void
    ) -> SignalConnection {
        connect(signal, box: VoidBox(handler), trampoline: unsafeBitCast(voidTrampoline, to: GCallback.self), after: after)
    }

    /// Connects a handler that receives the emitting object, for a signal with one pointer argument
    /// (GSimpleAction `change-state`: the requested GVariant).
    @MainActor @discardableResult
    public func connectWithEmitter(
        _ signal: String, after: Bool = false,
        _ handler: @escaping @MainActor (SignalEmitter, UnsafeMutableRawPointer?) -> Void
    ) -> SignalConnection {
        connect(signal, box: PointerBox { handler($0.0, $0.1) },
                trampoline: unsafeBitCast(pointerTrampoline, to: GCallback.self), after: after)
    }
}

// Shape: void handler(GObject *instance, gdouble first, gdouble second, gpointer user_data) — a scroll
// controller's `scroll` (dx, dy) and `decelerate` (velocities).
private typealias DoublePairBox = SignalHandlerBox<(SignalEmitter, Double, Double), Void>

private let doublePairTrampoline: @convention(c) (gpointer?, gdouble, gdouble, gpointer?) -> Void = {
    instance, first, second, data in
    let box = DoublePairBox.from(data)
    nonisolated(unsafe) let arguments = (SignalEmitter(pointer: instance!), first, second)
    MainActor.assumeIsolated { box.handler(arguments) }
}

extension ObjectRef {
    /// Connects a handler for a signal with two double arguments (GtkEventControllerScroll `scroll`, `decelerate`).
    @MainActor @discardableResult
    public func connect(
        _ signal: String, after: Bool = false, _ handler: @escaping @MainActor (Double, Double) -> Void
    ) -> SignalConnection {
        connect(signal, box: DoublePairBox { handler($0.1, $0.2) },
                trampoline: unsafeBitCast(doublePairTrampoline, to: GCallback.self), after: after)
    }
}

// Shape: gboolean handler(GObject *instance, gint x, gint y, gboolean keyboard_mode, gpointer tooltip,
// gpointer user_data) — GtkWidget::query-tooltip.
private typealias TooltipQueryBox = SignalHandlerBox<(SignalEmitter, UnsafeMutableRawPointer?), Bool>

private let tooltipQueryTrampoline: @convention(c) (gpointer?, gint, gint, gboolean, gpointer?, gpointer?) -> gboolean = {
    instance, _, _, _, tooltip, data in
    let box = TooltipQueryBox.from(data)
    nonisolated(unsafe) let arguments = (SignalEmitter(pointer: instance!), tooltip)
    return MainActor.assumeIsolated { box.handler(arguments) }.gboolean
}

// Shape: gboolean handler(GObject *instance, gpointer first, gpointer second, gpointer user_data) — e.g.
// GtkEntryCompletion `match-selected` (model, iter); returning true says the handler did what was asked.
private typealias PointerPairBox = SignalHandlerBox<(SignalEmitter, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?), Bool>

private let pointerPairTrampoline: @convention(c) (gpointer?, gpointer?, gpointer?, gpointer?) -> gboolean = {
    instance, first, second, data in
    let box = PointerPairBox.from(data)
    nonisolated(unsafe) let arguments = (SignalEmitter(pointer: instance!), first, second)
    return MainActor.assumeIsolated { box.handler(arguments) }.gboolean
}

extension ObjectRef {
    /// Connects a handler for GtkWidget `query-tooltip`, which receives the GtkTooltip to fill; return true
    /// to show it.
    @MainActor @discardableResult
    public func connectTooltipQuery(_ handler: @escaping @MainActor (UnsafeMutableRawPointer?) -> Bool) -> SignalConnection {
        connect("query-tooltip", box: TooltipQueryBox { handler($0.1) },
                trampoline: unsafeBitCast(tooltipQueryTrampoline, to: GCallback.self), after: false)
    }

    /// Connects a handler for a gboolean-returning signal with two pointer arguments (GtkEntryCompletion
    /// `match-selected`). Return true when the handler did what the signal asks (stopping the default).
    @MainActor @discardableResult
    public func connectHandled(
        _ signal: String, after: Bool = false,
        _ handler: @escaping @MainActor (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Bool
    ) -> SignalConnection {
        connect(signal, box: PointerPairBox { handler($0.1, $0.2) },
                trampoline: unsafeBitCast(pointerPairTrampoline, to: GCallback.self), after: after)
    }
}

// Shape: gboolean handler(GObject *instance, gpointer user_data) — GtkLinkButton `activate-link`, whose true
// stops the default handler (which would open the link itself).
private typealias BooleanBox = SignalHandlerBox<SignalEmitter, Bool>

private let booleanTrampoline: @convention(c) (gpointer?, gpointer?) -> gboolean = { instance, data in
    let box = BooleanBox.from(data)
    nonisolated(unsafe) let emitter = SignalEmitter(pointer: instance!)
    return MainActor.assumeIsolated { box.handler(emitter) }.gboolean
}

extension ObjectRef {
    /// Connects a handler for a gboolean-returning signal without arguments (`activate-link`). Return true to
    /// stop other handlers, the default one included.
    @MainActor @discardableResult
    public func connectBoolean(
        _ signal: String, after: Bool = false, _ handler: @escaping @MainActor () -> Bool
    ) -> SignalConnection {
        connect(signal, box: BooleanBox { _ in handler() }, trampoline: unsafeBitCast(booleanTrampoline, to: GCallback.self),
                after: after)
    }
}

// Shape: void handler(GObject *instance, gint number, gpointer user_data) — a dialog's `response` (the
// response id), GtkPrintOperation `done` (its result).
private typealias IntBox = SignalHandlerBox<(SignalEmitter, Int32), Void>

private let intTrampoline: @convention(c) (gpointer?, gint, gpointer?) -> Void = { instance, number, data in
    let box = IntBox.from(data)
    nonisolated(unsafe) let arguments = (SignalEmitter(pointer: instance!), number)
    MainActor.assumeIsolated { box.handler(arguments) }
}

// Shape: void handler(GObject *instance, gpointer argument, gint number, gpointer user_data) — e.g.
// GtkPrintOperation `draw-page` (the print context, the page number).
private typealias PointerIntBox = SignalHandlerBox<(SignalEmitter, UnsafeMutableRawPointer?, Int32), Void>

private let pointerIntTrampoline: @convention(c) (gpointer?, gpointer?, gint, gpointer?) -> Void = {
    instance, argument, number, data in
    let box = PointerIntBox.from(data)
    nonisolated(unsafe) let arguments = (SignalEmitter(pointer: instance!), argument, number)
    MainActor.assumeIsolated { box.handler(arguments) }
}

extension ObjectRef {
    /// Connects a handler for a signal with one int (or enum) argument (a dialog's `response`).
    @MainActor @discardableResult
    public func connectInt(
        _ signal: String, after: Bool = false, _ handler: @escaping @MainActor (Int32) -> Void
    ) -> SignalConnection {
        connect(signal, box: IntBox { handler($0.1) },
                trampoline: unsafeBitCast(intTrampoline, to: GCallback.self), after: after)
    }

    /// Connects a handler for a signal with a pointer and an int argument (GtkPrintOperation `draw-page`).
    @MainActor @discardableResult
    public func connectPointerInt(
        _ signal: String, after: Bool = false, _ handler: @escaping @MainActor (UnsafeMutableRawPointer?, Int32) -> Void
    ) -> SignalConnection {
        connect(signal, box: PointerIntBox { handler($0.1, $0.2) },
                trampoline: unsafeBitCast(pointerIntTrampoline, to: GCallback.self), after: after)
    }
}
