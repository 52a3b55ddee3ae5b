import GObjectBindings

/// A request as the core sees it; HTTPClient turns it into a libsoup message.
public struct HTTPRequest: Sendable {
    public var url: String
    public var headers: [String: String]
    /// The response body is abandoned with `HTTPError.tooLarge` beyond this many bytes.
    public var maxBodyBytes: Int
    public var method: String
    /// What is sent (a POST's JSON), with the Content-Type in `headers` (JSON when none is given).
    public var body: String?
    /// False: the client's disk cache neither answers nor stores this request.
    public var usesDiskCache: Bool

    public init(url: String, headers: [String: String] = [:], maxBodyBytes: Int, method: String = "GET",
                body: String? = nil, usesDiskCache: Bool = true) {
        self.url = url
        self.headers = headers
        self.maxBodyBytes = maxBodyBytes
        self.method = method
        self.body = body
        self.usesDiskCache = usesDiskCache
    }
}

/// Status line and headers, available before the body is read.
public struct HTTPResponseHead: Sendable, Equatable, Codable {
    public var status: UInt32
    public var reason: String
    /// The URL the response came from, after redirects.
    public var url: String
    /// Lower-cased header names.
    public var headers: [String: String]
    /// Media type without parameters, lower-cased ("image/jpeg").
    public var mediaType: String?
    public var contentLength: Int?

    public init(status: UInt32, reason: String, url: String, headers: [String: String] = [:],
                mediaType: String? = nil, contentLength: Int? = nil) {
        self.status = status
        self.reason = reason
        self.url = url
        self.headers = headers
        self.mediaType = mediaType
        self.contentLength = contentLength
    }

    public var isSuccess: Bool { (200..<300).contains(status) }
    public var statusLine: String { "HTTP \(status) \(reason)" }
}

public struct HTTPResponse: Sendable {
    public var head: HTTPResponseHead
    public var body: Bytes

    public init(head: HTTPResponseHead, body: Bytes) {
        self.head = head
        self.body = body
    }
}

/// Why a request gave no usable body. `message` is what a row or the window shows.
public enum HTTPError: Error, Equatable, Sendable {
    /// Not an absolute http(s) URL (relative, `data:`, `javascript:`, `ftp:`, malformed).
    case notAWebAddress
    case status(UInt32, String)
    case notAnImage(mediaType: String)
    case tooLarge(limitBytes: Int)
    case timedOut(seconds: Int)
    /// Less than the throughput floor arrived over a window (a drip).
    case tooSlow(minimumBytesPerSecond: Int)
    case connectionClosedEarly
    case certificate(String)
    case network(String)
    /// Not sent, by the client's own rules (`AddressPolicy`, no https → http).
    case refused(Refusal)
    case cancelled

    public enum Refusal: Equatable, Sendable {
        /// The connection would have gone to this address on the user's own network or machine.
        case privateAddress(String)
        /// An https request was redirected to http.
        case insecureRedirect
    }

    public var message: String {
        switch self {
        case .notAWebAddress: tr("Not a web address")
        // The status line as the protocol has it ("HTTP 404 Not Found"): not a sentence to translate.
        case .status(let code, let reason): "HTTP \(code) \(reason)"
        // TRANSLATORS: {type} is a media type such as text/html.
        case .notAnImage(let type): tr("Not an image ({type})", ["type": type])
        case .tooLarge(let limit): tr("Too large (over {megabytes} MB)", ["megabytes": limit / 1_048_576])
        case .timedOut(let seconds): tr("Timed out (no data for {seconds} s)", ["seconds": seconds])
        case .tooSlow(let minimum): tr("Too slow (under {kilobytes} KB/s)", ["kilobytes": max(1, minimum / 1024)])
        case .connectionClosedEarly: tr("Download cut off (connection closed early)")
        // TRANSLATORS: {reason} is the TLS library's explanation.
        case .certificate(let detail): tr("Certificate not trusted: {reason}", ["reason": detail])
        case .network(let detail): detail
        // TRANSLATORS: {address} is an IP address such as 192.168.1.1.
        case .refused(.privateAddress(let address)): tr("Refused: {address} is on a private network, and this gallery is not",
                                                        ["address": address])
        case .refused(.insecureRedirect): tr("Refused: a secure (https) address redirected to an insecure (http) one")
        case .cancelled: tr("Cancelled")
        }
    }
}

extension HTTPError {
    /// The server could not be reached or stopped answering (no network, DNS, refused, timed out): a stored
    /// copy is better than nothing. Not for answers the server did give (statuses, certificates, sizes).
    public var isUnreachable: Bool {
        switch self {
        case .network, .timedOut: true
        default: false
        }
    }
}

extension HTTPRequest {
    /// The same request, asking the disk cache for its copy however stale: libsoup then answers from disk
    /// without asking the server (unless the response said must-revalidate, or there is no copy).
    var askingForStaleCopy: HTTPRequest {
        var stale = self
        stale.headers["Cache-Control"] = "max-stale"
        return stale
    }
}
