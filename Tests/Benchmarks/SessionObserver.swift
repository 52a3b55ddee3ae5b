import CSoup
import GObjectBindings
import GalleryCore

/// Sees each request the app's HTTPClient starts, at the moment it starts it: libsoup's `request-queued`
/// signal, emitted synchronously inside `soup_session_send_async`, which the ImageLoader calls when the
/// FetchScheduler gives a fetch its slot. So a handler can look at the app's state (which rows are visible,
/// which still wait) exactly as the scheduler saw it when it chose — no clocks compared across processes.
///
/// HTTPClient keeps its session private and the app has no hook for this; the benchmark reaches the session
/// by reflection rather than adding one to the app. If the property is renamed, this fails loudly.
@MainActor
final class SessionObserver {
    /// Called with the path and query of every request as it is queued.
    var onQueued: (@MainActor (String) -> Void)?
    private var connection: SignalConnection?

    init(_ client: HTTPClient) throws(BenchmarkError) {
        let session = Mirror(reflecting: client).children.first { $0.label == "session" }?.value as? Soup.Session
        guard let session else {
            throw BenchmarkError(description: "HTTPClient has no stored `session: Soup.Session` any more; update SessionObserver")
        }
        connection = session.ref.connect("request-queued") { [weak self] message in
            guard let message else { return }
            let uri = soup_message_get_uri(message.assumingMemoryBound(to: SoupMessage.self))
            guard let path = takeString(soup_uri_to_string(uri, 1)) else { return }
            self?.onQueued?(path)
        }
    }

    isolated deinit { connection?.disconnect() }
}
