import FoundationEssentials

// What every source needs in the same form: the service's name, the checks on names and ids a service
// returns, links made absolute (or refused), and the next page's URL.

extension GallerySource {
    /// The service's name in messages ("DeviantArt", "Mastodon", "Wikimedia Commons", "Demo").
    public var serviceName: String { kind.displayName }

    /// Most replies name their next page only inside what `parse` reads whole (a cursor in JSON).
    public func nextRequestAhead(_ response: HTTPResponse, of request: PageRequest) -> PageRequest? { nil }

    /// Sources without a lookup (DeviantArt, Commons) start from `firstRequest()` every time.
    public func firstRequest(resolved resolution: SourceResolution) -> PageRequest? { nil }
}

enum SourceText {
    /// Letters and digits of ASCII, "-" and "_", `lengths` long: names and ids that can go into a URL path or
    /// query without changing where the request goes ("..", "/", "?" and "%" cannot appear).
    static func isSafeIdentifier(_ text: String, lengths: ClosedRange<Int> = 1...64) -> Bool {
        lengths.contains(text.utf8.count) && text.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_")
        }
    }
}

extension URLText {
    /// URLs longer than this in a feed are not URLs anyone meant.
    static let maxURLBytes = 8192

    /// `text` as an absolute http(s) URL: relative ("/img/a.jpg") and protocol-relative ("//host/a.jpg")
    /// references are resolved against `base` (the URL the reply came from). Nil for anything else — another
    /// scheme (`data:`, `javascript:`, `file:`, `ftp:`), a malformed or empty URL: the app neither fetches nor
    /// opens those.
    static func webURL(_ text: String?, relativeTo base: String?) -> String? {
        guard let text = text?.trimmed, !text.isEmpty, text.utf8.count <= maxURLBytes else { return nil }
        if isWebAddress(text) { return text }
        // Only references without a scheme are resolved; "javascript:x" resolved against a base stays what it is.
        guard !hasScheme(text), let base, let resolved = resolve(text, against: base), isWebAddress(resolved) else {
            return nil
        }
        return resolved
    }

    /// "scheme:" at the start (RFC 3986 §3.1).
    private static func hasScheme(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex else { return false }
        let scheme = text[..<colon]
        return scheme.first!.isASCII && scheme.first!.isLetter
            && scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") }
    }
}

extension Endpoint {
    /// The next page's URL from a "next" link in a reply: resolved against the reply's URL, then moved onto this
    /// endpoint (see `rebase`); a link to another server ends paging with a message.
    func nextPageURL(_ link: String, replyURL: String, service: String) throws(GalleryError) -> String {
        let absolute = URLText.resolve(link, against: replyURL) ?? link
        guard let rebased = rebase(absolute) else {
            throw .foreignLink(service: service, host: URLText.origin(of: absolute) ?? DisplayText.clean(absolute, limit: 100))
        }
        return rebased
    }
}

/// What one reply of posts yielded: the items, and why posts or media were left out — for tests and
/// debugging; the window does not show these.
struct SourcePage {
    /// Reasons kept for skipped posts and media: enough to debug a server, not one per broken entry.
    static let maxSkippedReasons = 20

    var items: [GalleryItem] = []
    /// Why posts or media were left out (at most `maxSkippedReasons`).
    var skipped: [String] = []
    /// Posts and media left out, all of them.
    var skippedCount = 0

    mutating func skip(_ reason: @autoclosure () -> String) {
        skippedCount += 1
        if skipped.count < Self.maxSkippedReasons { skipped.append(reason()) }
    }
}
