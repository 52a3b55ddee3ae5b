import GObjectBindings

/// Fetches a gallery's pages one at a time and hands their items over. Guards against feeds that never end
/// (a repeated or endless "next" link, pages without items), honours rate limits by waiting — a bounded number
/// of times, backing off — and turns every failure into a `GalleryError` for the window. Pages are parsed on a
/// GTask worker thread: a hostile reply can take a parser a while, never the main loop.
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
        didSet {
            guard state != oldValue else { return }
            // A feed that ended wants no page it asked for ahead.
            switch state {
            case .finished, .failed: dropLookahead()
            case .idle, .loading, .waiting: break
            }
            onStateChange?()
        }
    }
    public private(set) var pagesLoaded = 0
    public private(set) var itemsDelivered = 0
    public var onStateChange: (@MainActor () -> Void)?
    /// Pages asked for while the page before was still being parsed (`loadAllPages`).
    public private(set) var pagesAskedAhead = 0

    /// Pages, lookups included, before the feed is considered endless: far past any real gallery (100,000
    /// items are 4,167 pages of 24), so only a feed that invents pages forever meets it.
    public var maxRequests = 100_000
    public var limits: Limits

    private let client: HTTPClient
    /// Where the first page's replies are kept for a launch without network; nil keeps nothing.
    private let snapshots: FeedSnapshotStore?
    /// Collects the replies up to the first page of items; nil once it is saved, or without `snapshots`.
    private var recorder: FeedSnapshotRecorder?
    /// The saved first page shown because the service could not be reached; nil while the feed is live.
    public private(set) var offlineCopy: FeedSnapshot?
    private var next: PageRequest?
    /// The keys (`PageRequest.key`) of the requests sent: a URL, or a URL and a body.
    private var requestedKeys: Set<String> = []
    /// The request or parse in flight; cancelling it (or replacing it) makes its result be ignored.
    private var cancellable: Cancellable?
    private var retryTimer: MainLoopSource?
    private var deliveryTimer: MainLoopSource?
    private var rateLimitsInARow = 0
    /// The last rate limit or refusal waited out (see `waitReason`).
    private var waitingFor: GalleryError?
    private var emptyRepliesInARow = 0
    /// Set by `loadAllPages`: every page will be wanted, so the next is asked for as soon as a reply names it.
    private var readsAhead = false
    /// The page asked for ahead of its turn, until the parse of the one before says whether it is the next.
    private var lookahead: Lookahead?
    /// A parse named another page than the one asked for ahead: no more guesses for this feed.
    private var guessedWrong = false

    /// With `snapshots`, the replies that make the first page are saved there, and stand in for them when
    /// the service cannot be reached (`offlineCopy`).
    public init(source: any GallerySource, client: HTTPClient, limits: Limits = .init(),
                snapshots: FeedSnapshotStore? = nil) {
        self.source = source
        self.client = client
        self.limits = limits
        self.snapshots = snapshots
        let first = source.firstRequest()
        next = first
        recorder = snapshots == nil ? nil : FeedSnapshotRecorder(firstURL: first.key)
    }

    /// A feed let go without `cancel()` (its gallery replaced while the client lives on) stops its request or
    /// parse, the page it asked for ahead and its timers, rather than let them run on for nobody.
    isolated deinit {
        cancellable?.cancel()
        lookahead?.cancellable.cancel()
        retryTimer?.cancel()
        deliveryTimer?.cancel()
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
        readsAhead = true
        let observer = onStateChange
        onStateChange = { [weak self] in
            observer?()
            guard let self else { return }
            switch state {
            case .idle: loadNextPage(deliver: page)
            // The state ends just before the last page's items are handed over: `end` comes after them.
            case .finished, .failed: MainLoopSource.idle { [state] in end(state) }
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
        deliveryTimer?.cancel()
        deliveryTimer = nil
        dropLookahead()
        onStateChange = nil
        if case .loading = state { state = .idle }
        next = nil
    }

    private var serviceName: String { source.serviceName }

    private func send(_ request: PageRequest, deliver: @escaping @MainActor ([GalleryItem]) -> Void) {
        guard requestedKeys.count < maxRequests else { return state = .failed(.pagingLoop(service: serviceName)) }
        requestedKeys.insert(request.key)
        state = .loading(page: pagesLoaded + 1)
        if let offlineCopy { return replay(request, from: offlineCopy, deliver: deliver) }
        if let ahead = takeLookahead(for: request) { return adopt(ahead, as: request, deliver: deliver) }
        let cancellable = Cancellable()
        self.cancellable = cancellable
        client.fetch(httpRequest(request), cancellable: cancellable) { [weak self] result in
            guard let self, self.cancellable === cancellable else { return }
            self.cancellable = nil
            self.received(result, of: request, deliver: deliver)
        }
    }

    private func httpRequest(_ request: PageRequest) -> HTTPRequest {
        HTTPRequest(url: request.url, headers: request.headers, maxBodyBytes: limits.maxPageBytes,
                    method: request.method, body: request.body)
    }

    private func received(_ result: Result<HTTPResponse, HTTPError>, of request: PageRequest,
                          deliver: @escaping @MainActor ([GalleryItem]) -> Void) {
        switch result {
        case .success(let response):
            readAhead(after: response, of: request)
            handle(response, of: request, deliver: deliver)
        case .failure(.cancelled):
            state = .idle
        case .failure(let error) where error.isUnreachable && mayUseSnapshot:
            useSnapshot(for: request, after: error, deliver: deliver)
        case .failure(.certificate(let detail)):
            state = .failed(.certificate(service: serviceName, detail: detail))
        case .failure(.tooLarge):
            state = .failed(.malformedResponse(service: serviceName, detail: tr("The page is too large.")))
        case .failure(let error):
            state = .failed(.network(service: serviceName, detail: error.message))
        }
    }

    /// Parses on a worker thread; the state stays `.loading` meanwhile, and `cancel()` drops the result.
    private func handle(_ response: HTTPResponse, of request: PageRequest,
                        deliver: @escaping @MainActor ([GalleryItem]) -> Void) {
        let source = self.source
        let cancellable = Cancellable()
        self.cancellable = cancellable
        WorkerTask.run(cancellable: cancellable, {
            Result { () throws(GalleryError) in try source.parse(response, of: request) }
        }, completion: { [weak self] parsed in
            guard let self, self.cancellable === cancellable else { return }
            self.cancellable = nil
            self.apply(parsed, of: request, response: response, deliver: deliver)
        })
    }

    // MARK: Reading ahead

    /// A page asked for before the parse of the one before named it; its answer waits here until then.
    private final class Lookahead {
        let request: PageRequest
        let cancellable = Cancellable()
        var answer: Result<HTTPResponse, HTTPError>?
        /// Set once the page is the feed's own request: the answer goes straight on. It must not hold the
        /// lookahead itself (a cycle), and is let go once it ran.
        var onAnswer: (@MainActor (Result<HTTPResponse, HTTPError>) -> Void)?

        init(request: PageRequest) { self.request = request }
    }

    /// With `readsAhead`, asks for the page a reply names cheaply (`GallerySource.nextRequestAhead`) while the
    /// reply is parsed on a worker: the chain of pages goes at the server's pace, not at the parse's. One page
    /// ahead at most, never one asked for before, within `maxRequests`, and only while replies bring items: a
    /// feed of empty pages is followed one page at a time, and stopped after as many requests as without this.
    /// A feed whose parse once named another page than its guess is not guessed for again, so a feed cannot
    /// make the app ask for more than one page it did not need.
    private func readAhead(after response: HTTPResponse, of request: PageRequest) {
        guard readsAhead, !guessedWrong, lookahead == nil, offlineCopy == nil, emptyRepliesInARow == 0,
              requestedKeys.count < maxRequests,
              let guess = source.nextRequestAhead(response, of: request), !requestedKeys.contains(guess.key)
        else { return }
        let ahead = Lookahead(request: guess)
        lookahead = ahead
        pagesAskedAhead += 1
        client.fetch(httpRequest(guess), cancellable: ahead.cancellable) { result in
            guard !ahead.cancellable.isCancelled else { return }
            guard let onAnswer = ahead.onAnswer else { return ahead.answer = result }
            ahead.onAnswer = nil
            onAnswer(result)
        }
    }

    /// The page asked for ahead if it is `request`; any other is given up (the parse named another page).
    private func takeLookahead(for request: PageRequest) -> Lookahead? {
        guard let ahead = lookahead else { return nil }
        guard ahead.request == request else {
            dropLookahead(guessedWrong: true)
            return nil
        }
        lookahead = nil
        return ahead
    }

    /// Makes the page asked for ahead the feed's request in flight, as if `send` had just asked for it.
    private func adopt(_ ahead: Lookahead, as request: PageRequest, deliver: @escaping @MainActor ([GalleryItem]) -> Void) {
        let token = ahead.cancellable
        cancellable = token
        let finish = { @MainActor [weak self] (result: Result<HTTPResponse, HTTPError>) in
            guard let self, self.cancellable === token else { return }
            self.cancellable = nil
            self.received(result, of: request, deliver: deliver)
        }
        if let answer = ahead.answer { finish(answer) } else { ahead.onAnswer = finish }
    }

    /// Gives up the page asked for ahead: the feed ended, or the parse named another page.
    private func dropLookahead(guessedWrong wrong: Bool = false) {
        guard let ahead = lookahead else { return }
        if wrong { guessedWrong = true }
        ahead.cancellable.cancel()
        lookahead = nil
    }

    // MARK: The saved first page

    /// Only until the first page arrived: later pages are not saved, and a gallery half shown live and half
    /// from an old copy would be neither.
    private var mayUseSnapshot: Bool { snapshots != nil && offlineCopy == nil && pagesLoaded == 0 }

    private func useSnapshot(for request: PageRequest, after error: HTTPError,
                             deliver: @escaping @MainActor ([GalleryItem]) -> Void) {
        guard let snapshots, let firstURL = recorder?.firstURL else {
            return state = .failed(.network(service: serviceName, detail: error.message))
        }
        // Held like a request, so that `cancel()` drops the answer.
        let cancellable = Cancellable()
        self.cancellable = cancellable
        snapshots.load(firstURL: firstURL) { [weak self] snapshot in
            guard let self, self.cancellable === cancellable else { return }
            self.cancellable = nil
            // Looked up once: each lookup copies the reply's body (up to `FeedSnapshot.maxBytes`).
            guard let snapshot, let response = snapshot.response(for: request.key) else {
                return self.state = .failed(.network(service: self.serviceName, detail: error.message))
            }
            self.offlineCopy = snapshot
            self.recorder = nil
            self.handle(response, of: request, deliver: deliver)
        }
    }

    /// Answers `request` from the saved copy; what it does not hold (the pages after the first) waits for
    /// the network to be back (a reload).
    private func replay(_ request: PageRequest, from snapshot: FeedSnapshot,
                        deliver: @escaping @MainActor ([GalleryItem]) -> Void) {
        guard let response = snapshot.response(for: request.key) else {
            next = nil
            return state = .failed(.offline(service: serviceName))
        }
        handle(response, of: request, deliver: deliver)
    }

    // MARK: Replies

    private func apply(_ parsed: Result<PageResult, GalleryError>, of request: PageRequest, response: HTTPResponse,
                       deliver: @escaping @MainActor ([GalleryItem]) -> Void) {
        let result: PageResult
        switch parsed {
        case .failure(let error) where error.retrying(in: nil) != nil:
            return waitAndRetry(request, after: error, deliver: deliver)
        case .failure(let error):
            return state = .failed(error)
        case .success(let page):
            result = page
        }
        rateLimitsInARow = 0
        recorder?.record(response, of: request)
        // A "next" link back to a page already requested would page forever: stop after this page.
        let loops = result.next.map { requestedKeys.contains($0.key) } ?? false
        next = loops ? nil : result.next
        if lookahead != nil, lookahead?.request != next { dropLookahead(guessedWrong: true) }
        if result.items.isEmpty, let following = next {
            // Lookups and pages whose items were all filtered out: go on without waiting for a scroll — but
            // not forever.
            emptyRepliesInARow += 1
            guard emptyRepliesInARow < limits.maxEmptyReplies else {
                next = nil
                return state = .failed(.emptyPages(service: serviceName, count: emptyRepliesInARow))
            }
            return send(following, deliver: deliver)
        }
        emptyRepliesInARow = 0
        pagesLoaded += 1
        if let snapshot = recorder?.snapshot(savedAt: DateText.now()) { snapshots?.save(snapshot) }
        recorder = nil
        itemsDelivered += result.items.count
        let end: State
        if loops {
            end = .failed(.pagingLoop(service: serviceName))
        } else if itemsDelivered == 0 && next == nil {
            end = .failed(.emptyGallery(username: source.username))
        } else {
            end = next == nil ? .finished : .idle
        }
        deliverInSlices(result.items[...], then: end, deliver: deliver)
    }

    /// Hands a page's items over at most `maxItemsPerDelivery` per main-loop turn — each becomes a row, and
    /// a reply of a thousand items must not become one long freeze — then enters `end`. The feed stays
    /// `.loading` until the last slice.
    private func deliverInSlices(_ items: ArraySlice<GalleryItem>, then end: State,
                                 deliver: @escaping @MainActor ([GalleryItem]) -> Void) {
        guard items.count > limits.maxItemsPerDelivery else {
            state = end
            if !items.isEmpty { deliver(Array(items)) }
            return
        }
        deliver(Array(items.prefix(limits.maxItemsPerDelivery)))
        // At idle priority: GTK lays out and paints the rows just made before the next slice comes.
        deliveryTimer = MainLoopSource.idle { [weak self] in
            self?.deliveryTimer = nil
            self?.deliverInSlices(items.dropFirst(self?.limits.maxItemsPerDelivery ?? 0), then: end, deliver: deliver)
        }
    }

    /// Why the feed waits while `.waiting`, with the seconds it waits ("DeviantArt asks to slow down",
    /// "DeviantArt is refusing requests for now"); nil otherwise.
    public var waitReason: GalleryError? {
        guard case .waiting(_, let seconds) = state else { return nil }
        return waitingFor?.retrying(in: seconds)
    }

    /// Waits before asking again after `refusal` (a rate limit, or a refusal for now): at least the server's
    /// Retry-After, at least an exponential backoff with jitter (so many clients told "0" do not come back in
    /// step), and only `maxRateLimitRetries` times in a row; a wait longer than `maxWaitSeconds` is not waited
    /// out at all.
    private func waitAndRetry(_ request: PageRequest, after refusal: GalleryError,
                              deliver: @escaping @MainActor ([GalleryItem]) -> Void) {
        var seconds: Int?
        if case .rateLimited(_, let value) = refusal { seconds = value }
        if case .refusingForNow(_, let value) = refusal { seconds = value }
        rateLimitsInARow += 1
        let backoff = Double(limits.backoffMilliseconds) * Double(1 << min(rateLimitsInARow - 1, 20))
        let jittered = backoff * Double.random(in: 0.5...1.0)
        let milliseconds = max(Double(seconds ?? 0) * 1000, jittered)
        guard rateLimitsInARow <= limits.maxRateLimitRetries, milliseconds <= Double(limits.maxWaitSeconds) * 1000 else {
            // No wait is announced: the feed is not trying again by itself.
            return state = .failed(refusal.retrying(in: nil) ?? refusal)
        }
        let wait = Int((milliseconds / 1000).rounded(.up))
        requestedKeys.remove(request.key)
        waitingFor = refusal
        state = .waiting(page: pagesLoaded + 1, seconds: wait)
        retryTimer = MainLoopSource.after(milliseconds: UInt32(max(1, milliseconds))) { [weak self] in
            guard let self, case .waiting = self.state else { return }
            self.retryTimer = nil
            self.send(request, deliver: deliver)
        }
    }
}
