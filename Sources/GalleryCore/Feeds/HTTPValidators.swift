/// A response's validators (RFC 9110 §8.8) for one URL: sent back as `If-None-Match` / `If-Modified-Since` on
/// the next GET of that URL, so an unchanged page costs a 304 without a body.
public struct HTTPValidators: Sendable, Equatable {
    public var url: String
    public var etag: String?
    public var lastModified: String?

    public init(url: String, etag: String?, lastModified: String?) {
        self.url = url
        self.etag = etag
        self.lastModified = lastModified
    }

    /// The validators of `head`, each only if at most `maxBytes` long and free of control characters (they go
    /// back into a header); nil when none is left.
    public init?(url: String, head: HTTPResponseHead, maxBytes: Int) {
        func usable(_ value: String?) -> String? {
            guard let value, !value.isEmpty, value.utf8.count <= maxBytes,
                  !value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return nil }
            return value
        }
        let etag = usable(head.headers["etag"])
        let lastModified = usable(head.headers["last-modified"])
        guard etag != nil || lastModified != nil else { return nil }
        self.init(url: url, etag: etag, lastModified: lastModified)
    }

    /// The conditional headers for a GET of `url`.
    var conditionalHeaders: [String: String] {
        var headers: [String: String] = [:]
        if let etag { headers["If-None-Match"] = etag }
        if let lastModified { headers["If-Modified-Since"] = lastModified }
        return headers
    }
}
