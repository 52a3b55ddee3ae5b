import CGLib
import GalleryCore

/// What a feed did when every page was loaded: its end state, the pages' items, every state it passed
/// through, and how long it took.
public struct FeedRun {
    public let feed: GalleryFeed
    public let pages: [[GalleryItem]]
    public let states: [GalleryFeed.State]
    public let seconds: Double
}

/// Feed limits for tests: the app's, with a rate-limit backoff of milliseconds instead of seconds, so a
/// test waits only for what the server's Retry-After asks.
public let fastFeedLimits = GalleryFeed.Limits(backoffMilliseconds: 10)

/// Loads every page of `source` with a real HTTPClient, as `--list` does, driving the main loop until the
/// feed ends (or `timeout` passes).
@MainActor
public func loadEveryPage(_ source: any GallerySource, maxRequests: Int? = nil, limits: GalleryFeed.Limits = fastFeedLimits,
                          client: HTTPClient = HTTPClient(), timeout: Double = 120) -> FeedRun {
    let feed = GalleryFeed(source: source, client: client, limits: limits)
    if let maxRequests { feed.maxRequests = maxRequests }
    var pages: [[GalleryItem]] = []
    var states: [GalleryFeed.State] = []
    var ended = false
    let started = g_get_monotonic_time()
    // Weakly: the feed keeps the closure, and the run must not keep the feed (or its client) for good.
    feed.onStateChange = { [weak feed] in if let feed { states.append(feed.state) } }
    feed.loadAllPages(page: { pages.append($0) }, end: { _ in ended = true })
    iterateMainLoop(until: { ended }, timeout: timeout)
    return FeedRun(feed: feed, pages: pages, states: states,
                   seconds: Double(g_get_monotonic_time() - started) / 1_000_000)
}
