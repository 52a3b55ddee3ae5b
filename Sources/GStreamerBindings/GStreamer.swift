internal import CGStreamer
import GObjectBindings
import Synchronization

/// GStreamer for the app: initialised once, with only the listed demuxers, parsers and decoders allowed to be
/// plugged (see `allowedFactories`) and never an element that does network I/O of its own.
public enum GStreamer {
    /// Demuxers, parsers and decoders decodebin may plug: MP4/QuickTime, Matroska/WebM, Ogg, MPEG-TS (HLS
    /// segments), ID3-tagged MP3; H.264, VP8, VP9, AV1, Theora, AAC, Opus, Vorbis, MP3, FLAC. Every other element
    /// of those kinds keeps its place in the registry but with rank "none", which decodebin never autoplugs: a
    /// file that needs one ends with a missing-plugin error ("Unsupported video format").
    public static let allowedFactories: Set<String> = [
        "qtdemux", "matroskademux", "oggdemux", "tsdemux", "id3demux",
        "h264parse", "vp9parse", "av1parse", "aacparse", "opusparse", "vorbisparse", "theoraparse", "flacparse",
        "mpegaudioparse",
        "avdec_h264", "vp8dec", "vp9dec", "avdec_vp8", "avdec_vp9", "dav1ddec", "av1dec", "avdec_av1", "theoradec",
        "avdec_aac", "avdec_aac_fixed", "opusdec", "vorbisdec", "avdec_mp3", "avdec_mp3float", "mpg123audiodec",
        "flacdec",
    ]

    /// Elements that fetch from the network themselves: never plugged, whatever a file or playlist asks for
    /// (the app's bytes come through its own client; souphttpsrc would also map libsoup 3).
    static let networkElements = ["souphttpsrc", "curlhttpsrc", "hlsdemux", "hlsdemux2", "dashdemux", "dashdemux2",
                                  "mssdemux", "mssdemux2", "giosrc", "rtspsrc"]

    private static let state = Mutex<Bool?>(nil)

    /// Initialises GStreamer and applies the allowlist; false (with GStreamer unusable) when it cannot start.
    @MainActor @discardableResult
    public static func initialize() -> Bool { initializeOffMainLoop() }

    /// `initialize` for a build tool or a test's set-up, which may run on any thread.
    static func initializeOffMainLoop() -> Bool {
        state.withLock { state in
            if let state { return state }
            var error: UnsafeMutablePointer<GError>?
            let started = gst_init_check(nil, nil, &error) != 0
            if let error { g_error_free(error) }
            state = started
            if started { applyAllowlist() }
            return started
        }
    }

    private static func applyAllowlist() {
        forEachElementFactory { feature, name in
            let refused = networkElements.contains(name)
                || (gv_element_factory_is_decoder_or_demuxer(feature) != 0 && !allowedFactories.contains(name))
            if refused, gv_feature_rank(feature) != UInt32(GST_RANK_NONE.rawValue) {
                gv_feature_set_rank(feature, UInt32(GST_RANK_NONE.rawValue))
            }
        }
    }

    /// Calls `body` with every element factory of the registry and its name.
    private static func forEachElementFactory(_ body: (UnsafeMutableRawPointer, String) -> Void) {
        guard let features = gst_registry_get_feature_list(gst_registry_get(), gst_element_factory_get_type()) else { return }
        defer { gst_plugin_feature_list_free(features) }
        var node: UnsafeMutablePointer<GList>? = features
        while let current = node {
            if let feature = current.pointee.data { body(feature, GObjectBindings.string(gv_feature_name(feature)) ?? "") }
            node = current.pointee.next
        }
    }

    /// Takes every audio output out of autoaudiosink's choice (for the tests of a machine without sound: it
    /// then plays into a fakesink, as it does where no device opens). For the rest of the process.
    @_spi(Testing) @MainActor public static func hideAudioOutputs() {
        guard initialize() else { return }
        forEachElementFactory { feature, _ in
            if gv_element_factory_is_audio_sink(feature) != 0 { gv_feature_set_rank(feature, UInt32(GST_RANK_NONE.rawValue)) }
        }
    }

    /// The names of the installed element factories that decodebin may plug (for tests and the details panel).
    @MainActor public static func pluggableFactories() -> [String] {
        guard initialize() else { return [] }
        return allowedFactories.filter { name in
            guard let factory = gst_element_factory_find(name) else { return false }
            defer { gv_object_unref(UnsafeMutableRawPointer(factory)) }
            return gv_feature_rank(UnsafeMutableRawPointer(factory)) >= UInt32(GST_RANK_MARGINAL.rawValue)
        }.sorted()
    }

    /// Whether an element factory of this name is installed (whatever its rank).
    @MainActor public static func hasElement(_ name: String) -> Bool {
        guard initialize(), let factory = gst_element_factory_find(name) else { return false }
        gv_object_unref(UnsafeMutableRawPointer(factory))
        return true
    }
}
