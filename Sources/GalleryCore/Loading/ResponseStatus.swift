/// The meaning of a feed response's status, shared by the sources. A 2xx passes; everything else becomes
/// the message the window shows.
enum ResponseStatus {
    static func check(_ head: HTTPResponseHead, service: String, username: String) throws(GalleryError) {
        switch head.status {
        case 200..<300:
            return
        case 404, 410:
            throw .noSuchUser(service: service, username: username)
        case 401:
            throw .signInRequired(service: service)
        case 403:
            throw .refused(service: service, status: head.status)
        case 429:
            throw .rateLimited(service: service, retryAfterSeconds: retryAfterSeconds(head))
        case 500..<600:
            throw .serverError(service: service, status: head.status, reason: head.statusLine)
        default:
            throw .refused(service: service, status: head.status)
        }
    }

    /// Seconds to wait, from `Retry-After` (seconds or an HTTP date), Mastodon's `X-RateLimit-Reset` (an ISO
    /// 8601 time) or `RateLimit-Reset` (Bluesky's: Unix seconds; the IETF draft's: seconds from now).
    static func retryAfterSeconds(_ head: HTTPResponseHead, now: Double = DateText.now()) -> Int? {
        if let value = head.headers["retry-after"]?.trimmed {
            if let seconds = Int(value) { return max(0, seconds) }
            if let date = HTTPResponseHead.parseDate(value) { return max(0, Int((date - now).rounded(.up))) }
        }
        if let reset = head.headers["x-ratelimit-reset"]?.trimmed, let date = DateText.parseISO8601(reset) {
            return max(0, Int((date - now).rounded(.up)))
        }
        if let reset = head.headers["ratelimit-reset"]?.trimmed, let value = Int(reset), value >= 0 {
            // No wait is a billion seconds long: a value that large is a point in time.
            return value > 1_000_000_000 ? max(0, Int((Double(value) - now).rounded(.up))) : value
        }
        return nil
    }
}

extension String {
    /// Without leading and trailing whitespace (Unicode-aware; FoundationEssentials has no trimming).
    public var trimmed: String {
        var scalars = Substring(self).unicodeScalars
        while let first = scalars.first, first.isWhitespaceScalar { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespaceScalar { scalars.removeLast() }
        // Most feed text has nothing to trim: no copy then.
        return scalars.startIndex == startIndex && scalars.endIndex == endIndex ? self : String(scalars)
    }
}
