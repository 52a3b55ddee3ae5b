import CGtk
import GObjectBindings

/// The app's one HTTP client: a single libsoup session shared by feeds and images, so connections are kept
/// alive and capped per host across everything the app downloads. Callbacks run on the GLib main loop.
///
/// This file and GObjectBindings' Soup*.swift are the only places that know about libsoup.
@MainActor
public final class HTTPClient {
    public struct Configuration: Sendable {
        public var userAgent: String
        /// libsoup's per-host limit; the image scheduler uses one less, keeping a connection for page requests.
        public var maxConnectionsPerHost: Int
        public var maxConnections: Int
        /// Seconds a request may go without any progress (connect, headers or body) before it fails.
        public var ioTimeoutSeconds: Int

        public init(userAgent: String = HTTPClient.defaultUserAgent, maxConnectionsPerHost: Int = 6,
                    maxConnections: Int = 24, ioTimeoutSeconds: Int = 15) {
            self.userAgent = userAgent
            self.maxConnectionsPerHost = maxConnectionsPerHost
            self.maxConnections = maxConnections
            self.ioTimeoutSeconds = ioTimeoutSeconds
        }
    }

    /// Wikimedia (and good manners) ask clients to say who they are and where to find the project.
    public nonisolated static let defaultUserAgent =
        "GalleryViewer/\(AppVersion.string) (+https://github.com/galleryviewer/gallery-viewer)"

    public let configuration: Configuration
    let session: Soup.Session
    /// Called with each request's URL just before it is sent (for diagnostics and benchmarks).
    public var onRequestStarted: (@MainActor (String) -> Void)?
    private let readChunkBytes = 64 * 1024

    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
        session = Soup.Session(.init(
            userAgent: configuration.userAgent,
            maxConnectionsPerHost: Int32(configuration.maxConnectionsPerHost),
            maxConnections: Int32(configuration.maxConnections),
            ioTimeoutSeconds: UInt32(configuration.ioTimeoutSeconds)))
    }

    /// Fetches `request`. `validate` sees the status and headers before any of the body is read and can
    /// reject the response (a 404, an HTML page where an image was expected) without downloading the body.
    /// `completion` runs exactly once, on the main loop, also after cancellation (with `.cancelled`).
    public func fetch(_ request: HTTPRequest, cancellable: Cancellable,
                      validate: @escaping @MainActor (HTTPResponseHead) -> HTTPError? = { _ in nil },
                      completion: @escaping @MainActor (Result<HTTPResponse, HTTPError>) -> Void) {
        guard let message = Soup.Message(url: request.url) else {
            completion(.failure(.invalidURL(request.url)))
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
                let head = HTTPResponseHead(message)
                if let rejection = validate(head) {
                    stream.close()
                    return completion(.failure(rejection))
                }
                if let length = head.contentLength, length > request.maxBodyBytes {
                    stream.close()
                    return completion(.failure(.tooLarge(limitBytes: request.maxBodyBytes)))
                }
                BodyReader(stream: stream, head: head, limit: request.maxBodyBytes,
                           chunkBytes: self.readChunkBytes, cancellable: cancellable, completion: completion)
                    .readNext { self.httpError($0) }
            }
        }
    }

    /// Cancels everything in flight; each pending fetch completes with `.cancelled`.
    public func abortAll() { session.abort() }

    func httpError(_ error: GLibError) -> HTTPError {
        if error.isCancelled { return .cancelled }
        if error.matches(G_IO_ERROR_TIMED_OUT) { return .timedOut(seconds: configuration.ioTimeoutSeconds) }
        if error.matches(G_IO_ERROR_PARTIAL_INPUT) { return .connectionClosedEarly }
        if error.domain == g_tls_error_quark() {
            // Without glib-networking libsoup has no TLS at all: that is a missing package, not a bad server.
            guard error.code != Int32(G_TLS_ERROR_UNAVAILABLE.rawValue) else {
                return .network("HTTPS is not available: \(error.message) (install glib-networking)")
            }
            return .certificate(error.message)
        }
        if error.domain == g_resolver_error_quark() { return .network("Could not find the server: \(error.message)") }
        return .network(error.message)
    }
}

/// Reads a response body chunk by chunk on the main loop, enforcing the size limit as bytes arrive
/// (Content-Length can be absent or lie).
@MainActor
private final class BodyReader {
    let stream: ReadableStream
    let head: HTTPResponseHead
    let limit: Int
    let chunkBytes: Int
    let cancellable: Cancellable
    let completion: @MainActor (Result<HTTPResponse, HTTPError>) -> Void
    var chunks: [Bytes] = []
    var received = 0

    init(stream: ReadableStream, head: HTTPResponseHead, limit: Int, chunkBytes: Int, cancellable: Cancellable,
         completion: @escaping @MainActor (Result<HTTPResponse, HTTPError>) -> Void) {
        self.stream = stream
        self.head = head
        self.limit = limit
        self.chunkBytes = chunkBytes
        self.cancellable = cancellable
        self.completion = completion
    }

    /// Each read's callback keeps the reader alive until the next read is issued or the body is complete.
    func readNext(mapError: @escaping @MainActor (GLibError) -> HTTPError) {
        stream.read(maxBytes: chunkBytes, cancellable: cancellable) { result in
            switch result {
            case .failure(let error):
                self.completion(.failure(mapError(error)))
            case .success(let chunk) where chunk.count == 0:
                self.stream.close()
                self.completion(.success(HTTPResponse(head: self.head, body: Bytes.joined(self.chunks))))
            case .success(let chunk):
                self.received += chunk.count
                guard self.received <= self.limit else {
                    self.stream.close()
                    return self.completion(.failure(.tooLarge(limitBytes: self.limit)))
                }
                self.chunks.append(chunk)
                self.readNext(mapError: mapError)
            }
        }
    }
}
