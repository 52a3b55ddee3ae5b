import CGtk
import GObjectBindings

/// A response whose body has not been read yet: the caller streams it (to a file, for `--download`) instead
/// of collecting it in memory as `fetch` does.
public struct HTTPStreamingResponse {
    public var head: HTTPResponseHead
    public var body: ReadableStream
}

extension HTTPClient {
    /// Sends `request` on the shared session (same connection caps, timeouts and User-Agent as every other
    /// request) and hands over the status, headers and the unread body once the headers arrived. The caller
    /// checks the head, reads the body with `body.read` (mapping its errors with `error(from:)`), and closes
    /// it. `completion` runs once, on the main loop; transport failures arrive as `HTTPError`.
    public func open(_ request: HTTPRequest, cancellable: Cancellable,
                     completion: @escaping @MainActor (Result<HTTPStreamingResponse, HTTPError>) -> Void) {
        guard let message = Soup.Message(url: request.url) else {
            // Later, on the loop, as every other outcome: callers never see a completion during the call.
            MainLoopSource.idle { completion(.failure(.invalidURL(request.url))) }
            return
        }
        for (name, value) in request.headers { message.setRequestHeader(name, value) }
        onRequestStarted?(request.url)
        session.send(message, cancellable: cancellable) { [weak self] result in
            guard let self else { return completion(.failure(.cancelled)) }
            switch result {
            case .failure(let error):
                completion(.failure(self.httpError(error)))
            case .success(let stream):
                completion(.success(HTTPStreamingResponse(head: HTTPResponseHead(message), body: stream)))
            }
        }
    }

    /// The `HTTPError` for a failed body read (timeout, connection cut, cancelled).
    public func error(from error: GLibError) -> HTTPError { httpError(error) }
}

extension HTTPResponseHead {
    /// The status line and headers of a message whose response headers arrived.
    init(_ message: Soup.Message) {
        self.init(status: message.statusCode, reason: message.reasonPhrase, url: message.url,
                  headers: message.responseHeaders, mediaType: message.responseMediaType,
                  contentLength: message.responseContentLength)
    }
}
