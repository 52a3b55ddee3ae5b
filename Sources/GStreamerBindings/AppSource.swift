internal import CGStreamer
import GObjectBindings
import Synchronization

/// An `appsrc` that the main loop feeds with bytes, in "seekable" mode: GStreamer's threads ask for data, say
/// when they have enough, and ask for a byte offset when a demuxer seeks; each request reaches the main loop
/// as a call of `onNeedData` / `onSeek` (an idle source, never on GStreamer's thread).
///
/// After a seek, bytes for the old position must not reach the new one, and bytes for the new one must not
/// arrive before appsrc has flushed its queue (it does so after the seek callback returns, and would drop them,
/// or refuse them while it still holds the old end-of-stream). So a push is taken only once the main loop has
/// heard of the seek *and* appsrc has asked for data since: `push` holds the lock that the callbacks take, and
/// refuses otherwise; the caller keeps the bytes and pushes them again at the next `onNeedData`.
public final class AppSource {
    let element: ObjectRef
    private let feed = Feed()

    /// Called on the main loop when appsrc wants more bytes.
    public var onNeedData: (@MainActor () -> Void)? {
        get { feed.onNeedData }
        set { feed.onNeedData = newValue }
    }
    /// Called on the main loop when a demuxer seeks to a byte offset: the next push must start there.
    public var onSeek: (@MainActor (_ offset: Int) -> Void)? {
        get { feed.onSeek }
        set { feed.onSeek = newValue }
    }

    /// Configures the `appsrc` that playbin created for an `appsrc://` URI (transfer none).
    @MainActor init(configuring pointer: UnsafeMutableRawPointer, size: Int?, maxQueuedBytes: Int) {
        element = ObjectRef(pointer, transfer: .none)
        let appsrc = pointer.assumingMemoryBound(to: GstAppSrc.self)
        gst_app_src_set_stream_type(appsrc, GST_APP_STREAM_TYPE_SEEKABLE)
        gst_app_src_set_size(appsrc, size ?? -1)
        gst_app_src_set_max_bytes(appsrc, UInt(maxQueuedBytes))
        element.set("format", Int32(GST_FORMAT_BYTES.rawValue))
        element.set("block", false)
        var callbacks = GstAppSrcCallbacks()
        callbacks.need_data = { _, _, data in Feed.from(data).needData() }
        callbacks.enough_data = { _, data in Feed.from(data).wantsData.store(false, ordering: .relaxed) }
        callbacks.seek_data = { _, offset, data in Feed.from(data).seekRequested(Int(offset)).gboolean }
        // The element keeps the feed (not this handle, which owns the element) until it is finalised.
        gst_app_src_set_callbacks(appsrc, &callbacks, Unmanaged.passRetained(feed).toOpaque(), releaseBoxNotify)
    }

    private var appsrc: UnsafeMutablePointer<GstAppSrc> { element.pointer.assumingMemoryBound(to: GstAppSrc.self) }

    /// appsrc's queue is below its limit (it asked for data and has not said "enough" since).
    public var wantsData: Bool { feed.wantsData.load(ordering: .relaxed) }

    /// Queues `bytes` (the next bytes after the previous push, or from the last seek's offset); false when a
    /// seek is on its way to the main loop, so these bytes belong to the old position and were dropped.
    @MainActor
    public func push(_ bytes: Bytes) -> Bool {
        feed.whileCurrent {
            // The buffer takes a reference of its own (transfer none) and drops it when GStreamer is done.
            let buffer = gst_buffer_new_wrapped_bytes(bytes.pointer)
            _ = gst_app_src_push_buffer(appsrc, buffer)  // takes the buffer
        }
    }

    /// The last byte was pushed (until a seek asks for more); false when refused as `push` is.
    @MainActor
    public func endOfStream() -> Bool {
        feed.whileCurrent { _ = gst_app_src_end_of_stream(appsrc) }
    }

    /// No more calls of the handlers (the player moved on; idles already posted find them gone).
    @MainActor public func detach() {
        feed.onNeedData = nil
        feed.onSeek = nil
    }

    /// Bytes queued in appsrc right now.
    public var queuedBytes: Int { Int(gst_app_src_get_current_level_bytes(appsrc)) }
}

/// What GStreamer's threads share with the main loop. @unchecked Sendable: the streaming threads touch only
/// `seeks` (a Mutex) and `wantsData` (an atomic); the handlers and `acknowledged` are read and written on the
/// main thread only (in the idles the callbacks post).
private final class Feed: @unchecked Sendable {
    struct Seeks {
        /// Bumped by every seek.
        var generation = 0
        /// The generation in which appsrc last asked for data: after a seek, its queue is flushed by then.
        var askedInGeneration = 0
    }

    let seeks = Mutex(Seeks())
    let wantsData = Atomic(true)
    /// The generation the main loop has acted on.
    var acknowledged = 0
    var onNeedData: (@MainActor () -> Void)?
    var onSeek: (@MainActor (_ offset: Int) -> Void)?

    static func from(_ data: gpointer?) -> Feed { Unmanaged<Feed>.fromOpaque(data!).takeUnretainedValue() }

    func needData() {
        seeks.withLock { $0.askedInGeneration = $0.generation }
        wantsData.store(true, ordering: .relaxed)
        onMainLoop { feed in feed.onNeedData?() }
    }

    func seekRequested(_ offset: Int) -> Bool {
        let current = seeks.withLock { seeks in
            seeks.generation += 1
            return seeks.generation
        }
        onMainLoop { feed in
            feed.acknowledged = current
            feed.onSeek?(offset)
        }
        return true
    }

    /// Runs `body` unless a seek is pending: one the main loop has not acted on yet, or one after which appsrc
    /// has not asked for data yet. Holds the lock meanwhile, so a seek cannot slip in between the check and the
    /// push.
    func whileCurrent(_ body: () -> Void) -> Bool {
        seeks.withLock { seeks in
            guard seeks.generation == acknowledged, seeks.askedInGeneration == seeks.generation else { return false }
            body()
            return true
        }
    }

    private func onMainLoop(_ body: @escaping @MainActor (Feed) -> Void) {
        let call = MainLoopCall { [self] in body(self) }
        g_idle_add_full(G_PRIORITY_DEFAULT, { data in
            let call = Unmanaged<MainLoopCall>.fromOpaque(data!).takeUnretainedValue()
            MainActor.assumeIsolated { call.body() }
            return 0
        }, Unmanaged.passRetained(call).toOpaque(), releaseBoxNotify)
    }
}

/// A main-actor closure carried through a GLib idle source posted from another thread.
final class MainLoopCall: Sendable {
    let body: @MainActor () -> Void
    init(_ body: @escaping @MainActor () -> Void) { self.body = body }
}
