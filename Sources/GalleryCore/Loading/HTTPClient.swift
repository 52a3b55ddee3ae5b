import CGLib
import GObjectBindings

/// The app's one HTTP client: a single libsoup session shared by feeds and images, so connections are kept
/// alive and capped per host across everything the app downloads. Callbacks run on the GLib main loop.
///
/// Of the app's own code, this file and its extensions in HTTPClient+*.swift are all that use libsoup as a
/// client (through GObjectBindings' Soup*.swift, the only bindings that call it); the rest of the core sees
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
    /// Replaced by a new one when the disk cache is cleared (see `clearCache`).
    var session: Soup.Session
    /// Sessions replaced by `clearCache`, finishing what they had in flight.
    var retiredSessions: [Soup.Session] = []
    /// The disk cache requests go through; nil: every request goes to the network.
    public let cache: HTTPCache?
    /// Called with each request's URL just before it is sent (for diagnostics and benchmarks).
    public var onRequestStarted: (@MainActor (String) -> Void)?
    /// `fetch` calls whose completion has not run yet: what callers still wait for (tests, diagnostics).
    public private(set) var fetchesInFlight = 0
    /// Which addresses requests may connect to: everything until a gallery's endpoint decides (`useEndpoint`).
    public internal(set) var addressPolicy = AddressPolicy(allowsPrivateAddresses: true)
    /// Addresses `useEndpoint` counts as public (their bytes): tests serve a "public" gallery on 127.0.0.1.
    public var addressesTreatedAsPublic: Set<[UInt8]> = []
    /// Requests go through a proxy (see `AddressPolicy.systemUsesProxy`): addresses are not checked then.
    /// nil until GIO's proxy resolver answered (addresses are checked meanwhile).
    public internal(set) var usesProxy: Bool?
    /// The origin of the gallery whose endpoint decides `addressPolicy`.
    public internal(set) var endpointOrigin: String?
    /// Hosts this client connected to on a private address: no answer for them comes from the disk cache
    /// while the policy refuses private addresses (`servesFromCache`).
    var hostsOnPrivateAddresses: Set<String> = []
    /// Requests that wait for `useEndpoint`'s decision; nil when there is none pending.
    var waitingForPolicy: [@MainActor () -> Void]?
    var policyDecisions = 0
    let readChunkBytes = 64 * 1024

    /// With a `cache`, requests wait until its index is read, then go through it (see `HTTPCache`).
    public init(configuration: Configuration = .init(), cache: HTTPCache? = nil) {
        self.configuration = configuration
        session = Self.makeSession(configuration)
        self.cache = cache
        attachCacheWhenReady()
        // Loaded off the main loop now, so that the first request does not wait for it (see `open`).
        Soup.NetworkSetup.whenLoaded { [weak self] in
            AddressPolicy.systemUsesProxy { [weak self] in self?.usesProxy = $0 }
        }
    }

    static func makeSession(_ configuration: Configuration) -> Soup.Session {
        Soup.Session(.init(
            userAgent: configuration.userAgent,
            maxConnectionsPerHost: Int32(configuration.maxConnectionsPerHost),
            maxConnections: Int32(configuration.maxConnections),
            ioTimeoutSeconds: UInt32(configuration.ioTimeoutSeconds),
            trustedCertificatesFile: configuration.trustedCertificatesFile))
    }

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
    public func abortAll() {
        session.abort()
        for retired in retiredSessions { retired.abort() }
    }

    func httpError(_ error: GLibError) -> HTTPError {
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
