import CGLib

// GIO's asynchronous calls report once, through a GAsyncReadyCallback, on the thread-default main context of
// the caller. The closure is retained for exactly that one call and released inside the trampoline, so an
// async call that is cancelled still releases it (GIO always calls back, with G_IO_ERROR_CANCELLED).

private typealias AsyncBox = SignalHandlerBox<(UnsafeMutableRawPointer?, OpaquePointer), Void>

private let asyncReadyTrampoline: GAsyncReadyCallback = { source, result, data in
    let box = Unmanaged<AsyncBox>.fromOpaque(data!).takeRetainedValue()
    nonisolated(unsafe) let arguments = (source.map { UnsafeMutableRawPointer($0) }, result!)
    MainActor.assumeIsolated { box.handler(arguments) }
}

/// A one-shot `GAsyncReadyCallback` and its user data, handed to exactly one `*_async` call in one expression:
///
///     AsyncCallback { source, result in … g_file_load_contents_finish(file, result, …) }
///         .pass { g_file_load_contents_async(file, cancellable, $0, $1) }
///
/// It is non-copyable, so it cannot be passed twice (a double release); one that is never passed releases its
/// closure when it goes away (no leak).
public struct AsyncCallback: ~Copyable {
    private let userData: gpointer

    /// `body` receives the source object (may be nil) and the GAsyncResult to hand to the matching `*_finish`.
    @MainActor
    public init(_ body: @escaping @MainActor (_ source: UnsafeMutableRawPointer?, _ result: OpaquePointer) -> Void) {
        userData = Unmanaged.passRetained(AsyncBox { body($0.0, $0.1) }).toOpaque()
    }

    /// Calls `start` with the callback and its user data, which it must pass to one `*_async` function; from
    /// then on the trampoline owns the closure and releases it after the one call back.
    public consuming func pass<Result>(_ start: (GAsyncReadyCallback, gpointer) -> Result) -> Result {
        let data = userData
        discard self
        return start(asyncReadyTrampoline, data)
    }

    deinit { Unmanaged<AsyncBox>.fromOpaque(userData).release() }
}
