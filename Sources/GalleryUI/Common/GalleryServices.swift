import GalleryCore

/// What the window needs from the app: the shared HTTP client and image pipeline, and how to build a source
/// for a search (the app decides endpoints, e.g. the embedded demo server's address).
@MainActor
public struct GalleryServices {
    public let client: HTTPClient
    public let pipeline: ImagePipeline
    /// Sources in the order the selector lists them.
    public let sources: [SourceKind]
    public let makeSource: @MainActor (SourceKind, String) throws(GalleryError) -> any GallerySource
    /// What a feed's replies may cost (page size, rate-limit waits, empty pages); tests shorten the waits.
    public let feedLimits: GalleryFeed.Limits
    /// Where each gallery's first page is kept for a launch without network; nil keeps nothing.
    public let snapshots: FeedSnapshotStore?
    /// Where the server of a `/@NAME` link is asked what it runs: an endpoint override that stands for every
    /// server (tests, mirrors), or nil for the server itself. Asked at each search: a later launch can change it.
    public let serverLookupOrigin: @MainActor () -> String?
    /// The state file, whose recent galleries the username entry offers and keeps up to date; nil keeps none.
    public let stateFile: RecentSearchStore?
    /// The followed galleries and their checker; nil: the window offers no following (most UI tests).
    public let following: (store: FollowStore, checker: FollowChecker)?
    /// The endpoint override of each source, if any: where exported feed links point (tests, mirrors).
    public let endpointOverride: @MainActor (SourceKind) -> String?

    public init(client: HTTPClient, pipeline: ImagePipeline, sources: [SourceKind] = SourceKind.allCases,
                feedLimits: GalleryFeed.Limits = .init(), snapshots: FeedSnapshotStore? = nil,
                serverLookupOrigin: @escaping @MainActor () -> String? = { nil }, stateFile: RecentSearchStore? = nil,
                following: (store: FollowStore, checker: FollowChecker)? = nil,
                endpointOverride: @escaping @MainActor (SourceKind) -> String? = { _ in nil },
                makeSource: @escaping @MainActor (SourceKind, String) throws(GalleryError) -> any GallerySource) {
        self.client = client
        self.serverLookupOrigin = serverLookupOrigin
        self.stateFile = stateFile
        self.following = following
        self.endpointOverride = endpointOverride
        self.pipeline = pipeline
        self.sources = sources
        self.feedLimits = feedLimits
        self.snapshots = snapshots
        self.makeSource = makeSource
    }
}
