import GObjectBindings

/// Checks every followed gallery for new items, politely: galleries checked less than `minimumInterval` ago
/// are skipped, at most `maxGalleriesAtOnce` are checked at a time and at most `maxRequestsPerHost` of one
/// host (scheme, host and port; Wikimedia asks for one at a time, so Commons gets one), each one request at a
/// time through its `GalleryFeed` (paging guard, rate-limit and refusal back-off, parsing off the main loop).
/// Each gallery's result is written in one transaction once its check is over (`FollowStore.record`); one
/// that fails records its problem only. When no gallery could be reached at all (offline), nothing is
/// recorded.
@MainActor
public final class FollowChecker {
    public struct Limits: Sendable {
        /// Milliseconds: a gallery checked more recently is skipped.
        public var minimumInterval: Int64 = 15 * 60 * 1000
        public var maxPagesPerGallery = 3
        public var maxRequestsPerHost = 2
        public var maxGalleriesAtOnce = 6
        /// Milliseconds: a lookup's resolution older than this is made again (a week: a moved PDS, a new
        /// avatar or name is noticed within it, and a lookup a week is nothing beside the checks between).
        public var maxResolutionAge: Int64 = 7 * 24 * 60 * 60 * 1000
        /// The feed's own bounds (page size, rate-limit waits).
        public var feed = GalleryFeed.Limits()

        public init(minimumInterval: Int64 = 15 * 60 * 1000, maxPagesPerGallery: Int = 3, maxRequestsPerHost: Int = 2,
                    maxGalleriesAtOnce: Int = 6, maxResolutionAge: Int64 = 7 * 24 * 60 * 60 * 1000,
                    feed: GalleryFeed.Limits = .init()) {
            self.minimumInterval = minimumInterval
            self.maxResolutionAge = maxResolutionAge
            self.maxPagesPerGallery = maxPagesPerGallery
            self.maxRequestsPerHost = maxRequestsPerHost
            self.maxGalleriesAtOnce = maxGalleriesAtOnce
            self.feed = feed
        }
    }

    public let limits: Limits
    /// After each gallery's result is stored, with the gallery as it is now.
    public var onGalleryChecked: (@MainActor (FollowedGallery) -> Void)?
    public var isChecking: Bool { run != nil }

    private let store: FollowStore
    private let makeClient: @MainActor () -> HTTPClient
    private let endpointOverride: @MainActor (SourceKind) -> String?
    private var run: FollowCheckRun?
    private var waiting: [@MainActor (FollowCheckReport) -> Void] = []

    /// Each run asks `makeClient` for one client per endpoint (scheme, host and port), never the window's:
    /// a gallery's `GalleryFeed` tells its client where its endpoint is (`HTTPClient.useEndpoint`), which
    /// decides whether private addresses may be reached, so a demo or LAN server's gallery must not open that
    /// door for a public service's replies checked at the same time, and a narrowing replaces the client's
    /// session (requests in flight end).
    public init(store: FollowStore, makeClient: @escaping @MainActor () -> HTTPClient, limits: Limits = .init(),
                endpointOverride: @escaping @MainActor (SourceKind) -> String? = { _ in nil }) {
        self.store = store
        self.makeClient = makeClient
        self.limits = limits
        self.endpointOverride = endpointOverride
    }

    /// Every gallery through `client`: for galleries of one endpoint only (tests, benchmarks).
    public convenience init(store: FollowStore, client: HTTPClient, limits: Limits = .init(),
                            endpointOverride: @escaping @MainActor (SourceKind) -> String? = { _ in nil }) {
        self.init(store: store, makeClient: { client }, limits: limits, endpointOverride: endpointOverride)
    }

    /// Checks every followed gallery; `completion` gets the report. A call while a check runs joins it.
    public func check(completion: @escaping @MainActor (FollowCheckReport) -> Void) {
        waiting.append(completion)
        guard run == nil else { return }
        let run = FollowCheckRun(store: store, makeClient: makeClient, limits: limits, endpointOverride: endpointOverride)
        run.onGalleryChecked = { [weak self] in self?.onGalleryChecked?($0) }
        self.run = run
        run.start { [weak self, weak run] report in
            guard let self, run != nil, self.run === run else { return }
            self.finish(report)
        }
    }

    /// Stops the galleries being checked and those not started; the waiting callers get the report so far.
    /// Results already being written still land.
    public func cancel() {
        guard let run else { return }
        finish(run.cancel())
    }

    private func finish(_ report: FollowCheckReport) {
        run = nil
        let callers = waiting
        waiting = []
        callers.forEach { $0(report) }
    }
}
