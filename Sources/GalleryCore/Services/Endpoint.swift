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

    /// Maps a link the service returned (a "next" link) onto this endpoint. Links on the service's canonical
    /// host or on the override itself are the service's own whatever their scheme — DeviantArt writes its next
    /// links as `http://` even to an https request — and a leading "www." or the scheme's default port does not
    /// make a host another one; they are kept on the endpoint (over https to the real service, or on the
    /// override). Links to any other host are refused (nil), so a feed cannot send the app to a server the user
    /// did not choose.
    public func rebase(_ link: String) -> String? {
        guard let site = Self.site(of: link), site == Self.site(of: origin) || site == Self.site(of: canonicalOrigin),
              var components = URLComponents(string: link), let target = URLComponents(string: origin)
        else { return nil }
        components.scheme = target.scheme
        components.host = target.host
        components.port = target.port
        return components.string
    }

    /// Host (lower-cased, without "www.") and port (nil when it is the scheme's default) of an http(s) URL.
    private static func site(of url: String) -> String? {
        guard URLText.isWebAddress(url), let components = URLComponents(string: url), let host = components.host?.lowercased()
        else { return nil }
        let bareHost = host.hasPrefix("www.") ? String(host.dropFirst(4)) : host
        let defaultPort = components.scheme?.lowercased() == "https" ? 443 : 80
        guard let port = components.port, port != defaultPort else { return bareHost }
        return "\(bareHost):\(port)"
    }
}
