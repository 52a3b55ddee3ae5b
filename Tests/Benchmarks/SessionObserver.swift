import GalleryCore

/// Sees each request the app's HTTPClient starts, at the moment it starts it (`HTTPClient.onRequestStarted`,
/// called when the HostScheduler gives a download its slot). So a handler can look at the app's state (which
/// rows are visible, which still wait) exactly as the scheduler saw it when it chose — no clocks compared
/// across processes.
@MainActor
final class SessionObserver {
    /// Called with the path and query of every request as it starts.
    var onQueued: (@MainActor (String) -> Void)?

    init(_ client: HTTPClient) {
        client.onRequestStarted = { [weak self] url in
            guard let self, let origin = URLText.origin(of: url) else { return }
            self.onQueued?(String(url.dropFirst(origin.count)))
        }
    }
}
