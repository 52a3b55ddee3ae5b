import FoundationEssentials
import GObjectBindings

/// A profile link copied from a browser (or an `at://` URI, or a `@name@server` address), read as the source
/// and username it names. Pure: a link whose server must be asked what it runs (`/@NAME`, shared by Mastodon
/// and Misskey) comes back as `.fediverse`, for `ServerSoftwareLookup`.
///
/// Only absolute http(s) links are read; the host decides the service, never a guess from a name.
public enum ProfileLink: Equatable, Sendable {
    /// A service told by the link itself: the source, and the username in the form its entry takes.
    case profile(SourceKind, username: String)
    /// `https://SERVER/@NAME` or `@NAME@SERVER`: Mastodon and Misskey (and their kin) share these forms.
    /// `server` is the host, lower-cased, with ":port" when the link has one.
    case fediverse(name: String, server: String)

    /// What the text typed or pasted in the username entry (or given on the command line) is.
    public enum Reading: Equatable, Sendable {
        /// A username, not a link: the chosen source reads it.
        case username
        case link(ProfileLink)
        /// A link the app cannot use, with the message that says what it understands.
        case unusable(GalleryError)
    }

    /// Longer than any profile link; a longer text is not read as one.
    static let maxLength = 2048

    public static func read(_ input: String) -> Reading {
        let text = input.trimmed
        guard !text.isEmpty else { return .username }
        if text.lowercased().hasPrefix("at://") { return blueskyURI(text) }
        if let handle = fediverseHandle(text) { return handle }
        guard text.contains("://") || text.contains("/") else { return .username }
        guard text.utf8.count <= maxLength else { return .unusable(unusable(tr("The link is too long."))) }
        guard text.contains("://") else {
            // "www.deviantart.com/someone": the scheme was left out.
            return .unusable(unusable(tr("Paste the whole link, starting with https://.")))
        }
        guard URLText.isWebAddress(text), let components = URLComponents(string: text), var host = components.host?.lowercased()
        else {
            return .unusable(unusable(tr("Only web links (http:// and https://) are read.")))
        }
        if host.hasSuffix(".") { host.removeLast() }
        let segments = components.path.split(separator: "/").map(String.init)
        if let service = SourceKind.owningLinkHost(host), let readLink = service.readLink {
            return readLink(host, components, segments)
        }
        if let first = segments.first, first.hasPrefix("@") {
            let server = components.port.map { "\(host):\($0)" } ?? host
            return fediverse(String(first.dropFirst()), linkServer: server)
        }
        return .unusable(unusable(tr("This link goes to {host}, which is not a profile page the app knows.",
                                     ["host": DisplayText.clean(host, limit: 100)])))
    }

    /// The message for a link the app cannot use: why, then what it understands.
    static func unusable(_ reason: String) -> GalleryError { .unusableLink(reason: reason) }

    // MARK: DeviantArt

    /// First path segments of www.deviantart.com that are pages of the site, not people (its own menus).
    static let deviantArtPages: Set = [
        "about", "core-membership", "daily-deviations", "developers", "join", "notifications", "search", "settings",
        "shop", "status-update", "submit", "tag", "topic", "users", "watch",
    ]

    /// `www.deviantart.com/NAME[/gallery…|/art/…]` and the old `NAME.deviantart.com[/gallery…]`.
    static func deviantArt(host: String, _ segments: [String]) -> Reading {
        let labels = host.split(separator: ".")
        if labels.count == 3, labels[0] != "www" {
            let name = String(labels[0])
            let siteHosts: Set = ["backend", "api", "about", "help", "shop", "sta", "chat", "forum"]
            guard !siteHosts.contains(name) else { return notAProfile(.deviantArt) }
            return .link(.profile(.deviantArt, username: name))
        }
        guard labels.count <= 3, let name = segments.first, !deviantArtPages.contains(name.lowercased()) else {
            return notAProfile(.deviantArt)
        }
        return .link(.profile(.deviantArt, username: name))
    }

    // MARK: Bluesky

    /// `bsky.app/profile/HANDLE|DID[/post/RKEY]`.
    static func blueskyProfile(_ segments: [String]) -> Reading {
        guard segments.count >= 2, segments[0] == "profile", !segments[1].isEmpty else {
            return notAProfile(.bluesky)
        }
        return .link(.profile(.bluesky, username: segments[1]))
    }

    /// `at://HANDLE|DID[/COLLECTION/RKEY]`: the authority names the account. Not a URL the app fetches.
    private static func blueskyURI(_ text: String) -> Reading {
        let rest = text.dropFirst("at://".count)
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard !authority.isEmpty, text.utf8.count <= maxLength,
              let actor = URLText.decodeComponent(String(authority)), !actor.isEmpty else {
            return notAProfile(.bluesky, example: "at://HANDLE")
        }
        return .link(.profile(.bluesky, username: actor))
    }

    // MARK: Wikimedia Commons

    /// `/wiki/User:NAME[/subpage]`, `/wiki/Special:ListFiles/NAME`, `/wiki/Special:ListFiles?user=NAME`, and
    /// the same titles through `/w/index.php?title=…`. URLComponents decodes the percent-encoding of the path
    /// and the query; MediaWiki writes spaces as "_" in paths and "+" in queries.
    static func commons(_ components: URLComponents, _ segments: [String]) -> Reading {
        let query = { (name: String) in
            components.queryItems?.first { $0.name == name }?.value.map { String($0.map { $0 == "+" ? " " : $0 }) }
        }
        var title: String?
        if segments.count >= 2, segments[0] == "wiki" {
            title = segments.dropFirst().joined(separator: "/")
        } else if segments.last == "index.php" {
            title = query("title")
        }
        guard let title, let colon = title.firstIndex(of: ":") else {
            return notAProfile(.commons)
        }
        // Namespaces are case-insensitive and take "_" for a space.
        let namespace = String(title[..<colon].lowercased().map { $0 == "_" ? " " : $0 })
        let rest = title[title.index(after: colon)...]
        var name: Substring?
        switch namespace {
        case "user":
            name = rest.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).first
        case "special":
            let parts = rest.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.first?.lowercased() == "listfiles" else { break }
            name = parts.count == 2 ? parts[1] : query("user").map { Substring($0) }
        default:
            break
        }
        guard let name, !String(name).trimmed.isEmpty else {
            return notAProfile(.commons)
        }
        return .link(.profile(.commons, username: String(name)))
    }

    // MARK: Mastodon, Misskey and their kin

    /// `@NAME@SERVER`, as fediverse addresses are written (not `NAME@SERVER`, which the chosen source reads).
    private static func fediverseHandle(_ text: String) -> Reading? {
        guard text.hasPrefix("@"), !text.contains("/"), !text.contains(where: \.isWhitespace) else { return nil }
        let parts = text.dropFirst().split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { return nil }
        return .link(.fediverse(name: String(parts[0]), server: parts[1].lowercased()))
    }

    /// `/@NAME` on the server of the link, or `/@NAME@OTHER` (a remote account shown there): the account's
    /// own server is the one asked.
    private static func fediverse(_ account: String, linkServer: String) -> Reading {
        let parts = account.split(separator: "@", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), !parts[0].isEmpty, parts.count == 1 || !parts[1].isEmpty else {
            return .unusable(unusable(tr("The link does not name an account.")))
        }
        return .link(.fediverse(name: String(parts[0]), server: parts.count == 2 ? parts[1].lowercased() : linkServer))
    }

    /// `example` defaults to the service's own profile link form.
    private static func notAProfile(_ kind: SourceKind, example: String? = nil) -> Reading {
        let example = example ?? kind.descriptor.profileLinkExample ?? ""
        // TRANSLATORS: {service} is a service's name; {example} a link such as https://bsky.app/profile/HANDLE.
        return .unusable(unusable(tr("This {service} link is not a profile; profile links look like {example}.",
                                     ["service": kind.displayName, "example": example])))
    }
}

extension ProfileLink {
    /// The source and username to search, when the link says (or `declared`, a source the user named, reads
    /// it): nil for a `/@NAME` link without one, whose server must be asked (`ServerSoftwareLookup`). A link
    /// of one service with another declared is refused rather than searched in the wrong place.
    public func target(declared: SourceKind?) -> Result<(source: SourceKind, username: String), GalleryError>? {
        switch self {
        case .profile(let kind, let username):
            // The demo gallery speaks DeviantArt's feed, so it reads DeviantArt's links too.
            guard let declared, declared != kind, !(declared == .demo && kind == .deviantArt) else {
                return .success((declared ?? kind, username))
            }
            return .failure(Self.unusable(tr("This is a {service} link, not one of {chosen}.",
                                             ["service": kind.displayName, "chosen": declared.displayName])))
        case .fediverse(let name, let server):
            guard let declared else { return nil }
            guard declared.descriptor.features.contains(.fediverseAddresses) else {
                return .failure(Self.unusable(tr("This is a Mastodon or Misskey link, not one of {chosen}.",
                                                 ["chosen": declared.displayName])))
            }
            return .success((declared, Self.address(name, server)))
        }
    }

    /// "name@server", the form the Mastodon and Misskey sources read.
    public static func address(_ name: String, _ server: String) -> String { "\(name)@\(server)" }

    /// The server to ask what it runs, for a `/@NAME` link.
    public var server: String? { if case .fediverse(_, let server) = self { server } else { nil } }
}
