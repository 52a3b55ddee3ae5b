import CGtk

// GIO's asynchronous calls report once, through a GAsyncReadyCallback, on the thread-default main context of
// the caller. The closure is retained for exactly that one call and released inside the trampoline, so an
// async call that is cancelled still releases it (GIO always calls back, with G_IO_ERROR_CANCELLED).

private typealias AsyncBox = SignalHandlerBox<(UnsafeMutableRawPointer?, OpaquePointer), Void>

private let asyncReadyTrampoline: GAsyncReadyCallback = { source, result, data in
    let box = Unmanaged<AsyncBox>.fromOpaque(data!).takeRetainedValue()
    nonisolated(unsafe) let arguments = (source.map { UnsafeMutableRawPointer($0) }, result!)
    MainActor.assumeIsolated { box.handler(arguments) }
}

/// A one-shot `GAsyncReadyCallback` and its user data. Pass both to exactly one `*_async` call.
public struct AsyncCallback {
    public let function: GAsyncReadyCallback
    public let userData: gpointer

    /// `body` receives the source object (may be nil) and the GAsyncResult to hand to the matching `*_finish`.
    @MainActor
    public init(_ body: @escaping @MainActor (_ source: UnsafeMutableRawPointer?, _ result: OpaquePointer) -> Void) {
        function = asyncReadyTrampoline
        userData = Unmanaged.passRetained(AsyncBox { body($0.0, $0.1) }).toOpaque()
    }
}
