import CGLib

// The signal shapes of drag and drop (see Signals.swift for how shapes work).

// Shape: void handler(GObject *instance, gpointer context, gpointer selection, guint info, guint time,
// gpointer user_data) — GtkWidget `drag-data-get`.
private typealias DataGetBox = SignalHandlerBox<(SignalEmitter, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UInt32), Void>

private let dataGetTrampoline: @convention(c) (gpointer?, gpointer?, gpointer?, guint, guint, gpointer?) -> Void = {
    instance, context, selection, info, _, data in
    let box = DataGetBox.from(data)
    nonisolated(unsafe) let arguments = (SignalEmitter(pointer: instance!), context, selection, info)
    MainActor.assumeIsolated { box.handler(arguments) }
}

// Shape: void handler(GObject *instance, gpointer context, gint x, gint y, gpointer selection, guint info,
// guint time, gpointer user_data) — GtkWidget `drag-data-received`.
private typealias DataReceivedBox = SignalHandlerBox<(SignalEmitter, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UInt32), Void>

private let dataReceivedTrampoline: @convention(c) (gpointer?, gpointer?, gint, gint, gpointer?, guint, guint, gpointer?) -> Void = {
    instance, context, _, _, selection, info, _, data in
    let box = DataReceivedBox.from(data)
    nonisolated(unsafe) let arguments = (SignalEmitter(pointer: instance!), context, selection, info)
    MainActor.assumeIsolated { box.handler(arguments) }
}

extension ObjectRef {
    /// Connects a handler for `drag-data-get`: the drag context, the GtkSelectionData to fill, the target's info.
    @MainActor @discardableResult
    public func connectDragDataGet(
        _ handler: @escaping @MainActor (_ context: UnsafeMutableRawPointer?, _ selection: UnsafeMutableRawPointer?, _ info: UInt32) -> Void
    ) -> SignalConnection {
        connect("drag-data-get", box: DataGetBox { handler($0.1, $0.2, $0.3) },
                trampoline: unsafeBitCast(dataGetTrampoline, to: GCallback.self), after: false)
    }

    /// Connects a handler for `drag-data-received`: the drag context, the GtkSelectionData dropped, the target's info.
    @MainActor @discardableResult
    public func connectDragDataReceived(
        _ handler: @escaping @MainActor (_ context: UnsafeMutableRawPointer?, _ selection: UnsafeMutableRawPointer?, _ info: UInt32) -> Void
    ) -> SignalConnection {
        connect("drag-data-received", box: DataReceivedBox { handler($0.1, $0.2, $0.3) },
                trampoline: unsafeBitCast(dataReceivedTrampoline, to: GCallback.self), after: false)
    }
}
