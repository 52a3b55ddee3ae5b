import CGLib
import GObjectBindings

/// The outcome of `fetch`: the response (status, headers, body read to the end) or the transport error that
/// stopped it, which may come after the headers (a truncated or stalled body).
public struct FetchResult {
    public var status: UInt32 = 0
    public var headers: [String: String] = [:]
    public var mediaType: String?
    public var contentLength: Int?
    /// The URL the response came from, after redirects.
    public var finalURL: String = ""
    public var body: [UInt8] = []
    public var error: GLibError?
    /// Seconds from sending to the end of the body (or the error).
    public var elapsed: Double = 0

    public var text: String { String(decoding: body, as: UTF8.self) }
    public var succeeded: Bool { error == nil }
}

/// A session like the app's, with a short I/O timeout so stalled responses end quickly in tests.
@MainActor
public func makeTestSession(ioTimeoutSeconds: UInt32 = 5, maxConnectionsPerHost: Int32 = 2) -> Soup.Session {
    Soup.Session(.init(userAgent: "GalleryViewerTests/1.0", maxConnectionsPerHost: maxConnectionsPerHost,
                       maxConnections: 10, ioTimeoutSeconds: ioTimeoutSeconds))
}

/// Starts a GET (or `method` with a JSON `body`) and reads the body to the end on the main loop; `completion`
/// runs once.
@MainActor
public func startFetch(_ url: String, session: Soup.Session, headers: [String: String] = [:], method: String = "GET",
                       body: String? = nil, completion: @escaping @MainActor (FetchResult) -> Void) {
    FetchOperation(completion: completion).start(url, session: session, headers: headers, method: method, body: body)
}

/// One GET in flight; kept alive by the closures of its pending callbacks.
@MainActor
private final class FetchOperation {
    private var result = FetchResult()
    private let started = g_get_monotonic_time()
    private let cancellable = Cancellable()
    private let completion: @MainActor (FetchResult) -> Void

    init(completion: @escaping @MainActor (FetchResult) -> Void) { self.completion = completion }

    func start(_ url: String, session: Soup.Session, headers: [String: String], method: String, body: String?) {
        guard let message = Soup.Message(method: method, url: url) else {
            return finish(GLibError(domain: gv_io_error_quark(), code: Int32(G_IO_ERROR_INVALID_ARGUMENT.rawValue),
                                    message: "Bad URL \(url)"))
        }
        for (name, value) in headers { message.setRequestHeader(name, value) }
        if let body { message.setRequestBody(Array(body.utf8), contentType: "application/json") }
        session.send(message, cancellable: cancellable) { outcome in
            switch outcome {
            case .failure(let error):
                self.finish(error)
            case .success(let stream):
                self.result.status = message.statusCode
                self.result.mediaType = message.responseMediaType
                self.result.contentLength = message.responseContentLength
                self.result.finalURL = message.url
                for name in ["Content-Type", "Content-Length", "Location", "Server", "Connection", "Link", "ETag",
                             "Last-Modified", "Cache-Control"] {
                    if let value = message.responseHeader(name) { self.result.headers[name] = value }
                }
                self.read(stream)
            }
        }
    }

    private func read(_ stream: ReadableStream) {
        stream.read(maxBytes: 64 * 1024, cancellable: cancellable) { chunk in
            switch chunk {
            case .failure(let error):
                stream.close()
                self.finish(error)
            case .success(let bytes) where bytes.count == 0:
                stream.close()
                self.finish(nil)
            case .success(let bytes):
                self.result.body += bytes.array
                self.read(stream)
            }
        }
    }

    private func finish(_ error: GLibError?) {
        result.error = error
        result.elapsed = Double(g_get_monotonic_time() - started) / 1_000_000
        completion(result)
    }
}

/// Fetches `url` and waits for the whole body (or an error), driving the main loop. Nil on timeout.
@MainActor
public func fetch(_ url: String, session: Soup.Session, headers: [String: String] = [:], method: String = "GET",
                  body: String? = nil, timeout: Double = 60) -> FetchResult? {
    var outcome: FetchResult?
    startFetch(url, session: session, headers: headers, method: method, body: body) { outcome = $0 }
    iterateMainLoop(until: { outcome != nil }, timeout: timeout)
    return outcome
}
