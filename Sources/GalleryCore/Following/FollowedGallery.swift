/// One followed gallery as the store keeps it. Times are milliseconds since 1970 (UTC).
public struct FollowedGallery: Equatable, Sendable {
    public var key: Key
    /// What the window shows for it: the username until a check learns the account's own name.
    public var displayName: String
    public var followedAt: Int64
    /// The newest item the last successful check saw (the checker's stopping point), and its time.
    public var lastItemID: String?
    public var lastItemTime: Int64?
    public var lastCheckedAt: Int64?
    /// Why the last check failed, as the window says it ("No such user"); nil after a good one.
    public var lastProblem: String?
    /// New items kept for it (`FollowStore.newItems`); filled by `following()`.
    public var newCount: Int
    /// The account's picture, where its service gives one publicly (an absolute http(s) URL).
    public var avatarURL: String?
    /// What the last good check's first page was answered with, sent back on the next check's request for
    /// that page (`If-None-Match`, `If-Modified-Since`).
    public var validators: HTTPValidators?
    /// What the last lookup of the account resolved (Mastodon's account id, Bluesky's DID and PDS): a check
    /// starts from the request it leads to, without the lookup (`GallerySource.firstRequest(resolved:)`).
    public var resolution: SourceResolution?
    /// The origin (scheme://host[:port]) of the server that lookup asked, and when it ran: an account id is
    /// one server's, and a lookup's answer ages (`usableResolution`).
    public var resolvedOrigin: String?
    public var resolvedAt: Int64?

    public init(key: Key, displayName: String, followedAt: Int64, lastItemID: String? = nil, lastItemTime: Int64? = nil,
                lastCheckedAt: Int64? = nil, lastProblem: String? = nil, newCount: Int = 0, avatarURL: String? = nil,
                validators: HTTPValidators? = nil, resolution: SourceResolution? = nil, resolvedOrigin: String? = nil,
                resolvedAt: Int64? = nil) {
        self.resolution = resolution
        self.resolvedOrigin = resolvedOrigin
        self.resolvedAt = resolvedAt
        self.newCount = newCount
        self.avatarURL = avatarURL
        self.validators = validators
        self.key = key
        self.displayName = displayName
        self.followedAt = followedAt
        self.lastItemID = lastItemID
        self.lastItemTime = lastItemTime
        self.lastCheckedAt = lastCheckedAt
        self.lastProblem = lastProblem
    }

    /// `resolution`, if a check asking `origin` at `now` may start from it: that server's lookup made it, less
    /// than `maxAge` ago (a clock set back makes it due too). Else the check looks the account up again, so a
    /// mirror is never sent another server's account id, and a moved PDS or a new avatar is noticed.
    func usableResolution(origin: String, at now: Int64, maxAge: Int64) -> SourceResolution? {
        guard let resolution, resolvedOrigin == origin, let resolvedAt, now >= resolvedAt, now - resolvedAt < maxAge
        else { return nil }
        return resolution
    }

    /// Which gallery: a source and the username its source searched (`GallerySource.username`), never a link.
    public struct Key: Hashable, Sendable {
        public let source: SourceKind
        public let username: String

        public init(source: SourceKind, username: String) {
            self.source = source
            self.username = username
        }

        /// The spelling two keys of the same user share, so the database's UNIQUE constraint applies the
        /// service's own rule (`ServiceDescriptor.isSameUser`): "Aurora" and "aurora" are one DeviantArt user.
        var identity: String {
            switch source.descriptor.usernameMatching {
            case .ignoringCase: username.lowercased()
            case .exact: username
            case .handleOrDID: username.hasPrefix("did:") ? username : username.lowercased()
            }
        }
    }
}

/// What the store bounds: a damaged file or a runaway caller cannot make it grow without end, and every text
/// read back is as short as the window expects.
public enum FollowLimits {
    /// Ten times the galleries the scale goal checks (500).
    public static let maxGalleries = 5_000
    /// Seen-marks kept per gallery; past it the oldest go. The checker looks only at items newer than a
    /// gallery's last known one, so a mark that old decides nothing.
    public static let maxSeenMarksPerGallery = 10_000
    /// As `RecentGalleries`: longer than any name a source accepts.
    public static let maxUsernameLength = RecentGalleries.maxUsernameLength
    public static let maxDisplayNameLength = 200
    public static let maxProblemLength = 500
    /// An item's identity (a service's id or URL) in UTF-8 bytes; a longer one is refused, never cut, since a
    /// cut identity could match another item.
    public static let maxItemIDBytes = 1_024
    /// New items kept per gallery; past it the oldest go (a gallery that floods cannot crowd out the rest).
    public static let maxNewItemsPerGallery = 1_000
    /// New items read back at most (`newItems`): twice the New view's 10,000-item goal.
    public static let maxNewItems = 20_000
    /// An ETag or Last-Modified kept, in UTF-8 bytes; a longer one is not kept (the next check asks plainly).
    public static let maxValidatorBytes = 1_024
    /// Each part of a resolution kept (an account id, a DID, a PDS's address), in UTF-8 bytes; a longer one is
    /// not kept (the next check looks the account up).
    public static let maxResolutionBytes = 2_048
    /// A packed item kept, in bytes; a bigger one (a hostile feed's) is not kept as new.
    public static let maxPackedItemBytes = 64 * 1_024
}

/// A new item of a followed gallery, as the New view shows it.
public struct FollowedItem: Sendable, Equatable {
    public let gallery: FollowedGallery.Key
    public let galleryName: String
    public let item: GalleryItem
    /// When a check found it, in milliseconds since 1970.
    public let foundAt: Int64

    public init(gallery: FollowedGallery.Key, galleryName: String, item: GalleryItem, foundAt: Int64) {
        self.gallery = gallery
        self.galleryName = galleryName
        self.item = item
        self.foundAt = foundAt
    }
}
