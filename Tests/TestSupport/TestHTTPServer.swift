import GObjectBindings
import GalleryDemoServer

/// A request as a route handler sees it. Header names are lower-cased.
public struct TestRequest: Sendable {
    public let method: String
    public let path: String
    public let query: [String: String]
    public let headers: [String: String]
    /// The request's body as text (a POST's JSON); empty for none.
    public let body: String

    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// What a route answers: status, headers, body and content type, optionally delayed, throttled, truncated or
/// stalled. Built on the demo server's ServerResponse, so the tests exercise the same fault code.
public struct TestResponse: Sendable {
    public var response: ServerResponse

    public init(status: UInt32 = 200, headers: [String: String] = [:], body: [UInt8],
                contentType: String = "application/octet-stream") {
        self.init(status: status, headers: headers, body: Bytes(body), contentType: contentType)
    }

    /// Serves `body` itself: a body made once is sent on every request without a copy.
    public init(status: UInt32 = 200, headers: [String: String] = [:], body: Bytes,
                contentType: String = "application/octet-stream") {
        response = ServerResponse(status: status, headers: headers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) },
                                contentType: contentType, body: body)
    }

    public static func text(_ text: String, status: UInt32 = 200,
                            contentType: String = "text/plain; charset=utf-8") -> TestResponse {
        TestResponse(status: status, body: Array(text.utf8), contentType: contentType)
    }

    public static func html(_ html: String, status: UInt32 = 200) -> TestResponse {
        .text(html, status: status, contentType: "text/html; charset=utf-8")
    }

    public static func bytes(_ bytes: [UInt8], contentType: String, status: UInt32 = 200) -> TestResponse {
        TestResponse(status: status, body: bytes, contentType: contentType)
    }

    public static func bytes(_ bytes: Bytes, contentType: String, status: UInt32 = 200) -> TestResponse {
        TestResponse(status: status, body: bytes, contentType: contentType)
    }

    /// A redirect with a small HTML body, as real servers send. `location` may be a path on this server.
    public static func redirect(to location: String, status: UInt32 = 302) -> TestResponse {
        TestResponse(.redirect(to: location, status: status))
    }

    public static func status(_ status: UInt32) -> TestResponse {
        .text(Soup.reasonPhrase(for: status), status: status)
    }

    public init(_ response: ServerResponse) { self.response = response }

    /// Waits `milliseconds` (on the main loop) before sending the status line.
    public func delayed(milliseconds: Int) -> TestResponse { TestResponse(response.delayed(milliseconds: milliseconds)) }

    /// Sends the body at about `bytesPerSecond`.
    public func throttled(bytesPerSecond: Int) -> TestResponse {
        TestResponse(response.throttled(bytesPerSecond: bytesPerSecond))
    }

    /// Declares the full Content-Length, sends `afterBytes` (at least 1) and closes the connection:
    /// the client sees a transfer error, never a short body.
    public func truncated(afterBytes: Int) -> TestResponse { TestResponse(response.ending(.truncated(afterBytes: afterBytes))) }

    /// Declares the full Content-Length, sends `afterBytes`, then nothing until the client disconnects.
    public func stalled(afterBytes: Int) -> TestResponse { TestResponse(response.ending(.stalled(afterBytes: afterBytes))) }

    public func header(_ name: String, _ value: String) -> TestResponse {
        var copy = self
        copy.response.headers.append((name, value))
        return copy
    }
}

/// A route-based HTTP server on 127.0.0.1 (a free port) for tests of HTTP and image code. Runs on the GLib main
/// loop: drive it with `iterateMainLoop`. Routes match the exact path; a route ending in "/*" matches every
/// path below it. Unrouted paths get 404.
@MainActor
public final class TestHTTPServer {
    private let http = LocalHTTPServer(serverHeader: "TestHTTPServer")
    private var exactRoutes: [String: @MainActor (TestRequest) -> TestResponse] = [:]
    private var prefixRoutes: [(prefix: String, handler: @MainActor (TestRequest) -> TestResponse)] = []

    public init() throws {
        try http.start { [weak self] message in self?.handle(message) }
    }

    /// "http://127.0.0.1:PORT"
    public var baseURL: String { http.baseURL }
    public func url(_ pathAndQuery: String) -> String { baseURL + pathAndQuery }

    /// Distinct client TCP connections seen.
    public var acceptedConnections: Int { http.acceptedConnections }
    public var requestCount: Int { http.requestCount }
    /// Path and query of every request, in order.
    public var requestLog: [String] { http.requestLog }
    /// Responses still being sent (or stalled); 0 once every client got its answer or went away.
    public var responsesInFlight: Int { http.responsesInFlight }

    /// Forgets the requests and connections counted so far.
    public func resetCounters() { http.resetCounters() }

    public func route(_ path: String, _ handler: @escaping @MainActor (TestRequest) -> TestResponse) {
        if path.hasSuffix("/*") {
            prefixRoutes.append((String(path.dropLast()), handler))
            prefixRoutes.sort { $0.prefix.count > $1.prefix.count }
        } else {
            exactRoutes[path] = handler
        }
    }

    /// Stops listening and drops connections; responses in progress end. Also happens when the server is
    /// released.
    public func stop() { http.stop() }

    private func handle(_ message: Soup.ServerMessage) {
        var headers: [String: String] = [:]
        for header in message.requestHeaders { headers[header.name.lowercased()] = header.value }
        let request = TestRequest(method: message.method, path: message.path, query: message.query, headers: headers,
                                  body: message.requestBody.text)
        let handler = exactRoutes[message.path] ?? prefixRoutes.first { message.path.hasPrefix($0.prefix) }?.handler
        let response = handler?(request) ?? .text("No route for \(message.path)", status: 404)
        ResponseWriter.send(response.response, to: message)
    }
}
