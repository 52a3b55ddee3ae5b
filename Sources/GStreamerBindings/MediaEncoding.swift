internal import CGStreamer
import GObjectBindings

/// Runs a GStreamer pipeline that writes a file (`videotestsrc ! vp8enc ! webmmux ! filesink …`) to its end:
/// how the demo gallery's videos and sounds, and the tests' fixtures, are made from GStreamer's own encoders.
/// Blocks the calling thread until the file is written; for build steps and test set-up, never the app.
public enum MediaEncoding {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    /// `description` is gst-launch syntax ending in a sink; `%OUTPUT%` is replaced by the quoted `path`.
    /// Gives up after `timeoutSeconds` (only reached when an encoder hangs).
    public static func run(_ description: String, output path: String, timeoutSeconds: Int = 300) throws(Failure) {
        guard GStreamer.initializeOffMainLoop() else { throw Failure(description: "GStreamer could not start") }
        let launch = description.split(separator: "%OUTPUT%", omittingEmptySubsequences: false).joined(separator: "\"\(path)\"")
        var error: UnsafeMutablePointer<GError>?
        let element = gst_parse_launch(launch, &error)
        if let error {
            let message = GObjectBindings.string(error.pointee.message) ?? "?"
            g_error_free(error)
            if let element { gv_object_unref(UnsafeMutableRawPointer(element)) }
            throw Failure(description: "\(launch): \(message)")
        }
        guard let element else { throw Failure(description: "\(launch): no pipeline") }
        let pipeline = ObjectRef(UnsafeMutableRawPointer(element), transfer: .floating)
        let typed = pipeline.typed(GstElement.self)
        defer { _ = gst_element_set_state(typed, GST_STATE_NULL) }
        guard gst_element_set_state(typed, GST_STATE_PLAYING) != GST_STATE_CHANGE_FAILURE else {
            throw Failure(description: "\(launch): could not start")
        }
        let bus = gst_element_get_bus(typed)
        defer { gv_object_unref(UnsafeMutableRawPointer(bus)) }
        let types = GstMessageType(rawValue: GST_MESSAGE_EOS.rawValue | GST_MESSAGE_ERROR.rawValue)
        guard let message = gst_bus_timed_pop_filtered(bus, UInt(timeoutSeconds) * 1_000_000_000, types) else {
            throw Failure(description: "\(launch): no end after \(timeoutSeconds) s")
        }
        defer { gv_message_unref(message) }
        if case .error(let error) = BusMessage(message) {
            throw Failure(description: "\(launch): \(error.message)")
        }
    }
}
