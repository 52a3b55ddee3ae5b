import GObjectBindings

/// Fetches a gallery's pages one at a time and hands their items over. Guards against feeds that never end
/// (a repeated or endless "next" link, pages without items), honours rate limits by waiting — a bounded number
/// of times, backing off — and turns every failure into a `GalleryError` for the window. Pages are parsed on a
/// GTask worker thread: a hostile reply can take a parser a while, never the main loop.
///
/// Each `loadNextPage` is a `PageLoad`, which owns that page's request, `deliver`, request in flight and timers.
/// What spans pages are collaborators the loads share: `PagingGuard`, `RateLimitBackoff`, `ReadAhead`,
/// `OfflineCopy`; a load hands its items over through `SlicedDelivery`.
@MainActor
public final class GalleryFeed {
    public enum State: Equatable, Sendable {
        /// More pages may follow; nothing in flight.
        case idle
        case loading(page: Int)
        /// Rate limited; the same request is retried by itself after the wait.
        case waiting(page: Int, seconds: Int)
        case finished
        case failed(GalleryError)
    }

    public let source: any GallerySource
    public internal(set) var state: State = .idle {
        didSet {
            guard state != oldValue else { return }
            // A feed that ended wants no page it asked for ahead.
            switch state {
            case .finished, .failed: readAhead.drop()
            case .idle, .loading, .waiting: break
            }
            onStateChange?()
        }
    }
    public internal(set) var pagesLoaded = 0
    public internal(set) var itemsDelivered = 0
    /// The account's public name and picture, from the first reply that carried them (`PageResult.profile`).
    public internal(set) var profile: GalleryProfile?
    /// What the feed's lookups resolved, the last one's (`PageResult.resolution`); nil when none ran.
    public internal(set) var resolution: SourceResolution?
    /// The request the feed started from was made from a resolution the reply said was stale, and the feed
    /// started again from the lookup (`PageResult.resolutionIsStale`).
    public internal(set) var resolutionWasStale = false
    public var onStateChange: (@MainActor () -> Void)?
    /// Pages asked for while the page before was still being parsed (`loadAllPages`).
    public var pagesAskedAhead: Int { readAhead.pagesAskedAhead }

    /// Pages, lookups included, before the feed is considered endless (see `PagingGuard.maxRequests`).
    public var maxRequests: Int {
        get { paging.maxRequests }
        set { paging.maxRequests = newValue }
    }
    public var limits: Limits

    /// Validators sent on the GET of their URL (the follow checker's, from its last check): a 304 ends the
    /// feed `.finished` with `notModified` and no items. Never sent on other methods (Misskey's POSTs would
    /// get 412), nor through the disk cache, which revalidates by itself.
    public var conditional: HTTPValidators?
    /// The server answered `conditional` with 304 Not Modified.
    public internal(set) var notModified = false
    /// The validators of the first page that carried items, if its GET was answered with any.
    public internal(set) var firstPageValidators: HTTPValidators?
    /// The feed failed because the server could not be reached at all (no network, refused, timed out).
    public internal(set) var failedUnreachable = false

    /// The saved first page shown because the service could not be reached; nil while the feed is live.
    public var offlineCopy: FeedSnapshot? { offline.copy }

    let client: HTTPClient
    let paging = PagingGuard()
    let backoff = RateLimitBackoff()
    let readAhead: ReadAhead
    let offline: OfflineCopy
    /// The request of the page after the last one loaded; nil once the feed ended or was cancelled.
    var next: PageRequest?
    /// The last `loadNextPage`, until the next one: it owns that page's request, timers and `deliver`.
    private var load: PageLoad?

    /// With `snapshots`, the replies that make the first page are saved there, and stand in for them when
    /// the service cannot be reached (`offlineCopy`). With `resolved`, what an earlier lookup resolved, the
    /// feed starts from the request it leads to (`GallerySource.firstRequest(resolved:)`), without the lookup.
    public init(source: any GallerySource, client: HTTPClient, limits: Limits = .init(),
                snapshots: FeedSnapshotStore? = nil, resolved: SourceResolution? = nil) {
        self.source = source
        self.client = client
        self.limits = limits
        let first = resolved.flatMap(source.firstRequest(resolved:)) ?? source.firstRequest()
        next = first
        readAhead = ReadAhead(client: client)
        offline = OfflineCopy(snapshots: snapshots, firstRequest: first)
        // Whether this gallery's media may be on private addresses is decided by where its endpoint is.
        client.useEndpoint(source.endpoint.origin)
    }

    /// A feed let go without `cancel()` (its gallery replaced while the client lives on) stops its request or
    /// parse, the page it asked for ahead and its timers, rather than let them run on for nobody.
    isolated deinit {
        load?.cancel()
        readAhead.drop()
    }

    public var canLoadMore: Bool { state == .idle && next != nil }

    /// Loads the next page unless one is already loading or the feed ended. `deliver` receives the page's
    /// items (in order, possibly after lookups or empty pages were skipped); it is not called on failure.
    public func loadNextPage(deliver: @escaping @MainActor ([GalleryItem]) -> Void) {
        guard canLoadMore, let request = next else { return }
        // The load before has nothing left in flight (the feed is idle); it may still be handing over its
        // last slice, which goes on.
        load?.cancel()
        let load = PageLoad(feed: self, deliver: deliver)
        self.load = load
        load.start(request)
    }

    /// Loads page after page until the feed ends, for callers without a scrolling list (`--list`, tests):
    /// `page` receives each page's items, `end` the final state (`.finished` or `.failed`). An
    /// `onStateChange` set before still runs, first.
    public func loadAllPages(page: @escaping @MainActor ([GalleryItem]) -> Void,
                             end: @escaping @MainActor (State) -> Void) {
        readAhead.turnOn()
        let observer = onStateChange
        onStateChange = { [weak self] in
            observer?()
            guard let self else { return }
            switch state {
            case .idle: loadNextPage(deliver: page)
            // The state ends just before the last page's items are handed over: `end` comes after them, at
            // the default priority: at idle priority the replies of a download under way would hold it back
            // until they all arrived, and with it whatever the caller does once the feed ended.
            case .finished, .failed: MainLoopSource.idle(priority: MainLoopSource.Priority.default) { [state] in end(state) }
            case .loading, .waiting: break
            }
        }
        loadNextPage(deliver: page)
    }

    /// Stops the page load (a result still coming is dropped) and the page asked for ahead; no page follows.
    public func cancel() {
        load?.cancel()
        readAhead.drop()
        onStateChange = nil
        if case .loading = state { state = .idle }
        next = nil
    }

    var serviceName: String { source.serviceName }

    func httpRequest(_ request: PageRequest) -> HTTPRequest {
        if isConditional(request), let conditional {
            return HTTPRequest(url: request.url, headers: request.headers.merging(conditional.conditionalHeaders) { $1 },
                               maxBodyBytes: limits.maxPageBytes, method: request.method, body: request.body,
                               usesDiskCache: false)
        }
        return HTTPRequest(url: request.url, headers: request.headers, maxBodyBytes: limits.maxPageBytes,
                           method: request.method, body: request.body)
    }

    func isConditional(_ request: PageRequest) -> Bool {
        request.method == "GET" && request.body == nil && conditional?.url == request.url
    }

    /// Why the feed waits while `.waiting`, with the seconds it waits ("DeviantArt asks to slow down",
    /// "DeviantArt is refusing requests for now"); nil otherwise.
    public var waitReason: GalleryError? {
        guard case .waiting(_, let seconds) = state else { return nil }
        return backoff.reason(waiting: seconds)
    }

    /// A feed that ended before it began, for a gallery of items already known (`Gallery(known:)`): it sends
    /// nothing, and, unlike a live feed, leaves the client's endpoint (and so its address policy) as it was.
    init(finished source: any GallerySource, client: HTTPClient) {
        self.source = source
        self.client = client
        limits = .init()
        next = nil
        readAhead = ReadAhead(client: client)
        offline = OfflineCopy(snapshots: nil, firstRequest: source.firstRequest())
        state = .finished
    }
}
