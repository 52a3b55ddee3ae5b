import GObjectBindings

/// One user's gallery from one source, as the window shows it: the feed being paged, one download model per
/// distinct item, and a one-line summary of what is happening. Replacing it (a new search) means calling
/// `cancel()`, which stops every request it made.
@MainActor
public final class Gallery {
    public struct Options: Sendable {
        /// Longer side of the decoded thumbnails, in device pixels, at first (see `Gallery.thumbnailPixelSize`).
        public var thumbnailPixelSize: Int
        public var showSensitive: Bool
        public var feedLimits: GalleryFeed.Limits

        public init(thumbnailPixelSize: Int = 96, showSensitive: Bool = false, feedLimits: GalleryFeed.Limits = .init()) {
            self.thumbnailPixelSize = thumbnailPixelSize
            self.showSensitive = showSensitive
            self.feedLimits = feedLimits
        }
    }

    public let feed: GalleryFeed
    public let pipeline: ImagePipeline
    public let options: Options
    public private(set) var downloads: [ItemViewModel] = []
    public private(set) var isCancelled = false
    /// Items dropped because an earlier item had the same image.
    public private(set) var duplicatesSkipped = 0

    /// New rows, in order, for the list model.
    public var onDownloadsAppended: (@MainActor ([ItemViewModel]) -> Void)?
    /// The summary or the feed state changed.
    public var onStatusChange: (@MainActor () -> Void)?

    /// Every item so far, to show the same image once.
    private var seenImages = DistinctItems()
    private let downloadContext: ItemViewModel.Context
    /// Kept up to date as downloads change state, so that no status update walks every item.
    public private(set) var loadingCount = 0
    public private(set) var failedCount = 0
    public private(set) var loadedCount = 0
    /// Downloads with a request in flight (what `cancel` must stop) and hidden sensitive ones (what
    /// `revealSensitive` must show), by index: a few of the gallery's items, never all of them.
    private var inFlight: [Int: ItemViewModel] = [:]
    private var hiddenSensitive: [Int: ItemViewModel] = [:]

    /// Thumbnails are loaded through `pipeline`. `snapshots` keeps the first page for a launch without network
    /// (see `GalleryFeed`).
    public convenience init(source: any GallerySource, client: HTTPClient, pipeline: ImagePipeline,
                            options: Options = .init(), snapshots: FeedSnapshotStore? = nil) {
        self.init(source: source, client: client, pipeline: pipeline, options: options, snapshots: snapshots,
                  thumbnails: nil)
    }

    /// `thumbnails` replaces how thumbnails are loaded: the benchmarks' baselines time the same gallery with
    /// other loaders. Not part of the app's API (`@_spi(Baselines) import GalleryCore`).
    @_spi(Baselines)
    public init(source: any GallerySource, client: HTTPClient, pipeline: ImagePipeline, options: Options = .init(),
                snapshots: FeedSnapshotStore? = nil, thumbnails: ItemViewModel.Context?) {
        feed = GalleryFeed(source: source, client: client, limits: options.feedLimits, snapshots: snapshots)
        self.pipeline = pipeline
        self.options = options
        downloadContext = thumbnails ?? ItemViewModel.Context(pipeline: pipeline, thumbnailPixelSize: options.thumbnailPixelSize)
        feed.onStateChange = { [weak self] in self?.onStatusChange?() }
        downloadContext.onStateChange = { [weak self] download, old in self?.stateChanged(download, from: old) }
    }

    /// A gallery of items already known, in this order (the New view of followed galleries): nothing is sent
    /// for pages; each row says whose its item is (`ItemViewModel.origin`). The items are handed over as a
    /// page's are (`SlicedDelivery`): the first slice at once, then one per main-loop turn, the feed `.loading`
    /// until the last one is in, so that ten thousand of them never make one long turn.
    public init(known items: [KnownItem], client: HTTPClient, pipeline: ImagePipeline, options: Options = .init()) {
        feed = GalleryFeed(finished: KnownItemsSource(), client: client)
        self.pipeline = pipeline
        self.options = options
        isKnownItems = true
        downloadContext = ItemViewModel.Context(pipeline: pipeline, thumbnailPixelSize: options.thumbnailPixelSize)
        downloadContext.origin = { [weak self] index in
            guard let origins = self?.knownOrigins, origins.indices.contains(index) else { return nil }
            return origins[index]
        }
        downloadContext.onStateChange = { [weak self] download, old in self?.stateChanged(download, from: old) }
        feed.onStateChange = { [weak self] in self?.onStatusChange?() }
        knownItemsCount = items.count
        guard !items.isEmpty else { return }
        feed.state = .loading(page: 1)
        knownSlices.hand(items, to: { [weak self] slice in self?.takeKnown(slice) }, beforeLast: {})
    }

    /// Made of items already known (`init(known:)`), not a service's gallery.
    public private(set) var isKnownItems = false
    /// Of the known items given, how many were handed over so far (the same image again included, though
    /// it shows once): the items the view has had.
    public private(set) var knownItemsTaken = 0
    private var knownItemsCount = 0
    /// Whose each item is, by download index: the same image twice shows once, so the origins are kept in
    /// step with the downloads as they are made.
    private var knownOrigins: [String] = []
    private lazy var knownSlices = SlicedDelivery { [weak self] in self?.options.feedLimits.maxItemsPerDelivery ?? .max }

    private func takeKnown(_ slice: [KnownItem]) {
        knownItemsTaken += slice.count
        append(slice.map(\.item), origins: slice.map(\.origin))
        // After the last slice's rows, not before them (as a page's feed does): a view waiting for the end
        // finds them all.
        if knownItemsTaken == knownItemsCount { feed.state = .finished }
    }

    /// Shows the first page saved the last time (`snapshot`) without asking the service: a launch's first
    /// screen, from disk, while the same gallery is asked for live (`isSavedCopy`). It pages no further.
    public func start(fromSavedCopy snapshot: FeedSnapshot) {
        isSavedCopy = true
        feed.offline.goOffline(with: snapshot)
        feed.loadNextPage { [weak self] items in self?.append(items) }
    }

    /// Started from a saved copy (`start(fromSavedCopy:)`), to be replaced by the live gallery.
    public private(set) var isSavedCopy = false

    /// A gallery being replaced may hold 100,000 items; freeing them all at once would stall the window
    /// (hundreds of thousands of frees). They go a few thousand per idle moment instead.
    isolated deinit {
        Self.releaseGradually(downloads)
    }

    static let releaseChunk = 5_000

    private static func releaseGradually(_ downloads: [ItemViewModel]) {
        guard downloads.count > releaseChunk else { return }
        RetiredDownloads(downloads).releaseNextChunk()
    }

    public var source: any GallerySource { feed.source }

    /// Loads the first page.
    public func start() { loadMore() }

    /// Loads the next page if there is one and none is loading; call it when the user nears the end.
    public func loadMore() {
        guard !isCancelled, !isSavedCopy else { return }
        feed.loadNextPage { [weak self] items in self?.append(items) }
    }

    public var canLoadMore: Bool { !isCancelled && !isSavedCopy && feed.canLoadMore }

    /// More items may still come: a page is loading or waiting out a rate limit, or another can be asked for.
    public var mayHaveMore: Bool {
        guard !isCancelled else { return false }
        // The live gallery replaces it.
        if isSavedCopy { return true }
        switch feed.state {
        case .loading, .waiting: return true
        case .idle: return feed.canLoadMore
        case .finished, .failed: return false
        }
    }

    public func cancel() {
        isCancelled = true
        feed.cancel()
        if isKnownItems { knownSlices.cancel() }
        for download in Array(inFlight.values) { download.cancel() }
        onDownloadsAppended = nil
        onStatusChange = nil
    }

    /// Longer side of the decoded thumbnails, in device pixels: what the view's cells show (a list row's
    /// 96 px, a grid tile's 160 px). Changing it stops the thumbnails in flight, which the view asks for
    /// again at the new size; loaded ones come back at the new size from the cache, or load again, when their
    /// cells are bound next.
    public var thumbnailPixelSize: Int {
        get { downloadContext.thumbnailPixelSize }
        set {
            guard newValue != downloadContext.thumbnailPixelSize else { return }
            downloadContext.thumbnailPixelSize = newValue
            for download in Array(inFlight.values) { download.cancel() }
        }
    }

    public func revealSensitive() {
        for download in Array(hiddenSensitive.values) { download.revealSensitive() }
    }

    // MARK: Counts and summary

    private func stateChanged(_ download: ItemViewModel, from old: ItemViewModel.State) {
        count(old, -1, download)
        count(download.state, 1, download)
        onStatusChange?()
    }

    private func count(_ state: ItemViewModel.State, _ delta: Int, _ download: ItemViewModel) {
        switch state {
        case .loading:
            loadingCount += delta
            inFlight[download.index] = delta > 0 ? download : nil
        case .failed: failedCount += delta
        case .loaded: loadedCount += delta
        case .sensitiveHidden: hiddenSensitive[download.index] = delta > 0 ? download : nil
        case .notStarted, .noPreview: break
        }
    }

    /// The header bar's subtitle: "Loading page 2…", "48 images, 3 still loading", "No such user: bob";
    /// "Offline · 24 images" while the first page is a saved copy.
    public var summary: String {
        // TRANSLATORS: the subtitle while the saved copy shows and the service is asked again; {summary} is, e.g., "24 images".
        if isSavedCopy { return tr("{summary}, updating…", ["summary": countText]) }
        guard feed.offlineCopy == nil || downloads.isEmpty else {
            // TRANSLATORS: the subtitle while the gallery is a copy saved earlier; {summary} is, e.g., "24 images".
            return tr("Offline · {summary}", ["summary": liveSummary])
        }
        return liveSummary
    }

    private var liveSummary: String {
        switch feed.state {
        case .loading where isKnownItems:
            // Its items are handed over a slice per turn; no page is asked for.
            return countText
        case .failed(let error) where downloads.isEmpty:
            return error.title
        case .loading(let page) where downloads.isEmpty:
            return page == 1 ? tr("Loading…") : tr("Loading page {page}…", ["page": page])
        case .loading(let page):
            // TRANSLATORS: {images} is "1 image" or "48 images".
            return tr("{images}, loading page {page}…", ["images": countText, "page": page])
        case .waiting(_, let seconds):
            let values: [String: any CustomStringConvertible] = ["service": source.kind.displayName, "duration": GalleryError.duration(seconds)]
            if case .refusingForNow = feed.waitReason {
                // TRANSLATORS: {service} is a service's name; {duration} is "30 s" or "2 min".
                return tr("{service} is refusing requests for now; retrying in {duration}", values)
            }
            // TRANSLATORS: {service} is a service's name; {duration} is "30 s" or "2 min".
            return tr("{service} asks to wait {duration}; retrying by itself", values)
        default:
            // TRANSLATORS: how many of the gallery's thumbnails are still on their way.
            let loading = trn("{count} still loading", "{count} still loading", loadingCount)
            // TRANSLATORS: how many of the gallery's thumbnails could not be shown.
            let failed = trn("{count} failed", "{count} failed", failedCount)
            return switch (loadingCount > 0, failedCount > 0) {
            // TRANSLATORS: the subtitle: {images} is "48 images", {loading} "3 still loading", {failed} "2 failed".
            case (true, true): tr("{images}, {loading}, {failed}", ["images": countText, "loading": loading, "failed": failed])
            // TRANSLATORS: the subtitle: {images} is "48 images", {status} "3 still loading" or "2 failed".
            case (true, false): tr("{images}, {status}", ["images": countText, "status": loading])
            case (false, true): tr("{images}, {status}", ["images": countText, "status": failed])
            case (false, false): countText
            }
        }
    }

    private var countText: String { trn("{count} image", "{count} images", downloads.count) }

    // MARK: Items

    /// `origins`: whose each item is, in a gallery of known items.
    private func append(_ items: [GalleryItem], origins: [String]? = nil) {
        var added: [ItemViewModel] = []
        for (offset, item) in items.enumerated() {
            guard seenImages.insert(item) else {
                duplicatesSkipped += 1
                continue
            }
            if let origins { knownOrigins.append(origins[offset]) }
            let download = ItemViewModel(item: item, index: downloads.count, context: downloadContext,
                                         showSensitive: options.showSensitive)
            count(download.state, 1, download)
            downloads.append(download)
            added.append(download)
        }
        if !added.isEmpty { onDownloadsAppended?(added) }
        onStatusChange?()
    }
}

/// What is left of a replaced gallery's models, released `Gallery.releaseChunk` at a time, one chunk per
/// idle moment of the main loop.
@MainActor
private final class RetiredDownloads {
    private var downloads: [ItemViewModel]

    init(_ downloads: [ItemViewModel]) { self.downloads = downloads }

    func releaseNextChunk() {
        MainLoopSource.idle { [self] in
            downloads.removeLast(min(Gallery.releaseChunk, downloads.count))
            if !downloads.isEmpty { releaseNextChunk() }
        }
    }
}
