import FoundationEssentials

/// Where a source sends its requests: the service's canonical origin, or an override (a mirror, a self-hosted
/// server, a local test server) that replaces the scheme, host and port.
public struct Endpoint: Hashable, Sendable {
    /// The service's own origin, e.g. "https://backend.deviantart.com".
    public let canonicalOrigin: String
    /// Where requests actually go: the override when there is one, else the canonical origin.
    public let origin: String

    public init(canonical: String, override: String? = nil) {
        canonicalOrigin = canonical
        origin = override.flatMap { URLText.origin(of: $0) } ?? canonical
    }

    public var isOverridden: Bool { origin != canonicalOrigin }

    /// Builds a URL on this endpoint from an already encoded path and query ("/rss.xml?q=...").
    public func url(_ pathAndQuery: String) -> String { origin + pathAndQuery }

    /// Maps a link the service returned (a "next" link) onto this endpoint. Links on the canonical host or on
    /// the override itself are kept on the override; links to any other host are refused (nil), so a feed
    /// cannot send the app to a server the user did not choose.
    public func rebase(_ link: String) -> String? {
        guard let linkOrigin = URLText.origin(of: link) else { return nil }
        guard linkOrigin == origin || linkOrigin == canonicalOrigin,
              var components = URLComponents(string: link), let target = URLComponents(string: origin)
        else { return nil }
        components.scheme = target.scheme
        components.host = target.host
        components.port = target.port
        return components.string
    }
}
