import GObjectBindings

/// Fetches a gallery's pages one at a time and hands their items over. Guards against feeds that never end
/// (a repeated or endless "next" link), honours rate limits by waiting, and turns every failure into a
/// `GalleryError` for the window.
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
    public private(set) var state: State = .idle {
        didSet { if state != oldValue { onStateChange?() } }
    }
    public private(set) var pagesLoaded = 0
    public private(set) var itemsDelivered = 0
    public var onStateChange: (@MainActor () -> Void)?

    /// Pages, lookups included, before the feed is considered endless: far past any real gallery (100,000
    /// items are 4,167 pages of 24), so only a feed that invents pages forever meets it.
    public var maxRequests = 100_000
    public var maxPageBytes = 8 * 1_048_576
    /// Longest rate-limit wait the feed sits out by itself; longer ones end the feed with the message.
    public var maxWaitSeconds = 900

    private let client: HTTPClient
    private var next: PageRequest?
    private var requestedURLs: Set<String> = []
    private var cancellable: Cancellable?
    private var retryTimer: MainLoopSource?

    public init(source: any GallerySource, client: HTTPClient) {
        self.source = source
        self.client = client
        next = source.firstRequest()
    }

    public var canLoadMore: Bool { state == .idle && next != nil }

    /// Loads the next page unless one is already loading or the feed ended. `deliver` receives the page's
    /// items (in order, possibly after lookups or empty pages were skipped); it is not called on failure.
    public func loadNextPage(deliver: @escaping @MainActor ([GalleryItem]) -> Void) {
        guard canLoadMore, let request = next else { return }
        send(request, deliver: deliver)
    }

    /// Loads page after page until the feed ends, for callers without a scrolling list (`--list`, tests):
    /// `page` receives each page's items, `end` the final state (`.finished` or `.failed`). An
    /// `onStateChange` set before still runs, first.
    public func loadAllPages(page: @escaping @MainActor ([GalleryItem]) -> Void,
                             end: @escaping @MainActor (State) -> Void) {
        let observer = onStateChange
        onStateChange = { [weak self] in
            observer?()
            guard let self else { return }
            switch state {
            case .idle: loadNextPage(deliver: page)
            case .finished, .failed: end(state)
            case .loading, .waiting: break
            }
        }
        loadNextPage(deliver: page)
    }

    public func cancel() {
        cancellable?.cancel()
        cancellable = nil
        retryTimer?.cancel()
        retryTimer = nil
        onStateChange = nil
        if case .loading = state { state = .idle }
        next = nil
    }

    private var serviceName: String { source.kind.displayName }

    private func send(_ request: PageRequest, deliver: @escaping @MainActor ([GalleryItem]) -> Void) {
        guard requestedURLs.count < maxRequests else { return state = .failed(.pagingLoop(service: serviceName)) }
        requestedURLs.insert(request.url)
        state = .loading(page: pagesLoaded + 1)
        let cancellable = Cancellable()
        self.cancellable = cancellable
        let httpRequest = HTTPRequest(url: request.url, headers: request.headers, maxBodyBytes: maxPageBytes)
        client.fetch(httpRequest, cancellable: cancellable) { [weak self] result in
            guard let self, self.cancellable === cancellable else { return }
            self.cancellable = nil
            switch result {
            case .success(let response):
                self.handle(response, of: request, deliver: deliver)
            case .failure(.cancelled):
                self.state = .idle
            case .failure(.certificate(let detail)):
                self.state = .failed(.certificate(service: self.serviceName, detail: detail))
            case .failure(.tooLarge):
                self.state = .failed(.malformedResponse(service: self.serviceName, detail: "The page is too large."))
            case .failure(let error):
                self.state = .failed(.network(service: self.serviceName, detail: error.message))
            }
        }
    }

    private func handle(_ response: HTTPResponse, of request: PageRequest,
                        deliver: @escaping @MainActor ([GalleryItem]) -> Void) {
        let result: PageResult
        do {
            result = try source.parse(response, of: request)
        } catch .rateLimited(let service, let seconds) {
            return waitAndRetry(request, service: service, seconds: seconds, deliver: deliver)
        } catch {
            return state = .failed(error)
        }
        // A "next" link back to a page already requested would page forever: stop after this page.
        let loops = result.next.map { requestedURLs.contains($0.url) } ?? false
        next = loops ? nil : result.next
        if result.items.isEmpty, let following = next {
            // Lookups and pages whose items were all filtered out: go on without waiting for a scroll.
            return send(following, deliver: deliver)
        }
        pagesLoaded += 1
        itemsDelivered += result.items.count
        if loops {
            state = .failed(.pagingLoop(service: serviceName))
        } else if itemsDelivered == 0 && next == nil {
            state = .failed(.emptyGallery(username: source.username))
        } else {
            state = next == nil ? .finished : .idle
        }
        if !result.items.isEmpty { deliver(result.items) }
    }

    private func waitAndRetry(_ request: PageRequest, service: String, seconds: Int?,
                              deliver: @escaping @MainActor ([GalleryItem]) -> Void) {
        let wait = seconds ?? 60
        guard wait <= maxWaitSeconds else {
            return state = .failed(.rateLimited(service: service, retryAfterSeconds: wait))
        }
        requestedURLs.remove(request.url)
        state = .waiting(page: pagesLoaded + 1, seconds: wait)
        retryTimer = MainLoopSource.after(milliseconds: UInt32(max(1, wait)) * 1000) { [weak self] in
            guard let self, case .waiting = self.state else { return }
            self.retryTimer = nil
            self.send(request, deliver: deliver)
        }
    }
}
