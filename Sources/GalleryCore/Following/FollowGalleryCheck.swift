import GObjectBindings

/// One followed gallery's check: its feed's first page (from the account the last lookup resolved, so without
/// the lookup; conditional when the last check left validators), then further pages only until the last known
/// item shows up, at most `maxPages`. Only fetches: what is new is decided by `FollowNewness`, and nothing is
/// written here.
@MainActor
final class FollowGalleryCheck {
    enum Outcome {
        /// The first page was answered 304: nothing changed since the last check.
        case notModified(Lookup)
        /// The items of the pages read, in the gallery's order (newest first), and the first page's validators.
        case items([GalleryItem], validators: HTTPValidators?, lookup: Lookup)
        /// `unreachable`: the service could not be reached at all (no network), which is no problem of the gallery.
        case failed(GalleryError, unreachable: Bool)
    }

    /// What the check's lookups learned, when any ran: the account's profile and resolution (nil: keep the
    /// stored), and the origin of the server asked (`FollowCheckRun.hostKey`).
    struct Lookup {
        var profile: GalleryProfile?
        var resolution: SourceResolution?
        var origin: String
    }

    let gallery: FollowedGallery
    private let feed: GalleryFeed
    private let maxPages: Int
    private let origin: String
    private var items: [GalleryItem] = []
    private var completion: (@MainActor (Outcome) -> Void)?

    /// Starts from the stored resolution only while `FollowedGallery.usableResolution` allows (this server's,
    /// younger than `maxResolutionAge`); else from the lookup.
    init(gallery: FollowedGallery, source: any GallerySource, client: HTTPClient, limits: GalleryFeed.Limits, maxPages: Int,
         maxResolutionAge: Int64, now: Int64 = FollowStore.now()) {
        self.gallery = gallery
        self.maxPages = max(1, maxPages)
        origin = FollowCheckRun.hostKey(source.endpoint.origin)
        let resolved = gallery.usableResolution(origin: origin, at: now, maxAge: maxResolutionAge)
        feed = GalleryFeed(source: source, client: client, limits: limits, resolved: resolved)
        feed.conditional = gallery.validators
    }

    /// Starts; `completion` runs once on the main loop, unless `cancel()` comes first.
    func start(completion: @escaping @MainActor (Outcome) -> Void) {
        self.completion = completion
        feed.onStateChange = { [weak self] in self?.stateChanged() }
        loadPage()
    }

    func cancel() {
        completion = nil
        decision?.cancel()
        decision = nil
        feed.cancel()
    }

    private func loadPage() {
        feed.loadNextPage { [weak self] page in self?.items += page }
    }

    /// The feed's state changes just before a page's last slice of items is handed over: what to do next is
    /// decided once it has been.
    private var decision: MainLoopSource?

    private func stateChanged() {
        switch feed.state {
        case .idle, .finished, .failed:
            decision?.cancel()
            decision = MainLoopSource.idle { [weak self] in
                self?.decision = nil
                self?.decide()
            }
        case .loading, .waiting:
            break
        }
    }

    private func decide() {
        switch feed.state {
        case .idle:
            guard isFarEnough else { return loadPage() }
            finish(.items(items, validators: feed.firstPageValidators, lookup: lookup))
        case .finished:
            // A later page's 304 does not undo the items the pages before it brought.
            finish(feed.notModified && items.isEmpty ? .notModified(lookup)
                   : .items(items, validators: feed.firstPageValidators, lookup: lookup))
        case .failed(.emptyGallery):
            // Nothing uploaded yet is a good answer, not a problem.
            finish(.items([], validators: feed.firstPageValidators, lookup: lookup))
        case .failed(let error):
            finish(.failed(error, unreachable: feed.failedUnreachable))
        case .loading, .waiting:
            break
        }
    }

    private var lookup: Lookup { Lookup(profile: feed.profile, resolution: feed.resolution, origin: origin) }

    /// The last known item is on a page read, the pages reach back past the time nothing is new before (the
    /// last known item's, else the follow's), or the page cap is reached. Without dates and without a last
    /// known item (a first check), the first page is the baseline.
    private var isFarEnough: Bool {
        if feed.pagesLoaded >= maxPages { return true }
        if let known = gallery.lastItemID, items.contains(where: { $0.id == known }) { return true }
        let floor = gallery.lastItemTime ?? gallery.followedAt
        guard let oldest = items.last?.published else { return gallery.lastItemID == nil }
        return Int64(oldest) * 1000 < floor
    }

    private func finish(_ outcome: Outcome) {
        feed.onStateChange = nil
        feed.cancel()
        let completion = completion
        self.completion = nil
        completion?(outcome)
    }
}

/// What counts as new in a check's items (newest first), given what the store knew of the gallery.
enum FollowNewness {
    /// Above the last known item, in the gallery's order: new, unless dated before that item (a post pinned or
    /// moved up). Without the last known item among the pages read (a first check, or it was deleted): only
    /// items dated after it (else after the follow); undated ones are the baseline. The store then leaves out
    /// those seen or new already.
    static func candidates(in items: [GalleryItem], of gallery: FollowedGallery) -> [GalleryItem] {
        if let known = gallery.lastItemID, let position = items.firstIndex(where: { $0.id == known }) {
            return items[..<position].filter { item in
                guard let published = item.published, let lastTime = gallery.lastItemTime else { return true }
                return Int64(published) * 1000 >= lastTime
            }
        }
        // Dates have seconds only: an item of the last known one's second may be newer (the follow's own
        // moment is exact, so there only later counts).
        if let lastTime = gallery.lastItemTime {
            return items.filter { item in item.published.map { Int64($0) * 1000 >= lastTime } ?? false }
        }
        return items.filter { item in item.published.map { Int64($0) * 1000 > gallery.followedAt } ?? false }
    }
}
