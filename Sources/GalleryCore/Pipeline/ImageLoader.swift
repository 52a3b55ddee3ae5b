import GObjectBindings

/// Loads images for display: download (coalesced per URL, scheduled per host), validate, decode off the
/// main loop at the size asked for, and cache the result. Modelled on Nuke's pipeline, in callbacks on the
/// GLib main loop instead of async/await.
///
/// Guarantees: a URL is never fetched twice at the same time; a cancelled ticket's completion never runs;
/// when the last ticket of a fetch is cancelled the fetch stops (or never starts).
@MainActor
public final class ImageLoader {
    public struct Limits: Sendable {
        /// Bodies beyond this are abandoned with an error.
        public var maxImageBytes: Int
        /// What a decode may cost (pixels, memory), alone and all together.
        public var decode: ImageDecodeLimits

        public init(maxImageBytes: Int = 50 * 1_048_576, decode: ImageDecodeLimits = .init()) {
            self.maxImageBytes = maxImageBytes
            self.decode = decode
        }
    }

    public typealias Completion = @MainActor (Result<DecodedPixbuf, ImageLoadError>) -> Void

    public let client: HTTPClient
    public let cache: ImageCache
    public let limits: Limits
    let scheduler: FetchScheduler
    public let decoder: ImageDecoder
    private var fetches: [String: FetchJob] = [:]
    private var decodes: [ImageCache.Key: DecodeJob] = [:]

    public init(client: HTTPClient, cache: ImageCache = ImageCache(), limits: Limits = .init()) {
        self.client = client
        self.cache = cache
        self.limits = limits
        decoder = ImageDecoder(limits: limits.decode)
        // One connection per host stays free for page requests: a feed served from the same host as its
        // images (the demo, self-hosted servers) must not wait behind a screenful of thumbnails, or behind a
        // stalled one, for its next page.
        scheduler = FetchScheduler(maxPerHost: max(1, client.configuration.maxConnectionsPerHost - 1))
    }

    /// Fetches running on the network now.
    public var activeFetchCount: Int { scheduler.runningCount }
    /// Fetches waiting for a connection slot.
    public var waitingFetchCount: Int { scheduler.waitingCount }
    /// Fetches or decodes not yet finished, for tests and benchmarks.
    public var unfinishedJobCount: Int { fetches.count + decodes.count }

    /// Loads `url` scaled to fit `maxPixelSize` (nil: original size). A cached image completes before this
    /// returns; anything else completes later on the main loop, unless the ticket is cancelled first.
    /// `storeInCache: false` keeps the result out of the memory cache (a full-resolution image that would push
    /// out hundreds of thumbnails); it is still taken from the cache when it is there.
    @discardableResult
    public func load(_ url: String, maxPixelSize: Int?, priority: LoadPriority, storeInCache: Bool = true,
                     completion: @escaping Completion) -> ImageTicket {
        let key = ImageCache.Key(url: url, maxPixelSize: maxPixelSize)
        let ticket = ImageTicket(loader: self, key: key, priority: priority, completion: completion)
        if let cached = cache.image(for: key) {
            ticket.complete(.success(cached))
            return ticket
        }
        let job = decodes[key] ?? makeDecodeJob(key)
        if storeInCache { job.storeInCache = true }
        job.tickets.append(ticket)
        updatePriority(of: job)
        return ticket
    }

    // MARK: Tickets

    func cancel(_ ticket: ImageTicket) {
        guard let job = decodes[ticket.key] else { return }
        job.tickets.removeAll { $0 === ticket }
        if job.tickets.isEmpty { abandon(job) } else { updatePriority(of: job) }
    }

    /// True while the ticket's download waits for a connection slot (nothing sent yet).
    func isWaitingForConnection(_ ticket: ImageTicket) -> Bool {
        guard ticket.isPending, let fetch = fetches[ticket.key.url], let scheduled = fetch.scheduled else { return false }
        return !scheduled.isRunning
    }

    func priorityChanged(_ ticket: ImageTicket) {
        if let job = decodes[ticket.key] { updatePriority(of: job) }
    }

    // MARK: Decode jobs (one per URL and size)

    @MainActor private final class DecodeJob {
        let key: ImageCache.Key
        var tickets: [ImageTicket] = []
        var decoding: Cancellable?
        /// Any of its tickets wants the result cached.
        var storeInCache = false
        init(key: ImageCache.Key) { self.key = key }
        var priority: LoadPriority { tickets.map { $0.priority }.max() ?? .offscreen }
    }

    private func makeDecodeJob(_ key: ImageCache.Key) -> DecodeJob {
        let job = DecodeJob(key: key)
        decodes[key] = job
        if let fetch = fetches[key.url] {
            fetch.decodeJobs.append(job)
        } else {
            startFetchJob(key.url, for: job)
        }
        return job
    }

    private func updatePriority(of job: DecodeJob) {
        guard let fetch = fetches[job.key.url], let ticket = fetch.scheduled else { return }
        scheduler.setPriority(fetch.priority, of: ticket)
    }

    private func abandon(_ job: DecodeJob) {
        decodes[job.key] = nil
        job.decoding?.cancel()
        guard let fetch = fetches[job.key.url] else { return }
        fetch.decodeJobs.removeAll { $0 === job }
        if fetch.decodeJobs.isEmpty {
            fetches[job.key.url] = nil
            fetch.cancellable.cancel()
            if let ticket = fetch.scheduled { scheduler.cancel(ticket) }
        } else if let ticket = fetch.scheduled {
            scheduler.setPriority(fetch.priority, of: ticket)
        }
    }

    private func decode(_ job: DecodeJob, bytes: Bytes) {
        let cancellable = Cancellable()
        job.decoding = cancellable
        decoder.decode(bytes, maxPixelSize: job.key.maxPixelSize, cancellable: cancellable) { [weak self] result in
            guard let self, self.decodes[job.key] === job else { return }
            self.decodes[job.key] = nil
            if case .success(let image) = result, job.storeInCache { self.cache.insert(image, for: job.key) }
            for ticket in job.tickets { ticket.complete(result) }
        }
    }

    private func fail(_ job: DecodeJob, _ error: ImageLoadError) {
        decodes[job.key] = nil
        for ticket in job.tickets { ticket.complete(.failure(error)) }
    }

    // MARK: Fetch jobs (one per URL)

    @MainActor private final class FetchJob {
        let url: String
        let cancellable = Cancellable()
        var decodeJobs: [DecodeJob] = []
        var scheduled: FetchScheduler.Ticket?
        init(url: String) { self.url = url }
        var priority: LoadPriority { decodeJobs.map { $0.priority }.max() ?? .offscreen }
    }

    /// The fetch is complete — its first decode job attached, registered under its URL — before it is
    /// submitted, because the scheduler may start it at once and the fetch's completion must find everything
    /// it finishes (HTTPClient never completes before `fetch` returns, but this does not rely on it).
    private func startFetchJob(_ url: String, for decodeJob: DecodeJob) {
        let job = FetchJob(url: url)
        job.decodeJobs.append(decodeJob)
        fetches[url] = job
        let host = URLText.origin(of: url) ?? url
        job.scheduled = scheduler.submit(host: host, priority: .offscreen) { [weak self, weak job] ticket in
            guard let self, let job else { return }
            job.scheduled = ticket
            self.start(job)
        }
    }

    private func start(_ job: FetchJob) {
        let request = HTTPRequest(url: job.url, headers: ["Accept": "image/*"], maxBodyBytes: limits.maxImageBytes)
        client.fetch(request, cancellable: job.cancellable, validate: Self.validateImageResponse, progress: {
            [weak job] received, expected in
            // Coalesced: every ticket waiting for this URL, whatever size it wants, is told.
            let progress = LoadProgress(receivedBytes: received, expectedBytes: expected)
            job?.decodeJobs.forEach { $0.tickets.forEach { $0.report(progress) } }
        }) { [weak self] result in
            guard let self else { return }
            if let ticket = job.scheduled { self.scheduler.finish(ticket) }
            guard self.fetches[job.url] === job else { return }
            self.fetches[job.url] = nil
            switch result {
            case .success(let response):
                for decodeJob in job.decodeJobs {
                    decodeJob.tickets.forEach { $0.deliverOriginal(response.body) }
                    self.decode(decodeJob, bytes: response.body)
                }
            case .failure(let error):
                for decodeJob in job.decodeJobs { self.fail(decodeJob, .http(error)) }
            }
        }
    }

    /// Only 2xx bodies that claim to be images (or make no claim) are worth downloading; the decoder has the
    /// last word on what the bytes really are.
    static func validateImageResponse(_ head: HTTPResponseHead) -> HTTPError? {
        guard head.isSuccess else { return .status(head.status, head.reason) }
        guard let type = head.mediaType, !type.isEmpty else { return nil }
        if type.hasPrefix("image/") || type == "application/octet-stream" || type == "binary/octet-stream" {
            return nil
        }
        return .notAnImage(mediaType: type)
    }
}

/// A request for one image by one requester. Cancel it when the requester no longer cares (its row went
/// away); raise or lower its priority as the row scrolls in and out of view.
@MainActor
public final class ImageTicket {
    fileprivate let key: ImageCache.Key
    private weak var loader: ImageLoader?
    private var completion: ImageLoader.Completion?

    fileprivate init(loader: ImageLoader, key: ImageCache.Key, priority: LoadPriority,
                     completion: @escaping ImageLoader.Completion) {
        self.loader = loader
        self.key = key
        self.priority = priority
        self.completion = completion
    }

    public var priority: LoadPriority {
        didSet {
            if priority != oldValue, isPending { loader?.priorityChanged(self) }
        }
    }

    /// True until the image arrived, failed, or the ticket was cancelled.
    public var isPending: Bool { completion != nil }

    /// Nothing was sent for it yet: it waits behind other downloads to the same host.
    public var isWaitingForConnection: Bool { loader?.isWaitingForConnection(self) ?? false }

    /// Hears the download's progress, chunk by chunk, until the ticket completes or is cancelled. A download
    /// shared with other tickets (same URL) reports to each of them.
    public var onProgress: (@MainActor (LoadProgress) -> Void)?
    /// Gets the downloaded bytes just before they are decoded, for a requester that keeps the original (to
    /// decode it again at another size without a second download). Not called for a cached image.
    public var onOriginalBytes: (@MainActor (Bytes) -> Void)?

    public func cancel() {
        guard isPending else { return }
        completion = nil
        onProgress = nil
        onOriginalBytes = nil
        loader?.cancel(self)
    }

    fileprivate func report(_ progress: LoadProgress) {
        if isPending { onProgress?(progress) }
    }

    fileprivate func deliverOriginal(_ bytes: Bytes) {
        if isPending { onOriginalBytes?(bytes) }
    }

    fileprivate func complete(_ result: Result<DecodedPixbuf, ImageLoadError>) {
        guard let completion else { return }
        self.completion = nil
        onProgress = nil
        onOriginalBytes = nil
        completion(result)
    }
}

/// How much of an image's download has arrived.
public struct LoadProgress: Equatable, Sendable {
    public var receivedBytes: Int
    /// The response's declared length, when it declared one.
    public var expectedBytes: Int?

    public init(receivedBytes: Int, expectedBytes: Int?) {
        self.receivedBytes = receivedBytes
        self.expectedBytes = expectedBytes
    }

    /// 0…1 when the total is known.
    public var fraction: Double? {
        guard let expectedBytes, expectedBytes > 0 else { return nil }
        return min(1, Double(receivedBytes) / Double(expectedBytes))
    }
}
