import CGLib
import GObjectBindings

/// A response whose body has not been read yet: `fetch` collects it in memory, `--download` streams it to a
/// file.
public struct HTTPStreamingResponse {
    public var head: HTTPResponseHead
    public var body: HTTPBody
}

extension HTTPClient {
    /// Sends `request` on the shared session (same connection caps, timeouts and User-Agent as every other
    /// request) and hands over the status, headers and the unread body once the headers arrived. The caller
    /// checks the head, reads the body with `body.read` and closes it. `completion` runs once, on the main loop
    /// and never before `open` returns; transport failures arrive as `HTTPError`. The throughput floor
    /// (`TransferWatchdog`) watches from the moment libsoup sends the request (not while it waits in the
    /// session's queue for a connection) until the body is closed or fails.
    ///
    /// With a disk cache, a GET whose server cannot be reached (`isUnreachable`) is asked once more
    /// with `Cache-Control: max-stale`: a stored copy, however old, beats an error when the network is gone.
    /// Without a copy that retry goes to the network; if it fails too, the first try's error is reported.
    public func open(_ request: HTTPRequest, cancellable: Cancellable,
                     completion: @escaping @MainActor (Result<HTTPStreamingResponse, HTTPError>) -> Void) {
        // Only absolute http(s) URLs go out: libsoup would take others apart in its own ways.
        guard URLText.isWebAddress(request.url), let message = Self.message(for: request) else {
            MainLoopSource.idle { completion(.failure(.notAWebAddress)) }
            return
        }
        onRequestStarted?(request.url)
        // libsoup's first connection would load GIO's modules and the certificate store on the main loop.
        Soup.NetworkSetup.whenLoaded { [weak self] in
            guard let self else { return completion(.failure(.cancelled)) }
            self.whenCacheReady { [weak self] in
                guard let self else { return completion(.failure(.cancelled)) }
                self.whenPolicyDecided(for: request.url) { [weak self] in
                    guard let self else { return completion(.failure(.cancelled)) }
                    // Decided now, with the policy: a private host's stored copy is no answer for a public gallery.
                    var request = request
                    if request.usesDiskCache, !self.servesFromCache(request.url) {
                        request.usesDiskCache = false
                        message.bypassDiskCache()
                    }
                    self.send(message, of: request, cancellable: cancellable, watchdog: self.watchdog(cancelling: cancellable),
                              retrying: nil, completion: completion)
                }
            }
        }
    }

    private func watchdog(cancelling cancellable: Cancellable) -> TransferWatchdog {
        TransferWatchdog(minimumBytesPerSecond: configuration.minimumBytesPerSecond,
                         windowSeconds: configuration.throughputWindowSeconds) { cancellable.cancel() }
    }

    private static func message(for request: HTTPRequest) -> Soup.Message? {
        guard let message = Soup.Message(method: request.method, url: request.url) else { return nil }
        for (name, value) in request.headers { message.setRequestHeader(name, value) }
        if let body = request.body {
            let contentType = request.headers.first { $0.key.lowercased() == "content-type" }?.value ?? "application/json"
            message.setRequestBody(Array(body.utf8), contentType: contentType)
        }
        if !request.usesDiskCache { message.bypassDiskCache() }
        return message
    }

    /// `firstError`: this is the stale-copy retry of a request that failed so. The retry has a throughput
    /// window of its own (the first try may have used up most of one waiting for libsoup's I/O timeout).
    private func send(_ message: Soup.Message, of request: HTTPRequest, cancellable: Cancellable,
                      watchdog: TransferWatchdog, retrying firstError: HTTPError?,
                      completion: @escaping @MainActor (Result<HTTPStreamingResponse, HTTPError>) -> Void) {
        let guardrail = ConnectionGuard(message: message, cancellable: cancellable) { [weak self] host, address in
            guard let self else { return nil }
            let policy = self.addressPolicy(forConnectionTo: host)
            if policy?.isPrivate(address) == true { self.hostsOnPrivateAddresses.insert(host.lowercased()) }
            return policy
        }
        // The throughput window opens when libsoup sends the request, not while it waits for a connection.
        message.onStarting { scheme in
            guardrail.check(scheme: scheme)
            watchdog.start()
        }
        session.send(message, cancellable: cancellable) { [weak self] result in
            guard let self else {
                watchdog.stop()
                return completion(.failure(.cancelled))
            }
            switch result {
            case .failure(let error):
                var mapped = self.httpError(error, watchdog: watchdog)
                // Whatever the refused connection ended with (cancelled, or a closed socket), the refusal is why.
                if let refusal = guardrail.refusal { mapped = .refused(refusal) }
                watchdog.stop()
                if let firstError {
                    // No stored copy, so the retry went to the network and failed too (timed out, too slow,
                    // refused): what the caller must hear is why the server is unreachable — that is what
                    // lets it fall back to a saved copy of its own (GalleryFeed's snapshot). Only the user's
                    // cancel (a watchdog's is `.tooSlow` here) stays a cancel.
                    return completion(.failure(mapped == .cancelled ? .cancelled : firstError))
                }
                // Only a GET can have a stored copy (libsoup caches nothing else): a POST is not sent twice.
                if self.cache != nil, request.method == "GET", request.usesDiskCache, mapped.isUnreachable,
                   !cancellable.isCancelled,
                   let stale = Self.message(for: Self.staleCopyRequest(request)) {
                    return self.send(stale, of: request, cancellable: cancellable,
                                     watchdog: self.watchdog(cancelling: cancellable), retrying: mapped,
                                     completion: completion)
                }
                completion(.failure(mapped))
            case .success(let stream):
                // An answer from the disk cache was never sent: its body is watched from here.
                watchdog.start()
                let body = HTTPBody(stream: stream, watchdog: watchdog) { [weak self] error in
                    self?.httpError(error, watchdog: watchdog) ?? .cancelled
                }
                completion(.success(HTTPStreamingResponse(head: HTTPResponseHead(message), body: body)))
            }
        }
    }

    /// A cancellation the watchdog caused is reported as what it was: too slow.
    private func httpError(_ error: GLibError, watchdog: TransferWatchdog) -> HTTPError {
        let mapped = httpError(error)
        guard watchdog.fired, mapped == .cancelled else { return mapped }
        return .tooSlow(minimumBytesPerSecond: watchdog.minimumBytesPerSecond)
    }
}

/// Refuses a message's connection to an address the client's `AddressPolicy` refuses (checked after name
/// resolution, before each new connection: the first request's and every redirect's) and an https request
/// redirected to http (checked before each connection and before each send, a kept-alive connection's too),
/// by cancelling it; `refusal` says why.
/// The message's handlers own the guard; it holds no reference to the message.
@MainActor
final class ConnectionGuard {
    private let cancellable: Cancellable
    private let startedSecure: Bool
    private(set) var refusal: HTTPError.Refusal?

    init(message: Soup.Message, cancellable: Cancellable,
         policy: @escaping @MainActor (_ host: String, _ address: [UInt8]) -> AddressPolicy?) {
        self.cancellable = cancellable
        startedSecure = message.scheme == "https"
        message.onConnecting { [self] address, scheme, host in
            check(scheme: scheme)
            if refusal == nil, policy(host, address)?.refuses(address) == true {
                refuse(.privateAddress(AddressPolicy.text(address)))
            }
            return refusal != nil
        }
    }

    func check(scheme: String) {
        if startedSecure, scheme != "https" { refuse(.insecureRedirect) }
    }

    private func refuse(_ reason: HTTPError.Refusal) {
        if refusal == nil { refusal = reason }
        cancellable.cancel()
    }
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
