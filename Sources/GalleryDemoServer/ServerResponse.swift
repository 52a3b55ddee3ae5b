import GObjectBindings

/// A response to send, including how to send it: after a delay, at a limited rate, or broken on purpose.
/// `ResponseWriter` carries it out. Shared by the demo server and the tests' TestHTTPServer.
public struct ServerResponse: Sendable {
    /// How the body ends. The declared Content-Length is always the full body.
    public enum Ending: Sendable, Equatable {
        /// The whole body is sent.
        case complete
        /// That many bytes are sent, then the connection is closed: the client sees a transfer error.
        case truncated(afterBytes: Int)
        /// That many bytes are sent, then nothing until the client disconnects.
        case stalled(afterBytes: Int)
        /// The connection is closed before anything is sent.
        case reset
    }

    /// A body made chunk by chunk as the client reads it, so a server can send far more than it could hold
    /// (a 500 MB image, a gzip bomb). `makeChunks` is called once per response and returns the generator,
    /// which returns nil at the end.
    public struct Stream: Sendable {
        /// The declared Content-Length; nil sends the body chunked.
        public var contentLength: Int?
        public var makeChunks: @MainActor @Sendable () -> (@MainActor () -> Bytes?)

        public init(contentLength: Int?, makeChunks: @escaping @MainActor @Sendable () -> (@MainActor () -> Bytes?)) {
            self.contentLength = contentLength
            self.makeChunks = makeChunks
        }
    }

    public var status: UInt32
    /// Extra headers (Location, Cache-Control, ...). Content-Type and Content-Length are set from the body.
    public var headers: [(name: String, value: String)]
    public var contentType: String
    public var body: Bytes
    /// Milliseconds to wait before the status line is sent.
    public var latencyMilliseconds: Int = 0
    /// Body rate limit; nil or 0 sends at full speed.
    public var bytesPerSecond: Int? = nil
    public var ending: Ending = .complete
    /// When set, the body comes from here instead of `body`.
    public var stream: Stream? = nil

    public init(status: UInt32 = 200, headers: [(name: String, value: String)] = [], contentType: String,
                body: Bytes) {
        self.status = status
        self.headers = headers
        self.contentType = contentType
        self.body = body
    }

    public static func text(_ text: String, status: UInt32 = 200,
                            contentType: String = "text/plain; charset=utf-8") -> ServerResponse {
        ServerResponse(status: status, contentType: contentType, body: Bytes(text))
    }

    /// A small HTML page; `title` and `message` are escaped.
    public static func html(status: UInt32 = 200, title: String, message: String) -> ServerResponse {
        .text(HTMLPage.render(title: title, body: "<p>\(XMLEscaping.html(message))</p>"), status: status,
              contentType: "text/html; charset=utf-8")
    }

    /// A redirect with a small HTML body naming the target, like real servers send.
    public static func redirect(to location: String, status: UInt32 = 302) -> ServerResponse {
        var response = ServerResponse.text(
            HTMLPage.render(title: "Moved", body: "<p>Moved to <a href=\"\(XMLEscaping.html(location))\">"
                                + "\(XMLEscaping.html(location))</a>.</p>"),
            status: status, contentType: "text/html; charset=utf-8")
        response.headers.append(("Location", location))
        return response
    }

    /// A body generated while it is sent; see `Stream`.
    public static func streamed(_ stream: Stream, status: UInt32 = 200, contentType: String,
                                headers: [(name: String, value: String)] = []) -> ServerResponse {
        var response = ServerResponse(status: status, headers: headers, contentType: contentType, body: Bytes([]))
        response.stream = stream
        return response
    }

    public func delayed(milliseconds: Int) -> ServerResponse {
        var copy = self
        copy.latencyMilliseconds = max(0, milliseconds)
        return copy
    }

    public func throttled(bytesPerSecond: Int?) -> ServerResponse {
        var copy = self
        copy.bytesPerSecond = bytesPerSecond.flatMap { $0 > 0 ? $0 : nil }
        return copy
    }

    public func ending(_ ending: Ending) -> ServerResponse {
        var copy = self
        copy.ending = ending
        return copy
    }
}

/// Minimal HTML documents for error pages, redirects and the demo's item pages.
public enum HTMLPage {
    /// `title` is escaped; `body` is trusted markup the caller escaped.
    public static func render(title: String, body: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><title>\(XMLEscaping.html(title))</title></head>
        <body><h1>\(XMLEscaping.html(title))</h1>
        \(body)
        </body></html>

        """
    }
}
