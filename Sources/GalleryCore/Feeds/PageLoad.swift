import GObjectBindings

/// One `loadNextPage`: its request (the page asked for, then the pages after lookups and empty replies, and the
/// same page again after a rate limit), the `deliver` its items go to, the request or parse in flight and its
/// timers. The policies that span pages are the feed's collaborators; the load reports through the feed's
/// state. A load holds its feed weakly: a feed let go cancels its load (isolated deinit).
@MainActor
final class PageLoad {
    private weak var feed: GalleryFeed?
    private let deliver: @MainActor ([GalleryItem]) -> Void
    /// The request or parse in flight; cancelling it (or replacing it) makes its result be ignored.
    private var cancellable: Cancellable?
    private var retryTimer: MainLoopSource?
    /// Gives up waiting for an optional request's answer (`PageRequest.fallback`).
    private var optionalDeadline: MainLoopSource?
    private let slices: SlicedDelivery

    init(feed: GalleryFeed, deliver: @escaping @MainActor ([GalleryItem]) -> Void) {
        self.feed = feed
        self.deliver = deliver
        slices = SlicedDelivery { [weak feed] in feed?.limits.maxItemsPerDelivery ?? .max }
    }

    func start(_ request: PageRequest) { send(request) }

    /// Stops the request or parse in flight (its result is ignored), the retry and the slices not handed over.
    func cancel() {
        cancellable?.cancel()
        cancellable = nil
        retryTimer?.cancel()
        retryTimer = nil
        optionalDeadline?.cancel()
        optionalDeadline = nil
        slices.cancel()
    }

    private func send(_ request: PageRequest) {
        guard let feed else { return }
        guard request.url.utf8.count <= PagingGuard.maxLinkBytes else {
            // TRANSLATORS: {kilobytes} is a number.
            let detail = tr("The next page’s address is longer than {kilobytes} KB.", ["kilobytes": PagingGuard.maxLinkBytes / 1024])
            return feed.state = .failed(.malformedResponse(service: feed.serviceName, detail: detail))
        }
        guard feed.paging.admit(request) else { return feed.state = .failed(.pagingLoop(service: feed.serviceName)) }
        feed.state = .loading(page: feed.pagesLoaded + 1)
        if let snapshot = feed.offline.copy { return replay(request, from: snapshot) }
        if let ahead = feed.readAhead.take(for: request) { return adopt(ahead, as: request) }
        let cancellable = Cancellable()
        self.cancellable = cancellable
        if let fallback = request.fallback?.request {
            optionalDeadline = MainLoopSource.after(milliseconds: UInt32(feed.limits.optionalAnswerMilliseconds)) { [weak self] in
                guard let self, self.cancellable === cancellable else { return }
                self.optionalDeadline = nil
                self.cancellable = nil
                cancellable.cancel()
                self.send(fallback)
            }
        }
        feed.client.fetch(feed.httpRequest(request), cancellable: cancellable) { [weak self] result in
            guard let self, self.cancellable === cancellable else { return }
            self.cancellable = nil
            self.optionalDeadline?.cancel()
            self.optionalDeadline = nil
            received(result, of: request)
        }
    }

    /// Makes the page asked for ahead this load's request in flight, as if `send` had just asked for it.
    private func adopt(_ ahead: Lookahead, as request: PageRequest) {
        let token = ahead.cancellable
        cancellable = token
        // Holds this load weakly and not the lookahead: no cycle between the page and its hand-over.
        ahead.handOver { [weak self] result in
            guard let self, self.cancellable === token else { return }
            self.cancellable = nil
            received(result, of: request)
        }
    }

    private func received(_ result: Result<HTTPResponse, HTTPError>, of request: PageRequest) {
        guard let feed else { return }
        // A lookup the gallery can do without: the feed goes on without its answer.
        if case .failure(let error) = result, error != .cancelled, let fallback = request.fallback?.request {
            return send(fallback)
        }
        switch result {
        case .success(let response) where response.head.status == 304 && feed.isConditional(request):
            // Nothing changed since the validators were given: no items, no further page.
            feed.notModified = true
            feed.next = nil
            feed.state = .finished
        case .success(let response):
            askAhead(after: response, of: request, in: feed)
            parse(response, of: request)
        case .failure(.cancelled):
            feed.state = .idle
        case .failure(let error) where error.isUnreachable && feed.offline.mayStandIn(pagesLoaded: feed.pagesLoaded):
            useSnapshot(for: request, after: error)
        case .failure(.certificate(let detail)):
            feed.state = .failed(.certificate(service: feed.serviceName, detail: detail))
        case .failure(.tooLarge):
            feed.state = .failed(.malformedResponse(service: feed.serviceName, detail: tr("The page is too large.")))
        case .failure(let error):
            feed.failedUnreachable = error.isUnreachable
            feed.state = .failed(.network(service: feed.serviceName, detail: error.message))
        }
    }

    /// Asks for the page `response` names while it is parsed (see `ReadAhead`); never from the saved copy.
    private func askAhead(after response: HTTPResponse, of request: PageRequest, in feed: GalleryFeed) {
        guard feed.readAhead.wantsGuess, feed.offline.copy == nil, feed.paging.mayAskAhead,
              let guess = feed.source.nextRequestAhead(response, of: request), !feed.paging.wasRequested(guess),
              guess.url.utf8.count <= PagingGuard.maxLinkBytes
        else { return }
        feed.readAhead.ask(for: guess, with: feed.httpRequest(guess))
    }

    /// Parses on a worker thread; the state stays `.loading` meanwhile, and `cancel()` drops the result.
    private func parse(_ response: HTTPResponse, of request: PageRequest) {
        guard let source = feed?.source else { return }
        let cancellable = Cancellable()
        self.cancellable = cancellable
        WorkerTask.run(cancellable: cancellable, {
            Result { () throws(GalleryError) in try source.parse(response, of: request) }
        }, completion: { [weak self] parsed in
            guard let self, self.cancellable === cancellable else { return }
            self.cancellable = nil
            apply(parsed, of: request, response: response)
        })
    }

    private func apply(_ parsed: Result<PageResult, GalleryError>, of request: PageRequest, response: HTTPResponse) {
        guard let feed else { return }
        let result: PageResult
        switch parsed {
        case .failure(let error) where error.retrying(in: nil) != nil:
            return waitAndRetry(request, after: error)
        case .failure(let error):
            return feed.state = .failed(error)
        case .success(let page) where page.resolutionIsStale:
            // The remembered account is gone or renamed: look it up after all, once. The same request may
            // follow the lookup again (a stray 404), so it is no loop.
            guard !feed.resolutionWasStale else {
                feed.next = nil
                return feed.state = .failed(.pagingLoop(service: feed.serviceName))
            }
            feed.resolutionWasStale = true
            feed.backoff.reset()
            feed.paging.forget(request)
            return send(feed.source.firstRequest())
        case .success(let page):
            result = page
        }
        feed.backoff.reset()
        if feed.profile == nil { feed.profile = result.profile }
        if let resolution = result.resolution { feed.resolution = resolution }
        feed.offline.record(response, of: request)
        // A "next" link back to a page already requested would page forever: stop after this page.
        let loops = feed.paging.loops(to: result.next)
        feed.next = loops ? nil : result.next
        feed.readAhead.expect(feed.next)
        if result.items.isEmpty, let following = feed.next {
            // Lookups and pages whose items were all filtered out: go on without waiting for a scroll — but
            // not forever.
            let emptyInARow = feed.paging.countEmptyReply()
            guard emptyInARow < feed.limits.maxEmptyReplies else {
                feed.next = nil
                return feed.state = .failed(.emptyPages(service: feed.serviceName, count: emptyInARow))
            }
            return send(following)
        }
        feed.paging.countItems()
        if feed.pagesLoaded == 0, request.method == "GET", request.body == nil {
            feed.firstPageValidators = HTTPValidators(url: request.url, head: response.head,
                                                      maxBytes: FollowLimits.maxValidatorBytes)
        }
        feed.pagesLoaded += 1
        feed.offline.pageArrived()
        feed.itemsDelivered += result.items.count
        let end: GalleryFeed.State
        if loops {
            end = .failed(.pagingLoop(service: feed.serviceName))
        } else if feed.itemsDelivered == 0 && feed.next == nil {
            end = .failed(.emptyGallery(username: feed.source.username))
        } else {
            end = feed.next == nil ? .finished : .idle
        }
        // The feed stays `.loading` until the last slice.
        slices.hand(result.items, to: deliver) { [weak feed] in feed?.state = end }
    }

    /// Waits as `RateLimitBackoff` says before asking for `request` again, announcing the wait in the state.
    private func waitAndRetry(_ request: PageRequest, after refusal: GalleryError) {
        guard let feed else { return }
        guard let wait = feed.backoff.wait(after: refusal, limits: feed.limits) else {
            // No wait is announced: the feed is not trying again by itself.
            return feed.state = .failed(refusal.retrying(in: nil) ?? refusal)
        }
        feed.paging.forget(request)
        feed.state = .waiting(page: feed.pagesLoaded + 1, seconds: wait.seconds)
        retryTimer = MainLoopSource.after(milliseconds: wait.milliseconds) { [weak self] in
            guard let self, let feed = self.feed, case .waiting = feed.state else { return }
            retryTimer = nil
            send(request)
        }
    }

    // MARK: The saved first page

    private func useSnapshot(for request: PageRequest, after error: HTTPError) {
        guard let feed else { return }
        // Held like a request, so that `cancel()` drops the answer.
        let cancellable = Cancellable()
        self.cancellable = cancellable
        let looking = feed.offline.load { [weak self] snapshot in
            guard let self, self.cancellable === cancellable, let feed = self.feed else { return }
            self.cancellable = nil
            // Looked up once: each lookup copies the reply's body (up to `FeedSnapshot.maxBytes`).
            guard let snapshot, let response = snapshot.response(for: request.key) else {
                return feed.state = .failed(.network(service: feed.serviceName, detail: error.message))
            }
            feed.offline.goOffline(with: snapshot)
            parse(response, of: request)
        }
        guard looking else {
            self.cancellable = nil
            return feed.state = .failed(.network(service: feed.serviceName, detail: error.message))
        }
    }

    /// Answers `request` from the saved copy; what it does not hold (the pages after the first) waits for
    /// the network to be back (a reload).
    private func replay(_ request: PageRequest, from snapshot: FeedSnapshot) {
        guard let feed else { return }
        guard let response = snapshot.response(for: request.key) else {
            // An optional lookup that had failed when the copy was made: the copy goes on as the feed did.
            if let fallback = request.fallback?.request { return send(fallback) }
            feed.next = nil
            return feed.state = .failed(.offline(service: feed.serviceName))
        }
        parse(response, of: request)
    }
}
