import GObjectBindings

/// One gallery item's view model, what a recycled row or tile binds to: its thumbnail's state from "not shown
/// yet" to loaded or failed, how much the list wants it (interest), and the thumbnail. There is one per item, so it is small: no widget and no pixels of its own. A recycled row binds
/// to it while the item is on screen and unbinds when it scrolls away; everything the row shows (state,
/// error reason, a revealed sensitive item) lives here, so it survives rebinding.
@MainActor
public final class ItemViewModel {
    public enum State: Equatable, Sendable {
        /// The row was never on screen: nothing requested.
        case notStarted
        case loading
        case loaded
        case failed(reason: String)
        /// Adult or sensitive: nothing is downloaded until the user chooses to see it.
        case sensitiveHidden
        /// The item has no picture to show (e.g. audio); the row shows a badge instead.
        case noPreview

        public var isFailed: Bool {
            if case .failed = self { true } else { false }
        }

        /// Nothing more will happen to the row by itself: it shows its picture or its final message.
        public var isSettled: Bool {
            switch self {
            case .notStarted, .loading: false
            case .loaded, .failed, .sensitiveHidden, .noPreview: true
            }
        }
    }

    /// How much the list wants the thumbnail now.
    public enum Interest: UInt8, Sendable {
        /// Off screen: nothing new is started, and a request still waiting for a connection gives its place up.
        case none
        /// A few rows ahead of the view: loaded behind the rows on screen.
        case prefetch
        /// On screen, at rest.
        case visible
    }

    /// What every download of one gallery shares, held once instead of once per item: how thumbnails are
    /// loaded (the app's ImagePipeline; the benchmarks' baselines load them other ways) and at what size.
    @MainActor
    public final class Context {
        public typealias Completion = @MainActor (Result<DecodedPixbuf, ImageLoadError>) -> Void
        public typealias Load = @MainActor (_ url: String, _ maxPixelSize: Int, _ priority: LoadPriority,
                                             _ completion: @escaping Completion) -> any ThumbnailRequest
        /// Changed only through `Gallery.thumbnailPixelSize` (the list and the grid ask for different sizes).
        var thumbnailPixelSize: Int
        let load: Load
        /// An image already decoded at that size, without loading anything.
        let cached: @MainActor (_ url: String, _ maxPixelSize: Int) -> DecodedPixbuf?
        /// Told about every state change (old state given), e.g. the gallery's counts.
        var onStateChange: (@MainActor (ItemViewModel, State) -> Void)?
        /// Whose item an index is, in a gallery of known items (`Gallery(known:)`); one closure for the
        /// gallery, so an item of a service's gallery costs nothing for it.
        var origin: (@MainActor (Int) -> String?)?

        /// Another way of loading thumbnails than the pipeline: the benchmarks' baselines only.
        @_spi(Baselines)
        public init(thumbnailPixelSize: Int, load: @escaping Load,
                    cached: @escaping @MainActor (_ url: String, _ maxPixelSize: Int) -> DecodedPixbuf?) {
            self.thumbnailPixelSize = thumbnailPixelSize
            self.load = load
            self.cached = cached
        }

        public convenience init(pipeline: ImagePipeline, thumbnailPixelSize: Int) {
            self.init(thumbnailPixelSize: thumbnailPixelSize, load: { url, size, priority, completion in
                pipeline.loadImage(ImageRequest(url: url, size: .fitting(size), priority: priority)) { result in
                    completion(result.map(\.image))
                }
            }, cached: { url, size in pipeline.cache.image(for: ImageCache.Key(url: url, maxPixelSize: size)) })
        }
    }

    /// Packed: a gallery holds one of these per item (see PackedGalleryItem).
    /// Sendable: find in the gallery (`GalleryTextSearch`) unpacks it on a worker.
    let packedItem: PackedGalleryItem
    /// Position in the gallery, from 0.
    public let index: Int
    /// Changed only through `publish`, which tells the gallery and the bound row.
    public private(set) var state: State
    /// The decoded thumbnail, only while a row shows it (see `bind`); the pipeline's cache keeps recent ones.
    public private(set) var thumbnail: DecodedPixbuf?
    public private(set) var interest: Interest = .none
    /// How many times the thumbnail was requested (first load plus retries).
    public private(set) var attempts = 0
    /// The image's own size, known once its thumbnail was decoded.
    private var decodedWidth: Int32 = 0
    private var decodedHeight: Int32 = 0
    /// The thumbnail's file is an animation (GIF, WebP), known once it was decoded; the row shows a badge.
    public private(set) var isAnimated = false
    /// An animation over the decode limits: the large view shows its first frame only.
    public private(set) var isAnimationTooLarge = false

    private let context: Context
    private var request: (any ThumbnailRequest)?
    /// The bound row's change handler.
    private var binding: (@MainActor (ItemViewModel) -> Void)?

    public init(item: GalleryItem, index: Int, context: Context, showSensitive: Bool) {
        packedItem = PackedGalleryItem(item)
        self.index = index
        self.context = context
        if item.thumbnailURL(covering: context.thumbnailPixelSize) == nil {
            // The feed named a picture, but by a URL the app does not fetch: say so instead of a blank.
            state = item.mediaURLRejected ? .failed(reason: HTTPError.notAWebAddress.message) : .noPreview
        } else {
            state = item.isSensitive && !showSensitive ? .sensitiveHidden : .notStarted
        }
    }

    public convenience init(item: GalleryItem, index: Int, pipeline: ImagePipeline, thumbnailPixelSize: Int,
                            showSensitive: Bool) {
        self.init(item: item, index: index, context: Context(pipeline: pipeline, thumbnailPixelSize: thumbnailPixelSize),
                  showSensitive: showSensitive)
    }

    /// Whose the item is ("aurora on DeviantArt") in a gallery of items from several (the New view); nil in a
    /// service's gallery.
    public var origin: String? { context.origin?(index) }

    /// The item, unpacked for the caller.
    public var item: GalleryItem { packedItem.item }
    public var kind: GalleryItem.Kind { packedItem.kind }
    /// Whether the item's id is `id`, without unpacking the item.
    public func hasItemID(_ id: String) -> Bool { packedItem.hasID(id) }
    public var thumbnailPixelSize: Int { context.thumbnailPixelSize }
    public var thumbnailURL: String? { item.thumbnailURL(covering: context.thumbnailPixelSize) }
    public var isVisible: Bool { interest == .visible }
    public var isBound: Bool { binding != nil }

    /// The original image's size, once its thumbnail was decoded.
    public var decodedImageSize: (width: Int, height: Int)? {
        decodedWidth > 0 ? (Int(decodedWidth), Int(decodedHeight)) : nil
    }

    /// The thumbnail if a row shows it, else the pipeline's cached copy, without loading anything (the large
    /// view shows it while the full image loads).
    public var cachedThumbnail: DecodedPixbuf? {
        if let thumbnail { return thumbnail }
        guard state == .loaded, let url = thumbnailURL else { return nil }
        return context.cached(url, context.thumbnailPixelSize)
    }

    // MARK: Binding

    /// A row shows this item from now on: `onChange` runs on every change until `unbind`. A thumbnail that
    /// was loaded before comes back from the pipeline's cache; if the cache let it go, it loads again once
    /// the row is at rest on screen — at once when it is wanted already (a view's cells may be bound a
    /// few frames after the view asked for their items).
    public func bind(_ onChange: @escaping @MainActor (ItemViewModel) -> Void) {
        binding = onChange
        guard state == .loaded, thumbnail == nil else { return }
        thumbnail = cachedThumbnail
        guard thumbnail == nil else { return }
        publish(.notStarted)
        if interest != .none { start() }
    }

    /// The row moved on to another item: it hears nothing more from this one, and the pixels go.
    public func unbind() {
        binding = nil
        thumbnail = nil
    }

    // MARK: Interest

    /// Called as the row comes to rest on screen, nears it, or leaves. Becoming wanted starts the download.
    /// A row that leaves while its download still waits for a connection gives its place up (a fast scroll
    /// past a hundred rows must not queue a hundred downloads); it starts again if it comes back. A download
    /// already under way goes on, behind the rows on screen.
    public func setInterest(_ interest: Interest) {
        guard interest != self.interest else { return }
        self.interest = interest
        if interest != .none && state == .notStarted {
            start()
        } else if interest == .none, let request, request.isWaitingForConnection {
            request.cancel()
            self.request = nil
            publish(.notStarted)
        } else {
            request?.priority = priority
        }
    }

    /// `setInterest(.visible)` or `.none`.
    public func setVisible(_ visible: Bool) { setInterest(visible ? .visible : .none) }

    private var priority: LoadPriority { interest == .visible ? .visible : .offscreen }

    /// Tries a failed download again (the failure icon was clicked).
    public func retry() {
        guard case .failed = state else { return }
        start()
    }

    /// Shows a hidden sensitive item: its thumbnail starts loading if the row is on screen.
    public func revealSensitive() {
        guard state == .sensitiveHidden else { return }
        publish(.notStarted)
        if isVisible { start() }
    }

    /// Stops any download in flight; used when the gallery is replaced or the window closes.
    public func cancel() {
        request?.cancel()
        request = nil
        if state == .loading { publish(.notStarted) }
    }

    /// The one way anything a row shows changes: the state (old state to the gallery's counts, when it
    /// changed), then the bound row, which reads everything else (thumbnail, size) as it redraws.
    private func publish(_ newState: State) {
        let old = state
        state = newState
        if newState != old { context.onStateChange?(self, old) }
        binding?(self)
    }

    private func start() {
        guard let url = thumbnailURL else { return }
        attempts += 1
        publish(.loading)
        let request = context.load(url, context.thumbnailPixelSize, priority) { [weak self] result in
            guard let self else { return }
            self.request = nil
            switch result {
            case .success(let image):
                self.decodedWidth = Int32(clamping: image.originalWidth)
                self.decodedHeight = Int32(clamping: image.originalHeight)
                self.isAnimated = image.isAnimated
                self.isAnimationTooLarge = image.isFirstFrameOnly
                // Rows off screen keep no pixels: the cache has them.
                self.thumbnail = self.isBound ? image : nil
                self.publish(.loaded)
            case .failure(let error) where error.isCancelled:
                self.publish(.notStarted)
            case .failure(let error):
                self.publish(.failed(reason: error.message))
            }
        }
        // A cached image completed before `load` returned.
        if state == .loading { self.request = request }
    }
}

/// A thumbnail asked for: what a download does with it while it is under way.
@MainActor
public protocol ThumbnailRequest: AnyObject {
    var priority: LoadPriority { get set }
    /// Nothing was sent for it yet.
    var isWaitingForConnection: Bool { get }
    func cancel()
}

extension TaskSubscription: ThumbnailRequest {}
