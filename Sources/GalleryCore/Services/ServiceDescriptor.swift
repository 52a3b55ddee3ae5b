import FoundationEssentials

/// Everything the app knows about one service, in one place: its name and entry hint, the profile links it
/// reads, how it pages, how it compares usernames, how to build its source, and how it answers for the demo
/// gallery. Each service's folder (Services/<Name>/) holds its descriptor; `SourceKind.descriptor` is the
/// registry, and `ServiceRegistryTests` checks that the parts agree.
public struct ServiceDescriptor: Sendable {
    /// How a gallery's next page is named, as the service's API does it.
    public enum Paging: Sendable, Equatable {
        /// The feed's own `atom:link rel="next"` (an item offset).
        case feedNextLink
        /// The `Link` header's rel="next" (`max_id`).
        case linkHeader
        /// An opaque cursor in the reply.
        case cursor
        /// The id of the last item, sent back as `untilId`.
        case untilID
        /// The reply's `continue` object, merged into the next request.
        case continuation
    }

    /// How two usernames of the service are told to be the same user.
    public enum UsernameMatching: Sendable, Equatable {
        case ignoringCase
        /// Compared as written (already normalised by the source).
        case exact
        /// Handles ignore case; DIDs are compared as written.
        case handleOrDID
    }

    /// What the service's users see besides their images.
    public struct Features: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// Descriptions written for each picture.
        public static let altText = Features(rawValue: 1 << 0)
        /// Video (or audio) items, which open in the browser.
        public static let video = Features(rawValue: 1 << 1)
        /// Items flagged adult or sensitive by the service or the author.
        public static let sensitiveFlags = Features(rawValue: 1 << 2)
        /// `@NAME@SERVER` addresses and `https://SERVER/@NAME` links name its users.
        public static let fediverseAddresses = Features(rawValue: 1 << 3)
    }

    /// How `ProfileLink` reads a link on one of `linkHosts`.
    public typealias LinkReader = @Sendable (_ host: String, _ components: URLComponents, _ segments: [String])
        -> ProfileLink.Reading
    public typealias SourceBuilder = @Sendable (_ username: String, _ endpointOverride: String?)
        throws(GalleryError) -> any GallerySource

    public let kind: SourceKind
    /// The name shown in the source picker and in messages ("{service} is not responding").
    public let displayName: @Sendable () -> String
    /// What the empty username entry asks for.
    public let usernamePlaceholder: @Sendable () -> String
    /// Hosts whose links are this service's profile links (lower case); `linkSubdomains` adds every host
    /// under the first one.
    public let linkHosts: [String]
    public let linkSubdomains: Bool
    /// A profile link with NAME (HANDLE for Bluesky) where the username goes, as the "not a profile" message shows it; nil when
    /// the service has no links of its own.
    public let profileLinkExample: String?
    public let readLink: LinkReader?
    public let paging: Paging
    public let usernameMatching: UsernameMatching
    public let features: Features
    /// NodeInfo software names (lower case) of servers that answer this service's API.
    public let serverSoftware: Set<String>
    public let makeSource: SourceBuilder
    /// The username under which the demo server answers for demo user `name` in this service's API.
    public let demoUsername: @Sendable (_ name: String) -> String
    /// The libFuzzer target (Tests/Fuzz/<name>) for the parser of this service's replies, and the folder of
    /// recorded replies under data/fixtures that seeds it; nil for a service that reuses another's parser.
    public let fuzzTarget: String?
    public let fixtureFolder: String?

    public init(kind: SourceKind, displayName: @escaping @Sendable () -> String,
                usernamePlaceholder: @escaping @Sendable () -> String,
                linkHosts: [String] = [], linkSubdomains: Bool = false, profileLinkExample: String? = nil,
                readLink: LinkReader? = nil, paging: Paging, usernameMatching: UsernameMatching, features: Features,
                serverSoftware: Set<String> = [], makeSource: @escaping SourceBuilder,
                demoUsername: @escaping @Sendable (String) -> String, fuzzTarget: String?, fixtureFolder: String?) {
        self.kind = kind
        self.displayName = displayName
        self.usernamePlaceholder = usernamePlaceholder
        self.linkHosts = linkHosts
        self.linkSubdomains = linkSubdomains
        self.profileLinkExample = profileLinkExample
        self.readLink = readLink
        self.paging = paging
        self.usernameMatching = usernameMatching
        self.features = features
        self.serverSoftware = serverSoftware
        self.makeSource = makeSource
        self.demoUsername = demoUsername
        self.fuzzTarget = fuzzTarget
        self.fixtureFolder = fixtureFolder
    }

    /// Whether a link on `host` (lower case, no trailing dot) is one of this service's.
    public func ownsLinkHost(_ host: String) -> Bool {
        linkHosts.contains(host) || (linkSubdomains && linkHosts.first.map { host.hasSuffix("." + $0) } == true)
    }

    /// Whether two usernames name the same user of this service.
    public func isSameUser(_ a: String, _ b: String) -> Bool {
        switch usernameMatching {
        case .ignoringCase: a.lowercased() == b.lowercased()
        case .exact: a == b
        case .handleOrDID: a.hasPrefix("did:") || b.hasPrefix("did:") ? a == b : a.lowercased() == b.lowercased()
        }
    }
}

/// The registry: one line per service. A new `SourceKind` case does not compile until it has one.
extension SourceKind {
    public var descriptor: ServiceDescriptor {
        switch self {
        case .deviantArt: DeviantArtService.descriptor
        case .mastodon: MastodonService.descriptor
        case .commons: CommonsService.descriptor
        case .bluesky: BlueskyService.descriptor
        case .misskey: MisskeyService.descriptor
        case .demo: DemoService.descriptor
        }
    }

    /// Every service's descriptor, in the source picker's order.
    public static var descriptors: [ServiceDescriptor] { allCases.map(\.descriptor) }

    /// The service whose profile links live on `host`.
    static func owningLinkHost(_ host: String) -> ServiceDescriptor? {
        descriptors.first { $0.readLink != nil && $0.ownsLinkHost(host) }
    }
}

/// The suffix of the demo server's made-up domain; ".test" is reserved for testing (RFC 2606), so no real
/// account is ever named. The demo server's Bluesky handles and fediverse addresses use it.
public enum DemoDomain {
    public static let name = "demo.test"
}
