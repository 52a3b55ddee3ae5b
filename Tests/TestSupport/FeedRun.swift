import CGtk
import GalleryCore

/// What a feed did when every page was loaded: its end state, the pages' items, every state it passed
/// through, and how long it took.
public struct FeedRun {
    public let feed: GalleryFeed
    public let pages: [[GalleryItem]]
    public let states: [GalleryFeed.State]
    public let seconds: Double
}

/// Loads every page of `source` with a real HTTPClient, as `--list` does, driving the main loop until the
/// feed ends (or `timeout` passes).
@MainActor
public func loadEveryPage(_ source: any GallerySource, maxRequests: Int? = nil, timeout: Double = 30) -> FeedRun {
    let feed = GalleryFeed(source: source, client: HTTPClient())
    if let maxRequests { feed.maxRequests = maxRequests }
    var pages: [[GalleryItem]] = []
    var states: [GalleryFeed.State] = []
    var ended = false
    let started = g_get_monotonic_time()
    feed.onStateChange = { states.append(feed.state) }
    feed.loadAllPages(page: { pages.append($0) }, end: { _ in ended = true })
    iterateMainLoop(until: { ended }, timeout: timeout)
    return FeedRun(feed: feed, pages: pages, states: states,
                   seconds: Double(g_get_monotonic_time() - started) / 1_000_000)
}
