import GObjectBindings

/// Validators on the demo's feed pages where the real service sends them, so that a client's conditional
/// request (`If-None-Match`, `If-Modified-Since`) is answered 304 without a body, as there:
/// - Mastodon's statuses: an ETag (Rails' Rack::ETag, a digest of the body), 304 on a match;
/// - Bluesky's author feed: an ETag (Express's default, which the AppView's xrpc-server answers through), 304
///   on a match.
/// DeviantArt's RSS carries neither ETag nor Last-Modified (feed readers' reports), Commons' query API none
/// (MediaWiki's query module gives no conditional data), and Misskey's API is POST: those pages get none.
///
/// The demo's ETag is strong, an FNV-1a digest of the page, so it changes whenever the gallery grows (the new
/// upload is on the page) and never while the bytes stay the same; Last-Modified is the gallery's newest upload.
/// `If-None-Match` wins over `If-Modified-Since` (RFC 9110 §13.2.2); a date matches only exactly, as nginx's
/// default does: the client sends back what it was given.
enum DemoValidators {
    /// `response` with an ETag of its body and, with `newest` (seconds since 1970), a Last-Modified; only a 200.
    static func validated(_ response: ServerResponse, newest: Int?) -> ServerResponse {
        guard response.status == 200, response.stream == nil else { return response }
        var copy = response
        copy.headers.append(("ETag", etag(of: response.body)))
        // Stale at once: a disk cache keeps the page but asks again, with the validators, before each use (a
        // Last-Modified alone would let it guess the page fresh for weeks, and miss the growth).
        copy.headers.append(("Cache-Control", "max-age=0"))
        if let newest { copy.headers.append(("Last-Modified", RFC822Date.format(secondsSince1970: newest))) }
        return copy
    }

    /// 304 Not Modified, without a body, when the request's conditions match `response`'s validators; else
    /// `response` as it is.
    static func answer(_ response: ServerResponse, ifNoneMatch: String?, ifModifiedSince: String?) -> ServerResponse {
        guard response.status == 200 else { return response }
        let etag = header("ETag", of: response)
        let lastModified = header("Last-Modified", of: response)
        let unchanged: Bool
        if let ifNoneMatch {
            unchanged = etag.map { matches(ifNoneMatch, $0) } ?? false
        } else if let ifModifiedSince, let lastModified {
            unchanged = ifModifiedSince.trimmingSpaces == lastModified
        } else {
            unchanged = false
        }
        guard unchanged else { return response }
        // What a 304 repeats of the 200 it stands for (RFC 9110 §15.4.5).
        let kept = response.headers.filter { ["etag", "last-modified", "cache-control"].contains($0.name.lowercased()) }
        return ServerResponse(status: 304, headers: kept, contentType: response.contentType, body: Bytes([]))
    }

    /// `"<16 hex digits>"`: FNV-1a (64 bits) of the bytes.
    static func etag(of body: Bytes) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        body.withUnsafeBytes { bytes in
            for byte in bytes {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01B3
            }
        }
        let hex = String(hash, radix: 16)
        return "\"" + String(repeating: "0", count: 16 - hex.count) + hex + "\""
    }

    /// The weak comparison `If-None-Match` asks for: any listed tag, "W/" or not, or "*".
    private static func matches(_ ifNoneMatch: String, _ etag: String) -> Bool {
        let opaque = { (tag: Substring) in tag.hasPrefix("W/") ? tag.dropFirst(2) : tag }
        let ours = opaque(Substring(etag))
        return ifNoneMatch.split(separator: ",").contains { listed in
            let tag = Substring(listed.trimmingSpaces)
            return tag == "*" || opaque(tag) == ours
        }
    }

    private static func header(_ name: String, of response: ServerResponse) -> String? {
        response.headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

extension StringProtocol {
    /// Without the spaces and tabs HTTP allows around a header value's parts.
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
