internal import CGStreamer
import GObjectBindings

/// The bus messages the player acts on, copied out of the GstMessage on the main loop.
public enum BusMessage: Sendable {
    /// The pipeline (not one of its elements) reached a state.
    case stateChanged(Playbin.State)
    case endOfStream
    /// `domain` says whose error: a stream that cannot be decoded, a missing plugin, a resource (the sink).
    case error(BusError)
    case warning(String)
    /// An element that decodebin would have needed is not allowed or not installed: its description
    /// ("H.265 decoder", "AVI demuxer").
    case missingPlugin(String)
    case durationChanged
    case asyncDone
    /// Anything else (tags, stream-start, latency…): nothing to do.
    case other

    init(_ message: UnsafeMutablePointer<GstMessage>) {
        let type = gv_message_type(message)
        switch type {
        case GST_MESSAGE_EOS:
            self = .endOfStream
        case GST_MESSAGE_ERROR, GST_MESSAGE_WARNING:
            var error: UnsafeMutablePointer<GError>?
            var debug: UnsafeMutablePointer<gchar>?
            if type == GST_MESSAGE_ERROR { gst_message_parse_error(message, &error, &debug) }
            else { gst_message_parse_warning(message, &error, &debug) }
            g_free(debug)
            let parsed = BusError(error?.pointee)
            if let error { g_error_free(error) }
            self = type == GST_MESSAGE_ERROR ? .error(parsed) : .warning(parsed.message)
        case GST_MESSAGE_ELEMENT where gst_is_missing_plugin_message(message) != 0:
            self = .missingPlugin(takeString(gst_missing_plugin_message_get_description(message)) ?? "?")
        case GST_MESSAGE_DURATION_CHANGED:
            self = .durationChanged
        case GST_MESSAGE_ASYNC_DONE:
            self = .asyncDone
        case GST_MESSAGE_STATE_CHANGED:
            // Only the pipeline's own changes: its elements change state many times on the way.
            // The pipeline is the element without a parent.
            guard let source = gv_message_source(message) else {
                self = .other
                return
            }
            if let parent = gst_object_get_parent(source) {
                gv_object_unref(UnsafeMutableRawPointer(parent))
                self = .other
                return
            }
            var newState = GST_STATE_VOID_PENDING
            gst_message_parse_state_changed(message, nil, &newState, nil)
            switch newState {
            case GST_STATE_NULL: self = .stateChanged(.null)
            case GST_STATE_READY: self = .stateChanged(.ready)
            case GST_STATE_PAUSED: self = .stateChanged(.paused)
            case GST_STATE_PLAYING: self = .stateChanged(.playing)
            default: self = .other
            }
        default:
            self = .other
        }
    }

    /// A message popped from a pipeline's bus by code outside the bindings (`make bench`'s bare pipeline).
    @_spi(Testing) public init(popped message: UnsafeMutableRawPointer) {
        self.init(message.assumingMemoryBound(to: GstMessage.self))
    }
}

/// A GStreamer error, sorted by what the player tells the user.
public struct BusError: Sendable, Equatable {
    public enum Kind: Sendable {
        /// No element can handle the stream (not installed, or not on the allowlist).
        case unsupported
        /// The bytes are not what they claim, or are cut short: a broken or hostile file.
        case undecodable
        /// An output failed (the audio device went away, the video sink).
        case output
        case other
    }

    public var kind: Kind
    public var message: String

    init(_ error: GError?) {
        message = error.flatMap { GObjectBindings.string($0.message) } ?? "?"
        guard let error else {
            kind = .other
            return
        }
        let code = error.code
        if error.domain == gv_core_error_quark() && code == Int32(GST_CORE_ERROR_MISSING_PLUGIN.rawValue) {
            kind = .unsupported
        } else if error.domain == gv_stream_error_quark() {
            switch code {
            case Int32(GST_STREAM_ERROR_CODEC_NOT_FOUND.rawValue), Int32(GST_STREAM_ERROR_TYPE_NOT_FOUND.rawValue),
                 Int32(GST_STREAM_ERROR_WRONG_TYPE.rawValue), Int32(GST_STREAM_ERROR_NOT_IMPLEMENTED.rawValue):
                kind = .unsupported
            default:
                kind = .undecodable
            }
        } else if error.domain == gv_resource_error_quark() {
            kind = .output
        } else {
            kind = .other
        }
    }
}
