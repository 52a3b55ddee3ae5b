import CGLib

/// A GCancellable. Cancelling is thread-safe and idempotent; every async GIO/libsoup call that was given it
/// completes with `G_IO_ERROR_CANCELLED`.
///
/// @unchecked Sendable: a worker checks it while the main loop may cancel it, which GCancellable allows (its
/// state is guarded by a lock), and its reference count is atomic.
public final class Cancellable: @unchecked Sendable {
    private let ref: ObjectRef

    public init() {
        ref = ObjectRef(g_cancellable_new(), transfer: .full)
    }

    public var pointer: UnsafeMutablePointer<GCancellable> { ref.typed() }

    public func cancel() { g_cancellable_cancel(pointer) }

    public var isCancelled: Bool { g_cancellable_is_cancelled(pointer) != 0 }
}
