internal import CGStreamer
import GObjectBindings

/// A `playbin` whose source is an `appsrc` (URI `appsrc://`), its video drawn by a `VideoSink`, its bus watched
/// on the main loop (`gst_bus_add_watch`: messages arrive as `onMessage` calls there, never on a streaming
/// thread). Dropping it sets the pipeline to NULL, which joins GStreamer's threads and closes their fds.
@MainActor
public final class Playbin {
    public enum State: Sendable {
        case null, ready, paused, playing
    }

    let pipeline: ObjectRef
    private var busWatch: UInt32 = 0
    public private(set) var source: AppSource?
    public let videoSink: VideoSink?
    /// autoaudiosink: it picks the first output that opens, or a fakesink when none does.
    private let audioSink: ObjectRef?
    /// Bus messages, on the main loop.
    public var onMessage: ((BusMessage) -> Void)?

    /// nil when GStreamer or playbin is missing. `configureSource` receives the appsrc when playbin makes it.
    public init?(videoSink: VideoSink?, audio: Bool, size: Int?, maxQueuedBytes: Int,
                 configureSource: @escaping @MainActor (AppSource) -> Void) {
        guard GStreamer.initialize(), let element = gst_element_factory_make("playbin", nil) else { return nil }
        pipeline = ObjectRef(UnsafeMutableRawPointer(element), transfer: .floating)
        self.videoSink = videoSink
        pipeline.set("uri", "appsrc://")
        if let videoSink { pipeline.set("video-sink", object: videoSink.element) }
        // No subtitles (nothing here carries them); the audio streams are left out when there is no output for them.
        var flags = UInt32(GV_PLAY_FLAG_SOFT_VOLUME)
        if videoSink != nil { flags |= UInt32(GV_PLAY_FLAG_VIDEO) }
        if audio { flags |= UInt32(GV_PLAY_FLAG_AUDIO) }
        audioSink = audio ? gst_element_factory_make("autoaudiosink", nil).map {
            ObjectRef(UnsafeMutableRawPointer($0), transfer: .floating)
        } : nil
        setFlags(flags)
        if let audioSink { pipeline.set("audio-sink", object: audioSink) }
        pipeline.connect("source-setup") { [weak self] pointer in
            guard let self, let pointer, isInstance(pointer, of: gv_type_app_src()) else { return }
            let source = AppSource(configuring: pointer, size: size, maxQueuedBytes: maxQueuedBytes)
            self.source = source
            configureSource(source)
        }
        let bus = gst_element_get_bus(pipeline.typed(GstElement.self))
        busWatch = gst_bus_add_watch_full(bus, G_PRIORITY_DEFAULT, { _, message, data in
            guard let message, let data else { return 1 }
            let box = Unmanaged<BusBox>.fromOpaque(data).takeUnretainedValue()
            let parsed = BusMessage(message)
            MainActor.assumeIsolated { box.handler(parsed) }
            return 1
        }, Unmanaged.passRetained(BusBox { [weak self] message in
            if let message { self?.onMessage?(message) }
        }).toOpaque(), releaseBoxNotify)
        gv_object_unref(UnsafeMutableRawPointer(bus))
    }

    isolated deinit {
        source?.detach()
        _ = gst_element_set_state(pipeline.typed(GstElement.self), GST_STATE_NULL)
        if busWatch != 0 { g_source_remove(busWatch) }
    }

    /// The audio went to autoaudiosink's stand-in: no device opened (no sound server, no sound card). Known
    /// once the pipeline prerolled.
    public var playsSoundNowhere: Bool {
        guard let audioSink else { return false }
        let proxy = OpaquePointer(audioSink.pointer)
        for index in 0..<gst_child_proxy_get_children_count(proxy) {
            guard let child = gst_child_proxy_get_child_by_index(proxy, index) else { continue }
            defer { g_object_unref(child) }
            let klass = UnsafeMutableRawPointer(child).assumingMemoryBound(to: GTypeInstance.self).pointee.g_class
            if GObjectBindings.string(g_type_name(klass?.pointee.g_type ?? 0)) == "GstFakeSink" { return true }
        }
        return false
    }

    private func setFlags(_ flags: UInt32) {
        // "flags" is a GFlags property (GstPlayFlags), set through a GValue of its own type.
        let klass = UnsafeMutableRawPointer(pipeline.object.pointee.g_type_instance.g_class).assumingMemoryBound(to: GObjectClass.self)
        let spec = g_object_class_find_property(klass, "flags")
        guard let spec else { return }
        var value = GValue()
        g_value_init(&value, spec.pointee.value_type)
        g_value_set_flags(&value, flags)
        g_object_set_property(pipeline.object, "flags", &value)
        g_value_unset(&value)
    }

    /// Asks for `state`; false when the change failed at once (the bus says why).
    @discardableResult
    public func setState(_ state: State) -> Bool {
        let target: GstState = switch state {
        case .null: GST_STATE_NULL
        case .ready: GST_STATE_READY
        case .paused: GST_STATE_PAUSED
        case .playing: GST_STATE_PLAYING
        }
        return gst_element_set_state(pipeline.typed(GstElement.self), target) != GST_STATE_CHANGE_FAILURE
    }

    /// Position and duration in nanoseconds, nil while unknown.
    public var position: Int64? { query(gst_element_query_position) }
    public var duration: Int64? { query(gst_element_query_duration) }

    private func query(_ function: (UnsafeMutablePointer<GstElement>?, GstFormat, UnsafeMutablePointer<gint64>?) -> gboolean) -> Int64? {
        var value: gint64 = -1
        guard function(pipeline.typed(GstElement.self), GST_FORMAT_TIME, &value) != 0, value >= 0 else { return nil }
        return Int64(value)
    }

    /// Seeks to `nanoseconds` (flushing; to the nearest key frame when `fast`).
    @discardableResult
    public func seek(to nanoseconds: Int64, fast: Bool = false) -> Bool {
        var flags = GST_SEEK_FLAG_FLUSH.rawValue
        flags |= fast ? GST_SEEK_FLAG_KEY_UNIT.rawValue | GST_SEEK_FLAG_SNAP_NEAREST.rawValue : GST_SEEK_FLAG_ACCURATE.rawValue
        return gst_element_seek_simple(pipeline.typed(GstElement.self), GST_FORMAT_TIME, GstSeekFlags(rawValue: flags),
                                       gint64(max(0, nanoseconds))) != 0
    }

    /// Plays on at `rate` times the normal speed from where it is (every frame still decoded): `make bench`
    /// plays a long video through in a fraction of its length. Not a user feature.
    @_spi(Testing) public func setRate(_ rate: Double) -> Bool {
        let element = pipeline.typed(GstElement.self)
        var position: gint64 = 0
        guard gst_element_query_position(element, GST_FORMAT_TIME, &position) != 0 else { return false }
        let flags = GstSeekFlags(rawValue: GST_SEEK_FLAG_FLUSH.rawValue | GST_SEEK_FLAG_ACCURATE.rawValue)
        return gst_element_seek(element, rate, GST_FORMAT_TIME, flags, GST_SEEK_TYPE_SET, position,
                                GST_SEEK_TYPE_NONE, gint64(bitPattern: gv_clock_time_none())) != 0
    }

    /// 0...1 (linear, playbin's soft volume).
    public var volume: Double {
        get {
            var value = GValue()
            g_value_init(&value, gv_type_double())
            g_object_get_property(pipeline.object, "volume", &value)
            return g_value_get_double(&value)
        }
        set {
            var value = GValue()
            g_value_init(&value, gv_type_double())
            g_value_set_double(&value, max(0, min(1, newValue)))
            g_object_set_property(pipeline.object, "volume", &value)
        }
    }

    public var isMuted: Bool {
        get { pipeline.bool("mute") }
        set { pipeline.set("mute", newValue) }
    }

    /// Codec names from the streams' tags, once known ("VP8", "Opus").
    public var codecs: (video: String?, audio: String?) {
        (tag(signal: "get-video-tags", name: GST_TAG_VIDEO_CODEC), tag(signal: "get-audio-tags", name: GST_TAG_AUDIO_CODEC))
    }

    private func tag(signal: String, name: String) -> String? {
        // playbin's action signals: get-video-tags (playbin, stream index) → GstTagList (transfer full).
        var tags: UnsafeMutablePointer<GstTagList>?
        withUnsafeMutablePointer(to: &tags) { result in
            gv_emit_tags(pipeline.object, signal, 0, result)
        }
        guard let tags else { return nil }
        defer { gst_tag_list_unref(tags) }
        var text: UnsafeMutablePointer<gchar>?
        guard gst_tag_list_get_string(tags, name, &text) != 0 else { return nil }
        return takeString(text)
    }
}

private final class BusBox: Sendable {
    let handler: @MainActor (BusMessage?) -> Void
    init(_ handler: @escaping @MainActor (BusMessage?) -> Void) { self.handler = handler }
}
