import GObjectBindings

/// DeviantArt's public backend RSS feed (Media RSS), no account or key needed:
/// `https://backend.deviantart.com/rss.xml?type=deviation&q=gallery:USERNAME`, paged by the channel's
/// `atom:link rel="next"`. The demo source is the same feed served by the embedded demo server.
public struct DeviantArtSource: GallerySource {
    public static let canonicalOrigin = "https://backend.deviantart.com"

    public let kind: SourceKind
    public let username: String
    public let endpoint: Endpoint

    public init(username: String, endpointOverride: String?, kind: SourceKind = .deviantArt) throws(GalleryError) {
        let name = username.trimmed
        // DeviantArt names are 3–20 letters, digits and hyphens; checking here gives a clear message
        // instead of an empty result for a typo like "john smith".
        guard SourceText.isSafeIdentifier(name) else {
            throw .invalidUsername(reason: tr("{service} usernames contain only letters, digits and hyphens.",
                                              ["service": kind.displayName]))
        }
        self.kind = kind
        self.username = name
        endpoint = Endpoint(canonical: Self.canonicalOrigin, override: endpointOverride)
    }

    public func firstRequest() -> PageRequest {
        let query = URLText.encodeComponent("gallery:\(username)")
        return PageRequest(url: endpoint.url("/rss.xml?type=deviation&q=\(query)"))
    }

    public func parse(_ response: HTTPResponse, of request: PageRequest) throws(GalleryError) -> PageResult {
        // DeviantArt answers 403 when it rate-limits or blocks a client for a while (its staff on the API
        // tracker: clients without a real User-Agent or gzip, IP blocks that come and go); never for a user
        // or a gallery, which would be 404. So it is waited out like a 429, not shown as a failed gallery.
        if response.head.status == 403 {
            throw .refusingForNow(service: serviceName, retryAfterSeconds: ResponseStatus.retryAfterSeconds(response.head))
        }
        try ResponseStatus.check(response.head, service: serviceName, username: username)
        let page: MediaRSSPage
        do {
            page = try MediaRSSParser.parse(response.body, baseURL: response.head.url)
        } catch {
            throw .malformedResponse(service: serviceName,
                                     detail: tr("The feed is not valid XML: {reason}", ["reason": error.message]))
        }
        guard page.channelFound else {
            throw .malformedResponse(service: serviceName, detail: tr("The response is not an RSS feed."))
        }
        var next: PageRequest?
        if let link = page.nextLink, !link.isEmpty {
            next = PageRequest(url: try endpoint.nextPageURL(link, replyURL: response.head.url, service: serviceName))
        }
        return PageResult(items: page.items, next: next, profile: profile(page))
    }

    /// The owner's avatar from the author credits of the page's first item, when that item is theirs
    /// (a gallery's always is). DeviantArt names a user by the username only: no display name.
    private func profile(_ page: MediaRSSPage) -> GalleryProfile? {
        guard let credit = page.firstAuthorAvatar, credit.author.lowercased() == username.lowercased() else { return nil }
        return .fromReply(displayName: nil, avatar: credit.url, endpoint: endpoint)
    }

    /// DeviantArt's channel names its next page before the items (the demo server's too).
    public func nextRequestAhead(_ response: HTTPResponse, of request: PageRequest) -> PageRequest? {
        guard response.head.status == 200,
              let link = MediaRSSParser.nextLinkAheadOfItems(response.body, baseURL: response.head.url), !link.isEmpty,
              let url = try? endpoint.nextPageURL(link, replyURL: response.head.url, service: serviceName)
        else { return nil }
        return PageRequest(url: url)
    }
}
