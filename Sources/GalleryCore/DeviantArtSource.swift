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
        guard (1...64).contains(name.count),
              name.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_") })
        else {
            throw .invalidUsername(reason: "\(kind.displayName) usernames contain only letters, digits and hyphens.")
        }
        self.kind = kind
        self.username = name
        endpoint = Endpoint(canonical: Self.canonicalOrigin, override: endpointOverride)
    }

    private var serviceName: String { kind.displayName }

    public func firstRequest() -> PageRequest {
        let query = URLText.encodeComponent("gallery:\(username)")
        return PageRequest(url: endpoint.url("/rss.xml?type=deviation&q=\(query)"))
    }

    public func parse(_ response: HTTPResponse, of request: PageRequest) throws(GalleryError) -> PageResult {
        try ResponseStatus.check(response.head, service: serviceName, username: username)
        let page: MediaRSSPage
        do {
            page = try MediaRSSParser.parse(response.body)
        } catch {
            throw .malformedResponse(service: serviceName, detail: "The feed is not valid XML: \(error.message)")
        }
        guard page.channelFound else {
            throw .malformedResponse(service: serviceName, detail: "The response is not an RSS feed.")
        }
        var next: PageRequest?
        if let link = page.nextLink, !link.isEmpty {
            let absolute = URLText.resolve(link, against: response.head.url) ?? link
            guard let rebased = endpoint.rebase(absolute) else {
                throw .foreignLink(service: serviceName, host: URLText.origin(of: absolute) ?? absolute)
            }
            next = PageRequest(url: rebased)
        }
        return PageResult(items: page.items, next: next)
    }
}
