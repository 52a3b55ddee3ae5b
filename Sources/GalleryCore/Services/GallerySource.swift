import GObjectBindings

/// The services a gallery can come from.
public enum SourceKind: String, CaseIterable, Sendable {
    case deviantArt = "deviantart"
    case mastodon
    case commons
    case bluesky
    case misskey
    case demo

    /// The service's name, from its descriptor.
    public var displayName: String { descriptor.displayName() }

    /// What the username entry asks for.
    public var usernamePlaceholder: String { descriptor.usernamePlaceholder() }
}

/// One request in a gallery's sequence of pages. `stage` lets a source tell its kinds of requests apart
/// (Mastodon looks the account up before it lists statuses).
public struct PageRequest: Hashable, Sendable {
    public var url: String
    public var stage: String
    public var headers: [String: String]
    /// "GET", or "POST" for APIs that take their arguments as a JSON body (Misskey).
    public var method: String
    /// The body, sent with the Content-Type in `headers`; nil sends none.
    public var body: String?
    /// What an earlier reply told that this request's parse needs (Bluesky: the author's PDS, where video
    /// files are); never sent.
    public var context: String?
    /// Where the feed goes on when this request fails to bring an answer (no connection, a slow server,
    /// `GalleryFeed.Limits.optionalAnswerMilliseconds` without one): a lookup the gallery can do without. Nil: the
    /// failure is the feed's.
    public var fallback: Fallback?

    /// A request to send instead of a failed optional one. A class, so that `PageRequest` can hold one.
    public final class Fallback: Hashable, Sendable {
        public let request: PageRequest
        public init(_ request: PageRequest) { self.request = request }
        public static func == (lhs: Fallback, rhs: Fallback) -> Bool { lhs.request == rhs.request }
        public func hash(into hasher: inout Hasher) { hasher.combine(request) }
    }

    public init(url: String, stage: String = "page", headers: [String: String] = [:], method: String = "GET",
                body: String? = nil, context: String? = nil, fallback: PageRequest? = nil) {
        self.url = url
        self.stage = stage
        self.headers = headers
        self.method = method
        self.body = body
        self.context = context
        self.fallback = fallback.map(Fallback.init)
    }

    /// What tells two requests apart: the URL, and the method and body when there is a body (Misskey pages by
    /// the body of the same URL). A GET's key is its URL.
    public var key: String {
        guard let body else { return url }
        return "\(method) \(url)\n\(body)"
    }
}

/// What one response yielded: items (possibly none, e.g. after a lookup), the request for the next page, and
/// the owner's public profile and resolution when the reply carries them (an account lookup).
public struct PageResult: Sendable {
    public var items: [GalleryItem]
    public var next: PageRequest?
    public var profile: GalleryProfile?
    /// What a lookup resolved, for `GallerySource.firstRequest(resolved:)` next time.
    public var resolution: SourceResolution?
    /// The reply says the resolution a request of `firstRequest(resolved:)` was made from no longer holds (the
    /// account is gone, or its name is now another account's): the feed starts again from `firstRequest()`,
    /// the lookup, once. `items` and `next` are then ignored.
    public var resolutionIsStale: Bool

    public init(items: [GalleryItem], next: PageRequest?, profile: GalleryProfile? = nil,
                resolution: SourceResolution? = nil, resolutionIsStale: Bool = false) {
        self.items = items
        self.next = next
        self.profile = profile
        self.resolution = resolution
        self.resolutionIsStale = resolutionIsStale
    }

    /// The answer to a request made from a stale resolution.
    public static let staleResolution = PageResult(items: [], next: nil, resolutionIsStale: true)
}

/// What a source's lookup learned that its first page's request is built from: Mastodon's and Misskey's
/// account id, Bluesky's DID and PDS. A followed gallery keeps it, so that a check starts from that request
/// and a gallery with nothing new costs one request (`GallerySource.firstRequest(resolved:)`).
public struct SourceResolution: Sendable, Equatable {
    /// The account's id on the service, as the lookup answered it.
    public var accountID: String
    /// What else the first page's request carries (Bluesky: the account's PDS, where its videos are); nil: nothing.
    public var context: String?

    public init(accountID: String, context: String? = nil) {
        self.accountID = accountID
        self.context = context
    }
}

/// A gallery service for one user: builds requests and parses responses. Pure and synchronous: no network,
/// no widgets, so every quirk is testable with fixtures. One conforming type per service.
public protocol GallerySource: Sendable {
    var kind: SourceKind { get }
    var username: String { get }
    var endpoint: Endpoint { get }
    func firstRequest() -> PageRequest
    /// Parses one response of any status; maps statuses to `GalleryError`s itself, since what a 404 means
    /// depends on the request (a missing user, not a missing page).
    func parse(_ response: HTTPResponse, of request: PageRequest) throws(GalleryError) -> PageResult
    /// The next page's request when a successful reply names it where it is cheap to find (a Link header, a
    /// feed's next link ahead of its items), without the whole parse; nil otherwise. Runs on the main thread,
    /// so it must cost the same whatever the reply's size. A feed that reads every page asks for that page
    /// while this reply is parsed, and uses the answer only if `parse` names the same request.
    func nextRequestAhead(_ response: HTTPResponse, of request: PageRequest) -> PageRequest?
    /// The first page's request built from a resolution an earlier lookup gave (`PageResult.resolution`),
    /// without the lookup; nil when the source has no lookup or cannot use `resolution` (then `firstRequest()`).
    /// Its reply answers `PageResult.staleResolution` when the resolution no longer holds.
    func firstRequest(resolved resolution: SourceResolution) -> PageRequest?
}

extension SourceKind {
    /// Builds the source for `username`, validating it. `endpointOverride` replaces the service's
    /// scheme://host[:port] (mirrors, self-hosted servers, tests); the demo source needs one.
    public func makeSource(username: String, endpointOverride: String?) throws(GalleryError) -> any GallerySource {
        try descriptor.makeSource(username, endpointOverride)
    }
}
