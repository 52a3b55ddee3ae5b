import GObjectBindings

/// The download model behind one row: one gallery item's thumbnail, from "not shown yet" to loaded or
/// failed. Created for every item, but it touches the network only once its row is first shown.
@MainActor
public final class ImageDownload {
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
    }

    public let item: GalleryItem
    /// Position in the gallery, from 0.
    public let index: Int
    public let thumbnailPixelSize: Int
    public private(set) var state: State
    public private(set) var thumbnail: DecodedPixbuf?
    public private(set) var isVisible = false
    /// How many times the thumbnail was requested from the loader (first load plus retries).
    public private(set) var attempts = 0

    private let loader: ImageLoader
    private var ticket: ImageTicket?
    private var observers = Observers<ImageDownload>()

    public init(item: GalleryItem, index: Int, loader: ImageLoader, thumbnailPixelSize: Int, showSensitive: Bool) {
        self.item = item
        self.index = index
        self.loader = loader
        self.thumbnailPixelSize = thumbnailPixelSize
        if item.thumbnailURL(covering: thumbnailPixelSize) == nil {
            // The feed named a picture, but by a URL the app does not fetch: say so instead of a blank.
            state = item.mediaURLRejected ? .failed(reason: HTTPError.notAWebAddress.message) : .noPreview
        } else {
            state = item.isSensitive && !showSensitive ? .sensitiveHidden : .notStarted
        }
    }

    public var thumbnailURL: String? { item.thumbnailURL(covering: thumbnailPixelSize) }

    public func observe(owner: AnyObject, _ handler: @escaping @MainActor (ImageDownload) -> Void) {
        observers.add(owner: owner, handler)
    }

    /// Called as the row enters or leaves the visible part of the list. Becoming visible starts the download.
    /// A row that leaves the view while its download still waits for a connection gives its place up (a
    /// fast scroll past a hundred rows must not queue a hundred downloads); it starts again if it comes back.
    /// A download already under way goes on, behind the rows on screen.
    public func setVisible(_ visible: Bool) {
        guard visible != isVisible else { return }
        isVisible = visible
        if visible && state == .notStarted {
            start()
        } else if !visible, let ticket, ticket.isWaitingForConnection {
            ticket.cancel()
            self.ticket = nil
            state = .notStarted
            observers.notify(self)
        } else {
            ticket?.priority = visible ? .visible : .offscreen
        }
    }

    /// Tries a failed download again (the failure icon was clicked).
    public func retry() {
        guard case .failed = state else { return }
        start()
    }

    /// Shows a hidden sensitive item: its thumbnail starts loading if the row is on screen.
    public func revealSensitive() {
        guard state == .sensitiveHidden else { return }
        state = .notStarted
        if isVisible { start() } else { observers.notify(self) }
    }

    /// Stops any download in flight; used when the gallery is replaced or the window closes.
    public func cancel() {
        ticket?.cancel()
        ticket = nil
        if state == .loading { state = .notStarted }
    }

    private func start() {
        guard let url = thumbnailURL else { return }
        attempts += 1
        state = .loading
        observers.notify(self)
        ticket = loader.load(url, maxPixelSize: thumbnailPixelSize, priority: isVisible ? .visible : .offscreen) {
            [weak self] result in
            guard let self else { return }
            self.ticket = nil
            switch result {
            case .success(let image):
                self.thumbnail = image
                self.state = .loaded
            case .failure(let error) where error.isCancelled:
                self.state = .notStarted
            case .failure(let error):
                self.state = .failed(reason: error.message)
            }
            self.observers.notify(self)
        }
    }
}
