import GObjectBindings

/// A response whose body has not been read yet: `fetch` collects it in memory, `--download` streams it to a
/// file.
public struct HTTPStreamingResponse {
    public var head: HTTPResponseHead
    public var body: HTTPBody
}

/// The unread body of a response, read chunk by chunk on the main loop. Every chunk counts for the request's
/// throughput floor; closing the body (or a failed read) ends the watch.
@MainActor
public final class HTTPBody {
    private let stream: ReadableStream
    private let watchdog: TransferWatchdog
    private let mapError: @MainActor (GLibError) -> HTTPError

    init(stream: ReadableStream, watchdog: TransferWatchdog, mapError: @escaping @MainActor (GLibError) -> HTTPError) {
        self.stream = stream
        self.watchdog = watchdog
        self.mapError = mapError
    }

    /// Reads up to `maxBytes`; an empty chunk means the body is complete.
    public func read(maxBytes: Int, cancellable: Cancellable,
                     completion: @escaping @MainActor (Result<Bytes, HTTPError>) -> Void) {
        stream.read(maxBytes: maxBytes, cancellable: cancellable) { [self] result in
            switch result {
            case .success(let chunk):
                watchdog.received(chunk.count)
                if chunk.count == 0 { watchdog.stop() }
                completion(.success(chunk))
            case .failure(let error):
                let mapped = mapError(error)
                watchdog.stop()
                completion(.failure(mapped))
            }
        }
    }

    /// Whether `readNow` and `whenReadable` work: a body from the network (not the disk cache's copy).
    var readsWithoutWaiting: Bool { stream.readsWithoutWaiting }

    /// Reads what has arrived, up to `maxBytes`, without waiting (see `ReadableStream.readNow`): nil when nothing
    /// has yet (`whenReadable`), an empty chunk when the body is complete.
    func readNow(maxBytes: Int, cancellable: Cancellable) -> Result<Bytes, HTTPError>? {
        switch stream.readNow(maxBytes: maxBytes, cancellable: cancellable) {
        case .wouldBlock:
            return nil
        case .bytes(let chunk):
            watchdog.received(chunk.count)
            if chunk.count == 0 { watchdog.stop() }
            return .success(chunk)
        case .failed(let error):
            let mapped = mapError(error)
            watchdog.stop()
            return .failure(mapped)
        }
    }

    /// Runs `body` once when `readNow` has something to say or `cancellable` was cancelled.
    func whenReadable(cancellable: Cancellable, _ body: @escaping @MainActor () -> Void) {
        stream.whenReadable(cancellable: cancellable, body)
    }

    /// Stops reading; libsoup drops the connection if the body was not read to the end.
    public func close() {
        watchdog.stop()
        stream.close()
    }
}

extension HTTPResponseHead {
    /// An HTTP date (`Retry-After`, `Date`) in any of the three forms RFC 9110 allows, as seconds since the
    /// Unix epoch.
    static func parseDate(_ text: String) -> Double? { Soup.parseHTTPDate(text) }

    /// The status line and headers of a message whose response headers arrived. The reason phrase is the
    /// server's text, shown in rows: cleaned and bounded.
    init(_ message: Soup.Message) {
        self.init(status: message.statusCode, reason: DisplayText.clean(message.reasonPhrase, limit: 100),
                  url: message.url, headers: message.responseHeaders, mediaType: message.responseMediaType,
                  contentLength: message.responseContentLength)
    }
}
