import CGLib
import FoundationEssentials
import GObjectBindings

/// A gallery's public feed and profile page, as the OPML export writes them, and the way back: which gallery
/// a feed reader's feed or profile link names.
///
/// The feeds (research-28 §2): DeviantArt's backend RSS (the feed the source reads), Mastodon's
/// `/@USER/media.rss` (media posts only, which is what the gallery shows; `/@USER.rss` would add text posts),
/// Misskey's `/@USER.rss`, Bluesky's `https://bsky.app/profile/HANDLE/rss` (the handle the user followed; the
/// site redirects it to the DID form). Wikimedia Commons has no uploads feed: its list gets the nearest
/// official one, the user's new File pages (`action=feedcontributions`), with a description saying it is an
/// approximation, so that a feed reader can still take the entry.
enum FollowOpmlLinks {
    struct Links: Equatable {
        var feed: String?
        var profile: String?
        /// Said in the outline's `description` where the feed is not quite the gallery.
        var note: String?
    }

    /// The links of `key`'s gallery on the source's endpoint (`override` replaces the service's origin, as
    /// it does for the source). Nil links where none can be made: a demo gallery without a demo server
    /// address, or a username the source refuses.
    static func links(for key: FollowedGallery.Key, endpointOverride override: String?) -> Links {
        if key.source == .demo && override == nil { return Links() }
        guard let source = try? key.source.makeSource(username: key.username, endpointOverride: override) else {
            return Links()
        }
        let endpoint = source.endpoint
        switch source {
        case let mastodon as MastodonSource:
            let profile = endpoint.url("/@" + segment(mastodon.user))
            return Links(feed: profile + "/media.rss", profile: profile)
        case let misskey as MisskeySource:
            let profile = endpoint.url("/@" + segment(misskey.user))
            return Links(feed: profile + ".rss", profile: profile)
        case let commons as CommonsSource:
            let user = URLText.encodeComponent(commons.username)
            let title = segment(String(commons.username.map { $0 == " " ? "_" : $0 }))
            return Links(feed: endpoint.url("/w/api.php?action=feedcontributions&user=\(user)&namespace=6&newonly=1&feedformat=atom"),
                         profile: endpoint.url("/wiki/User:" + title),
                         note: "The files \(commons.username) created on Wikimedia Commons: close to their uploads, since Commons has no uploads feed.")
        case is BlueskySource:
            // The API's host is not the site's: bsky.app serves the feed, unless an override stands for both.
            let site = endpoint.isOverridden ? endpoint.origin : "https://bsky.app"
            let profile = site + "/profile/" + segment(source.username)
            return Links(feed: profile + "/rss", profile: profile)
        default:
            // DeviantArt, and the demo server's copy of its feed: the very request the source makes.
            let profile = endpoint.isOverridden ? nil : "https://www.deviantart.com/" + segment(source.username)
            return Links(feed: source.firstRequest().url, profile: profile)
        }
    }

    /// One path segment, percent-encoded, keeping the ":" and "@" that DIDs and addresses have (RFC 3986 allows
    /// both in a segment).
    private static func segment(_ text: String) -> String {
        guard let escaped = g_uri_escape_string(text, ":@", 0) else { return "" }
        defer { g_free(escaped) }
        return String(cString: escaped)
    }

    // MARK: The way back

    enum Recognised: Equatable {
        case gallery(SourceKind, username: String)
        /// A `/@NAME` feed or link that Mastodon and Misskey share.
        case fediverse(name: String, server: String)
    }

    /// The gallery `url` (a feed or a profile page) names, if a service the app knows has it.
    static func recognise(_ url: String) -> Recognised? {
        let text = url.trimmed
        guard text.utf8.count <= ProfileLink.maxLength, URLText.isWebAddress(text),
              let components = URLComponents(string: text), var host = components.host?.lowercased()
        else { return nil }
        if host.hasSuffix(".") { host.removeLast() }
        let segments = components.path.split(separator: "/").map(String.init)
        let query = { (name: String) in components.queryItems?.first { $0.name == name }?.value }
        if host == "backend.deviantart.com", segments == ["rss.xml"], let search = query("q") {
            return deviantArtFeed(search)
        }
        if SourceKind.commons.descriptor.ownsLinkHost(host), segments.last == "api.php",
           query("action") == "feedcontributions", let user = query("user"), !user.trimmed.isEmpty {
            return .gallery(.commons, username: user)
        }
        if SourceKind.owningLinkHost(host) == nil, let account = fediverseFeed(segments) {
            let server = components.port.map { "\(host):\($0)" } ?? host
            return account.mastodonOnly ? .gallery(.mastodon, username: ProfileLink.address(account.name, server))
                : .fediverse(name: account.name, server: server)
        }
        guard case .link(let link) = ProfileLink.read(text) else { return nil }
        switch link {
        case .profile(let kind, let username): return .gallery(kind, username: username)
        case .fediverse(let name, let server): return .fediverse(name: name, server: server)
        }
    }

    /// `q=gallery:USER[/FOLDER]` (a gallery or one of its folders) and `q=by:USER` (everything the user posted).
    private static func deviantArtFeed(_ search: String) -> Recognised? {
        for prefix in ["gallery:", "by:"] where search.lowercased().hasPrefix(prefix) {
            let name = search.dropFirst(prefix.count).prefix { $0 != "/" }
            return name.isEmpty ? nil : .gallery(.deviantArt, username: String(name))
        }
        return nil
    }

    /// The account of a Mastodon or Misskey feed: `/@NAME.rss` (both), `/@NAME/media.rss`, `/@NAME/tagged/TAG.rss`
    /// and `/users/NAME.rss` (Mastodon's routes only), `/@NAME.atom` and `/@NAME.json` (Misskey's, but read as
    /// shared: an unknown server's `.atom` is not proof enough).
    private static func fediverseFeed(_ segments: [String]) -> (name: String, mastodonOnly: Bool)? {
        if segments.count == 2, segments[0] == "users", let name = strippingFeedExtension(segments[1], only: [".rss"]) {
            return (name, true)
        }
        guard let first = segments.first, first.hasPrefix("@"), first.count > 1 else { return nil }
        let account = String(first.dropFirst())
        // "@NAME@OTHER" is a remote account's page on this server: the link reader sends it to its own server.
        guard !account.contains("@") else { return nil }
        if segments.count == 1 {
            return strippingFeedExtension(account, only: [".rss", ".atom", ".json"]).map { ($0, false) }
        }
        if segments == ["@" + account, "media.rss"] || (segments.count == 3 && segments[1] == "tagged") {
            return (account, true)
        }
        return nil
    }

    private static func strippingFeedExtension(_ name: String, only extensions: [String]) -> String? {
        for suffix in extensions where name.lowercased().hasSuffix(suffix) && name.count > suffix.count {
            return String(name.dropLast(suffix.count))
        }
        return nil
    }
}
