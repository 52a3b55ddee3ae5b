import GObjectBindings
import GalleryDemoServer

/// A deliberately hostile server on 127.0.0.1, for the hostile-input tests and the `hostile` benchmark: feeds
/// in DeviantArt's RSS format (the Demo source reads them) and a Mastodon account, all of which misbehave as
/// `HostileFeed` and `HostileImage` describe. Huge bodies are generated while they are sent, never held.
///
/// Routes: `/rss.xml?q=gallery:NAME[&offset=N]`, `/img/NAME`, `/media/*` (any valid image),
/// `/api/v1/accounts/lookup?acct=zeros`, `/api/v1/accounts/100/statuses`; Bluesky's `/xrpc/…` and Misskey's
/// `POST /api/users/…` for the `HostileSocialFeed` accounts.
@MainActor
public final class HostileServer {
    private let http = LocalHTTPServer(serverHeader: "HostileServer")

    public init() {}

    /// Listens on 127.0.0.1:`port` (0 picks a free port). The bombs and the megabyte documents are built
    /// first (once per process), so no response waits for them.
    public func start(port: UInt16 = 0) throws(GLibError) {
        HostileImages.prepare()
        HostileSVG.prepare()
        HostileFeeds.prepare()
        HostileSocial.prepare()
        try http.start(port: port) { [weak self] message in self?.handle(message) }
    }

    public func stop() { http.stop() }

    public var baseURL: String { http.baseURL }
    public var acceptedConnections: Int { http.acceptedConnections }
    public var requestCount: Int { http.requestCount }
    public var requestLog: [String] { http.requestLog }
    /// Responses still being sent (a stall, a drip, a huge body); 0 once every client is done or gone.
    public var responsesInFlight: Int { http.responsesInFlight }

    public func imageURL(_ image: HostileImage) -> String { baseURL + image.path }

    private func handle(_ message: Soup.ServerMessage) {
        if message.method == "POST" && message.path.hasPrefix("/api/") {
            return ResponseWriter.send(HostileSocial.misskey(path: message.path, body: message.requestBody, baseURL: baseURL),
                                       to: message)
        }
        let url = baseURL + message.path + (message.rawQuery.map { "?" + $0 } ?? "")
        ResponseWriter.send(response(path: message.path, query: message.query, url: url), to: message)
    }

    private func response(path: String, query: [String: String], url: String) -> ServerResponse {
        if path == "/rss.xml" {
            let name = query["q"].map { String($0.dropFirst("gallery:".count)) } ?? ""
            guard let feed = HostileFeed(rawValue: name) else {
                return .html(status: 404, title: "No such user", message: "No such user: \(name).")
            }
            return feedResponse(feed, offset: Int(query["offset"] ?? "") ?? 0, url: url)
        }
        if path.hasPrefix("/img/") {
            // "/img/NAME?anything" is NAME too: the same bomb under a URL of its own.
            guard let image = HostileImage(rawValue: String(path.dropFirst("/img/".count))) else {
                return .html(status: 404, title: "Not Found", message: "No hostile image \(path).")
            }
            return imageResponse(image)
        }
        if path.hasPrefix("/media/") || path == HostileSVG.referencePath { return ServerResponse(contentType: "image/png", body: HostileImages.small) }
        if path.hasPrefix("/xrpc/") {
            return HostileSocial.xrpc(method: String(path.dropFirst("/xrpc/".count)), query: query, baseURL: baseURL)
        }
        if path == "/api/v1/accounts/lookup" {
            guard query["acct"] == HostileFeed.mastodonZerosAccount else {
                return .text(#"{"error":"Record not found"}"#, status: 404, contentType: "application/json")
            }
            return .text(#"{"id":"\#(HostileFeed.mastodonZerosID)","username":"zeros","acct":"zeros"}"#,
                         contentType: "application/json")
        }
        if path == "/api/v1/accounts/\(HostileFeed.mastodonZerosID)/statuses" {
            return .text(HostileFeeds.mastodonZeros, contentType: "application/json")
        }
        return .html(status: 404, title: "Not Found", message: "Nothing lives at \(path).")
    }

    private func feedResponse(_ feed: HostileFeed, offset: Int, url: String) -> ServerResponse {
        switch feed {
        case .rateLimited:
            var response = ServerResponse.text("Slow down", status: 429)
            response.headers.append(("Retry-After", "0"))
            return response
        case .rateLimitedBare:
            return .text("Slow down", status: 429)
        case .html:
            return .text(HostileFeeds.document(feed, baseURL: baseURL, offset: offset, url: url),
                         contentType: "text/html; charset=utf-8")
        default:
            return .text(HostileFeeds.document(feed, baseURL: baseURL, offset: offset, url: url),
                         contentType: "application/rss+xml; charset=utf-8")
        }
    }

    private func imageResponse(_ image: HostileImage) -> ServerResponse {
        let png = "image/png", svg = "image/svg+xml"
        switch image {
        case .notFound: return .html(status: 404, title: "Not Found", message: "Missing on purpose.")
        case .serverError: return .html(status: 500, title: "Internal Server Error", message: "Failing on purpose.")
        case .forbidden: return .html(status: 403, title: "Forbidden", message: "No hotlinking.")
        case .tooManyRequests: return .text("Slow down", status: 429)
        case .tooManyRequestsRetryNow:
            var response = ServerResponse.text("Slow down", status: 429)
            response.headers.append(("Retry-After", "0"))
            return response
        case .html: return .html(title: "Definitely an Image", message: "A web page where an image was expected.")
        case .truncated:
            return ServerResponse(contentType: png, body: HostileImages.noise).ending(.truncated(afterBytes: 4096))
        case .corrupt: return ServerResponse(contentType: png, body: DemoFaults.scrambled(HostileImages.noise, keeping: 8))
        case .empty: return ServerResponse(contentType: png, body: Bytes([]))
        case .redirectLoop: return .redirect(to: imageURL(.redirectLoop))
        case .redirectToFile: return .redirect(to: "file:///etc/passwd")
        case .pngBomb: return ServerResponse(contentType: png, body: HostileImages.pngBomb)
        case .jpegBomb: return ServerResponse(contentType: "image/jpeg", body: HostileImages.jpegBomb)
        case .gifBomb: return ServerResponse(contentType: "image/gif", body: HostileImages.gifBomb)
        case .gifFramesBomb: return ServerResponse(contentType: "image/gif", body: HostileImages.gifFramesBomb)
        case .bmpBomb: return ServerResponse(contentType: "image/bmp", body: HostileImages.bmpBomb)
        case .webpFramesBomb: return ServerResponse(contentType: "image/webp", body: HostileImages.webpFramesBomb)
        case .avifBomb: return ServerResponse(contentType: "image/avif", body: HostileImages.avifBomb)
        case .svgDataBomb: return ServerResponse(contentType: svg, body: HostileSVG.dataBomb)
        case .svgNestedBomb: return ServerResponse(contentType: svg, body: HostileSVG.nestedBomb)
        case .svgExternal: return ServerResponse(contentType: svg, body: HostileSVG.external(baseURL: baseURL))
        case .svgICO: return ServerResponse(contentType: svg, body: HostileSVG.ico)
        case .hugeBody: return .streamed(Self.zeros(total: 500 * 1_048_576, declared: true), contentType: "image/jpeg")
        case .hugeChunkedBody: return .streamed(Self.zeros(total: 500 * 1_048_576, declared: false), contentType: "image/jpeg")
        case .gzipBomb:
            return .streamed(Self.gzippedZeros(total: 1024 * 1_048_576), contentType: "image/png",
                             headers: [("Content-Encoding", "gzip")])
        case .stall: return ServerResponse(contentType: png, body: HostileImages.noise).ending(.stalled(afterBytes: 1024))
        case .reset: return ServerResponse(contentType: png, body: HostileImages.small).ending(.reset)
        case .drip: return ServerResponse(contentType: png, body: HostileImages.noise).throttled(bytesPerSecond: 128)
        case .octetStream: return ServerResponse(contentType: "application/octet-stream", body: HostileImages.small)
        case .valid: return ServerResponse(contentType: png, body: HostileImages.small)
        }
    }

    /// `total` zero bytes in 256 KB chunks, the same chunk every time.
    private static func zeros(total: Int, declared: Bool) -> ServerResponse.Stream {
        ServerResponse.Stream(contentLength: declared ? total : nil) {
            let chunk = Bytes([UInt8](repeating: 0, count: 256 * 1024))
            var remaining = total
            return {
                guard remaining > 0 else { return nil }
                remaining -= chunk.count
                return chunk
            }
        }
    }

    /// `total` zero bytes gzip-compressed as they are sent: about 1 KB on the wire per MB of body.
    private static func gzippedZeros(total: Int) -> ServerResponse.Stream {
        ServerResponse.Stream(contentLength: nil) {
            let compressor = ZlibCompressor(format: .gzip)
            let megabyte = [UInt8](repeating: 0, count: 1_048_576)
            var remaining = total
            var finished = false
            return {
                guard !finished else { return nil }
                var output: [UInt8] = []
                // At least four megabytes of input per chunk (zlib may hold back its output): small on the
                // wire, cheap to make. An empty chunk would end the body.
                var fed = 0
                while !finished && (fed < 4 || output.isEmpty) {
                    if remaining > 0 {
                        output += compressor.compress(megabyte)
                        remaining -= megabyte.count
                        fed += 1
                    } else {
                        output += compressor.compress([], finish: true)
                        finished = true
                    }
                }
                return output.isEmpty ? nil : Bytes(output)
            }
        }
    }
}
