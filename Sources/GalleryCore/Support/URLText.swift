import CGLib
import FoundationEssentials
import GObjectBindings

/// Small URL helpers shared by the sources: parsing, percent-encoding of user input, and rebasing links onto
/// an endpoint override.
public enum URLText {
    /// Percent-encodes `text` for use as one query value or one path segment: everything but unreserved
    /// characters is escaped, so user input can never add a parameter, a path segment or change the host.
    public static func encodeComponent(_ text: String) -> String {
        takeString(g_uri_escape_string(text, nil, 0)) ?? ""
    }

    /// Decodes percent-escapes ("did%3Aplc%3A…" → "did:plc:…"); nil for a malformed escape or one that decodes
    /// to a NUL byte or to text that is not UTF-8.
    public static func decodeComponent(_ text: String) -> String? {
        guard let decoded = g_uri_unescape_string(text, nil) else { return nil }
        defer { g_free(decoded) }
        return String(validatingCString: decoded)
    }

    /// The decoded last path segment ("a%20b.jpg" → "a b.jpg"), nil when the URL has no path.
    public static func lastPathSegment(of url: String) -> String? {
        guard let components = URLComponents(string: url) else { return nil }
        return components.path.split(separator: "/").last.map(String.init)
    }

    /// "scheme://host[:port]" of an absolute http(s) URL, lower-cased; nil for anything else.
    public static func origin(of url: String) -> String? {
        // Asked several times for every request (the scheduler's host, the address policy): most URLs are
        // plain enough to read directly; anything else is left to the full parser, whose answer is the rule.
        if case .decided(let origin) = PlainURL.origin(of: url) { return origin }
        return parsedOrigin(of: url)
    }

    /// `origin(of:)` by Foundation's RFC 3986 parser.
    static func parsedOrigin(of url: String) -> String? {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty
        else { return nil }
        let port = components.port.map { ":\($0)" } ?? ""
        return "\(scheme)://\(host.lowercased())\(port)"
    }

    /// An absolute http(s) URL with a host: the only kind the app fetches or opens.
    public static func isWebAddress(_ url: String) -> Bool { origin(of: url) != nil }

    /// The value of query parameter `name`, decoded.
    public static func queryValue(_ name: String, in url: String) -> String? {
        URLComponents(string: url)?.queryItems?.first { $0.name == name }?.value
    }

    /// Resolves a possibly relative reference against `base`.
    public static func resolve(_ reference: String, against base: String) -> String? {
        guard let baseURL = URL(string: base), let resolved = URL(string: reference, relativeTo: baseURL) else {
            return nil
        }
        return resolved.absoluteString
    }
}

