import GObjectBindings

/// One user's gallery from one source, as the window shows it: the feed being paged, one download model per
/// distinct item, and a one-line summary of what is happening. Replacing it (a new search) means calling
/// `cancel()`, which stops every request it made.
@MainActor
public final class Gallery {
    public struct Options: Sendable {
        /// Longer side of the decoded thumbnails, in device pixels.
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
    public let loader: ImageLoader
    public let options: Options
    public private(set) var downloads: [ImageDownload] = []
    public private(set) var isCancelled = false
    /// Items dropped because an earlier item had the same image.
    public private(set) var duplicatesSkipped = 0

    /// New rows, in order, for the list model.
    public var onDownloadsAppended: (@MainActor ([ImageDownload]) -> Void)?
    /// The summary or the feed state changed.
    public var onStatusChange: (@MainActor () -> Void)?

    private var seenImages: Set<String> = []

    public init(source: any GallerySource, client: HTTPClient, loader: ImageLoader, options: Options = .init()) {
        feed = GalleryFeed(source: source, client: client, limits: options.feedLimits)
        self.loader = loader
        self.options = options
        feed.onStateChange = { [weak self] in self?.onStatusChange?() }
    }

    public var source: any GallerySource { feed.source }

    /// Loads the first page.
    public func start() { loadMore() }

    /// Loads the next page if there is one and none is loading; call it when the user nears the end.
    public func loadMore() {
        guard !isCancelled else { return }
        feed.loadNextPage { [weak self] items in self?.append(items) }
    }

    public var canLoadMore: Bool { !isCancelled && feed.canLoadMore }

    public func cancel() {
        isCancelled = true
        feed.cancel()
        for download in downloads { download.cancel() }
        onDownloadsAppended = nil
        onStatusChange = nil
    }

    public func revealSensitive() {
        for download in downloads { download.revealSensitive() }
    }

    // MARK: Counts and summary

    public var loadingCount: Int { downloads.count { $0.state == .loading } }
    public var failedCount: Int { downloads.count { if case .failed = $0.state { true } else { false } } }
    public var loadedCount: Int { downloads.count { $0.state == .loaded } }

    /// The header bar's subtitle: "Loading page 2…", "48 images, 3 still loading", "No such user: bob".
    public var summary: String {
        switch feed.state {
        case .failed(let error) where downloads.isEmpty:
            return error.title
        case .loading(let page) where downloads.isEmpty:
            return page == 1 ? "Loading…" : "Loading page \(page)…"
        case .loading(let page):
            return "\(countText), loading page \(page)…"
        case .waiting(_, let seconds):
            return "\(source.kind.displayName) asks to wait \(GalleryError.duration(seconds)); retrying by itself"
        default:
            var parts = [countText]
            let loading = loadingCount
            let failed = failedCount
            if loading > 0 { parts.append("\(loading) still loading") }
            if failed > 0 { parts.append("\(failed) failed") }
            return parts.joined(separator: ", ")
        }
    }

    private var countText: String { downloads.count == 1 ? "1 image" : "\(downloads.count) images" }

    // MARK: Items

    private func append(_ items: [GalleryItem]) {
        var added: [ImageDownload] = []
        for item in items {
            let keys = item.identityKeys
            guard seenImages.isDisjoint(with: keys) else {
                duplicatesSkipped += 1
                continue
            }
            seenImages.formUnion(keys)
            let download = ImageDownload(item: item, index: downloads.count, loader: loader,
                                         thumbnailPixelSize: options.thumbnailPixelSize,
                                         showSensitive: options.showSensitive)
            download.observe(owner: self) { [weak self] _ in self?.onStatusChange?() }
            downloads.append(download)
            added.append(download)
        }
        if !added.isEmpty { onDownloadsAppended?(added) }
        onStatusChange?()
    }
}
