import GObjectBindings

/// The galleries looked at last (source and user), newest first and at most ten: what the username entry
/// offers in its dropdown and as completion. Kept in the state file's `[recent-galleries]` group, one
/// `SOURCE:USERNAME` per item of the `galleries` list.
///
/// Every username is the one the source searched (`GallerySource.username`: "Müller x" for "user:müller_x",
/// "alice@mastodon.social" for "@alice@Mastodon.Social"), never a profile link, and is checked again by the
/// source's own rules when read back: a file edited or damaged by hand yields fewer entries, never a broken
/// one.
public struct RecentGalleries: Equatable, Sendable {
    public static let capacity = 10
    /// Longer than any name a source accepts (a fediverse address is at most 64 + 1 + 253 characters).
    public static let maxUsernameLength = 320
    /// Items of a damaged list looked at before giving up on finding ten good ones.
    static let maxItemsRead = 100

    static let group = "recent-galleries"
    static let key = "galleries"

    /// Newest first, no two for the same user of the same source.
    public private(set) var entries: [RecentSearch]

    public init(_ entries: [RecentSearch] = []) {
        self.entries = []
        for entry in entries.prefix(Self.maxItemsRead) where self.entries.count < Self.capacity {
            if let clean = Self.cleaned(entry), !self.entries.contains(where: { $0.isSameGallery(as: clean) }) {
                self.entries.append(clean)
            }
        }
    }

    public var isEmpty: Bool { entries.isEmpty }

    /// Puts `search` first (moving it up if it was already there, under the spelling searched last) and
    /// lets the oldest go past ten. A search no source would accept is not kept.
    public mutating func remember(_ search: RecentSearch) {
        guard let clean = Self.cleaned(search) else { return }
        entries.removeAll { $0.isSameGallery(as: clean) }
        entries.insert(clean, at: 0)
        if entries.count > Self.capacity { entries.removeLast(entries.count - Self.capacity) }
    }

    public mutating func remove(_ search: RecentSearch) {
        entries.removeAll { $0.isSameGallery(as: search) }
    }

    public mutating func removeAll() { entries.removeAll() }

    /// The entries completion offers for what is typed: each word typed begins the user's name (or one of
    /// its parts between "@", "." and spaces) or the source's name. "ali", "mast" and "ali mast" all find
    /// alice@mastodon.social on Mastodon; nothing typed finds nothing.
    public func matches(_ typed: String) -> [RecentSearch] {
        entries.filter { Self.matches(typed, $0) }
    }

    public static func matches(_ typed: String, _ entry: RecentSearch) -> Bool {
        let words = typed.lowercased().split(whereSeparator: \.isWhitespace)
        guard !words.isEmpty else { return false }
        let user = entry.username.lowercased()
        let parts = [user] + user.split { $0 == "@" || $0 == "." || $0 == " " }.map(String.init)
        let sourceNames = [entry.source.displayName.lowercased(), entry.source.rawValue]
        return words.allSatisfy { word in
            parts.contains { $0.hasPrefix(word) } || sourceNames.contains { $0.hasPrefix(word) }
                || sourceNames.contains { $0.split(separator: " ").contains { $0.hasPrefix(word) } }
        }
    }

    /// Whether a search goes on the list, by what its gallery shows so far.
    public enum Verdict: Equatable, Sendable {
        case remember
        /// The service says the name is wrong: a typo is not history.
        case leaveOut
        /// Nothing is known yet (the first page is on its way, or a rate limit is waited out).
        case undecided
    }

    /// A search is remembered once the service answered for the user — with pictures, an empty gallery, an
    /// account closed or for signed-in people only — or could not be asked (offline, a server error, a feed
    /// the app could not read): the name may well be right, and the user will want to try again from the
    /// list. It is left out when the service says there is no such user or the name is not one it accepts.
    public static func verdict(hasItems: Bool, state: GalleryFeed.State) -> Verdict {
        if hasItems { return .remember }
        switch state {
        case .failed(.noSuchUser), .failed(.invalidUsername), .failed(.unusableLink): return .leaveOut
        case .failed, .finished: return .remember
        case .idle, .loading, .waiting: return .undecided
        }
    }

    /// The entry as its source would search it, or nil when no source would: empty, too long, with control
    /// characters, or not a valid name there.
    static func cleaned(_ search: RecentSearch) -> RecentSearch? {
        let name = search.username.trimmed
        guard !name.isEmpty, name.unicodeScalars.count <= maxUsernameLength, DisplayText.isClean(name),
              case .username = ProfileLink.read(name),
              let source = try? search.source.makeSource(username: name, endpointOverride: nil)
        else { return nil }
        return RecentSearch(source: search.source, username: source.username)
    }

    // MARK: The state file

    /// The list in a key file's text; empty when there is none or it cannot be read.
    static func parse(_ text: String) -> RecentGalleries {
        KeyFile(text: text).map(read) ?? .init()
    }

    static func read(from file: KeyFile) -> RecentGalleries {
        let items = file.stringList(group: group, key: key, limit: maxItemsRead) ?? []
        return RecentGalleries(items.compactMap { item in
            guard let colon = item.firstIndex(of: ":"),
                  let source = SourceKind(rawValue: String(item[..<colon]).trimmed) else { return nil }
            return RecentSearch(source: source, username: String(item[item.index(after: colon)...]))
        })
    }

    func write(into file: KeyFile) {
        file.set(entries.map { "\($0.source.rawValue):\($0.username)" }, group: Self.group, key: Self.key)
        file.setComment(" Recent galleries, newest first (at most \(Self.capacity)): SOURCE:USERNAME.",
                        group: Self.group, key: Self.key)
    }
}

extension RecentSearch {
    /// The same user of the same source, compared as the service compares names (its descriptor's
    /// `usernameMatching`): DeviantArt (and the demo), Mastodon and Misskey addresses and Bluesky handles
    /// ignore case; Commons names, already in MediaWiki's form, and Bluesky DIDs are compared as they are.
    public func isSameGallery(as other: RecentSearch) -> Bool {
        source == other.source && source.descriptor.isSameUser(username, other.username)
    }
}
