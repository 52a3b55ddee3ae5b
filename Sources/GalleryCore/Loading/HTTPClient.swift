import CGLib
import GObjectBindings

/// The app's one HTTP client: a single libsoup session shared by feeds and images, so connections are kept
/// alive and capped per host across everything the app downloads. Callbacks run on the GLib main loop.
///
/// Its collaborators own their parts: `HTTPSessions` the libsoup session and the disk cache attached to it,
/// `AddressGate` which addresses connections may reach, `ConnectionGuard` one request's connections,
/// `HTTPBody` a response's unread body. Of the app's own code, these are all that use libsoup as a client
/// (through GObjectBindings' Soup*.swift, the only bindings that call it); the rest of the core sees
/// `HTTPRequest`, `HTTPResponseHead`, `HTTPBody` and `HTTPError`. libsoup's server side is the demo server's.
@MainActor
public final class HTTPClient {
    public struct Configuration: Sendable {
        public var userAgent: String
        /// libsoup's per-host limit; the image scheduler uses one less, keeping a connection for page requests.
        public var maxConnectionsPerHost: Int
        public var maxConnections: Int
        /// Seconds a request may go without any progress (connect, headers or body) before it fails.
        public var ioTimeoutSeconds: Int
        /// The throughput floor: a request that receives less than this per second, averaged over each
        /// `throughputWindowSeconds`, fails (see `TransferWatchdog`). At 2 KiB/s any line that moves more still
        /// gets a 20 MB original through, however long it takes; a drip of 64 bytes every half second ends after
        /// one window.
        public var minimumBytesPerSecond: Int
        public var throughputWindowSeconds: Int
        /// Tests only: a PEM file of the certificate authorities trusted instead of the system's.
        public var trustedCertificatesFile: String?

        public init(userAgent: String = HTTPClient.defaultUserAgent, maxConnectionsPerHost: Int = 6,
                    maxConnections: Int = 24, ioTimeoutSeconds: Int = 15, minimumBytesPerSecond: Int = 2048,
                    throughputWindowSeconds: Int = 20, trustedCertificatesFile: String? = nil) {
            self.userAgent = userAgent
            self.maxConnectionsPerHost = maxConnectionsPerHost
            self.maxConnections = maxConnections
            self.ioTimeoutSeconds = ioTimeoutSeconds
            self.minimumBytesPerSecond = minimumBytesPerSecond
            self.throughputWindowSeconds = throughputWindowSeconds
            self.trustedCertificatesFile = trustedCertificatesFile
        }
    }

    /// Wikimedia (and good manners) ask clients to say who they are and where to find the project.
    public nonisolated static let defaultUserAgent =
        "GalleryViewer/\(AppVersion.string) (+https://github.com/galleryviewer/gallery-viewer)"

    public let configuration: Configuration
    private let sessions: HTTPSessions
    /// Which addresses connections may reach, as the gallery being read decides (`useEndpoint`).
    let addresses = AddressGate()
    /// The disk cache requests go through; nil: every request goes to the network.
    public var cache: HTTPCache? { sessions.cache }
    /// Called with each request's URL just before it is sent (for diagnostics and benchmarks).
    public var onRequestStarted: (@MainActor (String) -> Void)?
    /// `fetch` calls whose completion has not run yet: what callers still wait for (tests, diagnostics).
    public private(set) var fetchesInFlight = 0
    private let readChunkBytes = 64 * 1024

    /// With a `cache`, requests wait until its index is read, then go through it (see `HTTPCache`).
    public init(configuration: Configuration = .init(), cache: HTTPCache? = nil) {
        self.configuration = configuration
        sessions = HTTPSessions(configuration: configuration, cache: cache)
        addresses.onNarrowed = { [weak self] in self?.sessions.replace() }
    }

    /// The gallery at `origin` is the one being read: it decides which addresses requests may reach from now
    /// on (see `AddressGate.useEndpoint`).
    public func useEndpoint(_ origin: String) { addresses.useEndpoint(origin) }

    /// Empties the disk cache without making the main loop wait for the disk; `completion` gets the bytes
    /// freed (0 without a cache). Requests in flight finish (see `HTTPSessions.clearCache`).
    public func clearCache(completion: @escaping @MainActor (Int) -> Void) { sessions.clearCache(completion: completion) }

    /// Fetches `request` into memory. `validate` sees the status and headers before any of the body is read
    /// and can reject the response (a 404, an HTML page where an image was expected) without downloading the
    /// body. `completion` runs exactly once, on the main loop — never before `fetch` returns, also for a URL
    /// that is refused at once — and also after cancellation (with `.cancelled`). A request abandoned as too
    /// slow completes with `.tooSlow`. `progress`, if given, hears the bytes received so far (and the total, when
    /// the response declares it) after every chunk of the body.
    public func fetch(_ request: HTTPRequest, cancellable: Cancellable,
                      validate: @escaping @MainActor (HTTPResponseHead) -> HTTPError? = { _ in nil },
                      progress: (@MainActor (_ received: Int, _ expected: Int?) -> Void)? = nil,
                      completion: @escaping @MainActor (Result<HTTPResponse, HTTPError>) -> Void) {
        fetchesInFlight += 1
        let completion = { [weak self] (result: Result<HTTPResponse, HTTPError>) in
            self?.fetchesInFlight -= 1
            completion(result)
        }
        open(request, cancellable: cancellable) { [readChunkBytes] result in
            switch result {
            case .failure(let error):
                completion(.failure(error))
            case .success(let response):
                let head = response.head
                if let rejection = validate(head) ?? Self.sizeRejection(head, limit: request.maxBodyBytes) {
                    response.body.close()
                    return completion(.failure(rejection))
                }
                let reader = BodyReader(body: response.body, limit: request.maxBodyBytes, chunkBytes: readChunkBytes,
                                        cancellable: cancellable)
                if let progress {
                    // A Content-Length that the body outgrows (gzip decoded, or a lie) says nothing about the total.
                    reader.progress = { received in progress(received, head.contentLength.flatMap { $0 >= received ? $0 : nil }) }
                }
                let sink = MemorySink()
                reader.read(into: sink) { result in
                    switch result {
                    case .success: completion(.success(HTTPResponse(head: head, body: sink.joined())))
                    case .failure(.http(let error)): completion(.failure(error))
                    case .failure(let error): completion(.failure(.network(error.message)))
                    }
                }
            }
        }
    }

    private static func sizeRejection(_ head: HTTPResponseHead, limit: Int) -> HTTPError? {
        guard let length = head.contentLength, length > limit else { return nil }
        return .tooLarge(limitBytes: limit)
    }

    /// Cancels everything in flight; each pending fetch completes with `.cancelled`.
    public func abortAll() { sessions.abortAll() }

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
            self.sessions.whenCacheReady { [weak self] in
                guard let self else { return completion(.failure(.cancelled)) }
                self.addresses.whenDecided(for: request.url) { [weak self] in
                    guard let self else { return completion(.failure(.cancelled)) }
                    // Decided now, with the policy: a private host's stored copy is no answer for a public gallery.
                    var request = request
                    if request.usesDiskCache, !self.addresses.servesFromCache(request.url) {
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
            self?.addresses.policy(forConnectionTo: host, at: address)
        }
        // The throughput window opens when libsoup sends the request, not while it waits for a connection.
        message.onStarting { scheme in
            guardrail.check(scheme: scheme)
            watchdog.start()
        }
        sessions.current.send(message, cancellable: cancellable) { [weak self] result in
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
                   let stale = Self.message(for: request.askingForStaleCopy) {
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

    private func httpError(_ error: GLibError) -> HTTPError {
        if error.isCancelled { return .cancelled }
        if error.matches(G_IO_ERROR_TIMED_OUT) { return .timedOut(seconds: configuration.ioTimeoutSeconds) }
        if error.matches(G_IO_ERROR_PARTIAL_INPUT) { return .connectionClosedEarly }
        if error.domain == g_tls_error_quark() {
            // Without glib-networking libsoup has no TLS at all: that is a missing package, not a bad server.
            guard error.code != Int32(G_TLS_ERROR_UNAVAILABLE.rawValue) else {
                // TRANSLATORS: {reason} is GLib's explanation; glib-networking is a package name.
                return .network(tr("HTTPS is not available: {reason} (install glib-networking)", ["reason": error.message]))
            }
            return .certificate(error.message)
        }
        if error.domain == g_resolver_error_quark() {
            return .network(tr("Could not find the server: {reason}", ["reason": error.message]))
        }
        return .network(error.message)
    }
}
