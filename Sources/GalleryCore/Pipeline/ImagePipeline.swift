import GObjectBindings

/// Every image the app shows, copies or saves goes through here: thumbnails, the large view's fitted and
/// full-resolution decodes, Copy Image, Save Image As and `--download`. Modelled on Nuke's `ImagePipeline`,
/// in callbacks on the GLib main loop instead of async/await:
///
/// ```
///  ImageRequest ─► memory cache ─hit─► done before loadImage returns
///                     │ miss
///                     ▼
///  decode task (URL + size) ──depends on──► download task (URL) ──holds──► a HostScheduler slot ─► HTTPClient
///       │  or the bytes a caller holds (ImageOriginal): no download at all
///       ▼
///  ImageDecoder (probe, limits, decode on GTask workers) ─► memory cache ─► every subscriber
///
///  saveFile(request, to:) ─► save task (file) ──holds──► a HostScheduler slot ─► FileDownload ─► .NAME.part ─► NAME
///       or the bytes a caller holds, written without a request
/// ```
///
/// Each stage is a `PipelineTask`: one per key however many ask, run at the highest priority among those who
/// ask, cancelled when the last of them leaves. Guarantees: a URL is never downloaded into memory twice at the
/// same time; a cancelled request's callbacks never run; a download still waiting for a slot when its last
/// request leaves never touches the network.
@MainActor
public final class ImagePipeline {
    public struct Limits: Sendable {
        /// Bodies beyond this are abandoned with an error (and files beyond it are not saved).
        public var maxImageBytes: Int
        /// What a decode may cost (pixels, memory), alone and all together.
        public var decode: ImageDecodeLimits

        public init(maxImageBytes: Int = 50 * 1_048_576, decode: ImageDecodeLimits = .init()) {
            self.maxImageBytes = maxImageBytes
            self.decode = decode
        }
    }

    public typealias Completion = @MainActor (Result<ImageResponse, ImageLoadError>) -> Void

    public let client: HTTPClient
    public let cache: ImageCache
    public let limits: Limits
    let scheduler: HostScheduler
    let decoder: ImageDecoder
    private var downloads: [String: PipelineTask<ImageOriginal>] = [:]
    private var decodes: [DecodeKey: DecodeEntry] = [:]
    private var saves: [String: PipelineTask<SavedFile>] = [:]
    private var heldOriginals: [String: HeldOriginal] = [:]

    /// - Parameter decodes: false: no decoder helper is started ahead of a first decode (or of
    ///   `startDecoderHelpers`): a pipeline that only saves files (`--download`), or one whose process has more
    ///   pressing work at first (the window's, until its first frame).
    /// - Parameter sandbox: how the decoder helpers are started (tests: a bubblewrap that cannot work).
    public init(client: HTTPClient, cache: ImageCache = ImageCache(), limits: Limits = .init(), decodes: Bool = true,
                sandbox: DecoderSandbox = .init()) {
        self.client = client
        self.cache = cache
        self.limits = limits
        decoder = ImageDecoder(limits: limits.decode, sandbox: sandbox)
        if decodes { decoder.startHelpers() }
        // One connection per host stays free for page requests: a feed served from the same host as its
        // images (the demo, self-hosted servers) must not wait behind a screenful of thumbnails, or behind a
        // stalled one, for its next page.
        scheduler = HostScheduler(maxPerHost: max(1, client.configuration.maxConnectionsPerHost - 1))
    }

    /// Starts the decoder helpers ahead of the first decode, if they are not running yet.
    public func startDecoderHelpers() { decoder.startHelpers() }

    /// Downloads (into memory or to files) running on the network now.
    public var activeFetchCount: Int { scheduler.runningCount }
    /// Downloads waiting for a connection slot.
    public var waitingFetchCount: Int { scheduler.waitingCount }
    /// Downloads, decodes or saves not yet finished, for tests and benchmarks.
    public var unfinishedTaskCount: Int { downloads.count + decodes.count + saves.count }
    /// Connection slots per host (libsoup's per-host limit less one).
    public var maxConnectionsPerHost: Int { scheduler.maxPerHost }

    /// Runs `body` once, with the note to show, if images are decoded without the namespace sandbox because
    /// bubblewrap cannot create namespaces here (see `ImageDecoder.whenNamespaceSandboxFails`).
    public func whenNamespaceSandboxFails(_ body: @escaping @MainActor (String) -> Void) {
        decoder.whenNamespaceSandboxFails(body)
    }

    // MARK: Images

    /// Loads `request`'s image. One from the memory cache completes before this returns; anything else
    /// completes later on the main loop — `progress` hearing the download's bytes meanwhile — unless the task
    /// is cancelled first.
    @discardableResult
    public func loadImage(_ request: ImageRequest, progress: (@MainActor (LoadProgress) -> Void)? = nil,
                          completion: @escaping Completion) -> ImageTask {
        let key = DecodeKey(image: request.cacheKey, keepsAnimation: request.playsAnimation)
        // The cache holds an animation's first frame only: a request to play it is decoded again.
        if request.cachePolicy.contains(.readMemory), let cached = cache.image(for: key.image),
           !(request.playsAnimation && cached.isAnimated && !cached.isFirstFrameOnly) {
            let held = request.keepsOriginal ? heldOriginal(for: request.url) : nil
            completion(.success(ImageResponse(image: cached, original: held, file: cache.file(for: key.image))))
            return ImageTask(completed: request.priority)
        }
        let entry = decodes[key] ?? makeDecodeTask(key, usesDiskCache: request.cachePolicy.contains(.disk))
        if request.cachePolicy.contains(.writeMemory) { entry.storesInCache = true }
        return entry.task.subscribe(priority: request.priority) { [weak self] event in
            switch event {
            case .progress(let value):
                progress?(value)
            case .completed(let outcome):
                completion(outcome.map { response in
                    guard request.keepsOriginal, let original = response.original else {
                        return ImageResponse(image: response.image, animation: response.animation, file: response.file)
                    }
                    self?.hold(original)
                    return response
                })
            }
        }
    }

    /// What one decode task is for: a URL at a size, and whether it keeps an animation's frames.
    struct DecodeKey: Hashable {
        var image: ImageCache.Key
        var keepsAnimation: Bool
    }

    /// One decode per URL and size. `storesInCache`: one of its requests writes to the memory cache.
    @MainActor private final class DecodeEntry {
        let task: PipelineTask<ImageResponse>
        var storesInCache = false
        init(task: PipelineTask<ImageResponse>) { self.task = task }
    }

    private func makeDecodeTask(_ key: DecodeKey, usesDiskCache: Bool) -> DecodeEntry {
        let task = PipelineTask<ImageResponse> { [weak self] task in
            guard let self else { return }
            if let held = heldOriginal(for: key.image.url) { return decode(held, key, task) }
            task.dependOn(download(key.image.url, usesDiskCache: usesDiskCache)) { [weak self] event in
                switch event {
                case .progress(let value): task.send(value)
                case .completed(.success(let original)): self?.decode(original, key, task)
                case .completed(.failure(let error)): task.finish(.failure(error))
                }
            }
        }
        let entry = DecodeEntry(task: task)
        task.onEnd = { [weak self, unowned task] in
            if self?.decodes[key]?.task === task { self?.decodes[key] = nil }
        }
        decodes[key] = entry
        return entry
    }

    private func decode(_ original: ImageOriginal, _ key: DecodeKey, _ task: PipelineTask<ImageResponse>) {
        let cancellable = Cancellable()
        task.onCancel = { cancellable.cancel() }
        var file: ImageFileInfo?
        decoder.decode(original.bytes, maxPixelSize: key.image.maxPixelSize, keepsAnimation: key.keepsAnimation,
                       cancellable: cancellable, headerRead: { header in
            file = ImageFileInfo(header, byteCount: original.byteCount)
        }) { [weak self] result in
            guard !task.isEnded else { return }
            // Read now: a request that writes to the cache may have joined while the decode ran.
            if case .success(let output) = result, let self, let entry = decodes[key], entry.task === task,
               entry.storesInCache {
                cache.insert(output.image, for: key.image, file: file)
            }
            task.finish(result.map { ImageResponse(image: $0.image, original: original, animation: $0.animation, file: file) })
        }
    }

    /// The download of `url` into memory, shared by every decode of it.
    private func download(_ url: String, usesDiskCache: Bool) -> PipelineTask<ImageOriginal> {
        if let task = downloads[url] { return task }
        let task = PipelineTask<ImageOriginal>(slot: (scheduler, Self.host(of: url))) { [weak self] task in
            guard let self else { return }
            let cancellable = Cancellable()
            task.onCancel = { cancellable.cancel() }
            let request = HTTPRequest(url: url, headers: ["Accept": "image/*"], maxBodyBytes: limits.maxImageBytes,
                                      usesDiskCache: usesDiskCache)
            client.fetch(request, cancellable: cancellable, validate: Self.validateImageResponse, progress: { received, expected in
                // Coalesced: every request waiting for this URL, whatever size it wants, is told.
                task.send(LoadProgress(receivedBytes: received, expectedBytes: expected))
            }) { result in
                task.finish(result.map { ImageOriginal(url: url, bytes: $0.body) }.mapError { .http($0) })
            }
        }
        task.onEnd = { [weak self, unowned task] in
            if self?.downloads[url] === task { self?.downloads[url] = nil }
        }
        downloads[url] = task
        return task
    }

    // MARK: Files

    /// Saves the image at `request.url` into `destination`, byte for byte as the server sends it: through the
    /// hidden partial file, renamed once complete, resuming a partial file an earlier attempt left (see
    /// `FileDownload`). When a caller holds the image's bytes (`ImageOriginal`), they are written without a
    /// request. Downloads take a slot of the same per-host scheduler as the images. Two saves to the same file
    /// are one. `progress` hears this attempt's bytes (and the length expected, once known).
    @discardableResult
    public func saveFile(_ request: ImageRequest, to destination: FileDestination,
                         progress: (@MainActor (LoadProgress) -> Void)? = nil,
                         completion: @escaping @MainActor (Result<SavedFile, ImageLoadError>) -> Void) -> FileTask {
        let task = saves[destination.path] ?? makeSaveTask(request, destination)
        return task.subscribe(priority: request.priority) { event in
            switch event {
            case .progress(let value): progress?(value)
            case .completed(let outcome): completion(outcome)
            }
        }
    }

    private func makeSaveTask(_ request: ImageRequest, _ destination: FileDestination) -> PipelineTask<SavedFile> {
        let held = heldOriginal(for: request.url)
        let url = request.url
        let usesDiskCache = request.cachePolicy.contains(.disk)
        let task = PipelineTask<SavedFile>(slot: held == nil ? (scheduler, Self.host(of: url)) : nil) { [weak self] task in
            guard let self else { return }
            let download = FileDownload(url: url, destination: destination, client: client,
                                        maxBytes: request.isMedia ? MediaPlayer.maxMediaBytes : limits.maxImageBytes,
                                        usesDiskCache: usesDiskCache, held: held?.bytes, acceptsMedia: request.isMedia)
            task.onCancel = { download.cancel() }
            download.start(progress: { task.send($0) }, transferEnded: { task.releaseSlot() }) { task.finish($0) }
        }
        task.onEnd = { [weak self, unowned task] in
            if self?.saves[destination.path] === task { self?.saves[destination.path] = nil }
        }
        saves[destination.path] = task
        return task
    }

    // MARK: Held originals

    @MainActor private final class HeldOriginal {
        weak var original: ImageOriginal?
        init(_ original: ImageOriginal) { self.original = original }
    }

    /// The bytes of `url` that a caller holds, if any does.
    func heldOriginal(for url: String) -> ImageOriginal? { heldOriginals[url]?.original }

    /// Remembers `original` (weakly) for requests of its URL. The table holds only what callers keep: the few
    /// requests that ask for originals (the large view's one item), so sweeping it here costs nothing.
    private func hold(_ original: ImageOriginal) {
        heldOriginals = heldOriginals.filter { $0.value.original != nil }
        heldOriginals[original.url] = HeldOriginal(original)
    }

    // MARK: Checks

    private static func host(of url: String) -> String { URLText.origin(of: url) ?? url }

    /// Only 2xx bodies that claim to be images (or make no claim) are worth downloading; the decoder has the
    /// last word on what the bytes really are.
    static func validateImageResponse(_ head: HTTPResponseHead) -> HTTPError? {
        validateImageResponse(head, acceptsMedia: false)
    }

    /// `acceptsMedia`: a video or sound is saved, so video/ and audio/ types are what is expected too.
    static func validateImageResponse(_ head: HTTPResponseHead, acceptsMedia: Bool) -> HTTPError? {
        guard head.isSuccess else { return .status(head.status, head.reason) }
        guard let type = head.mediaType, !type.isEmpty else { return nil }
        if type.hasPrefix("image/") || type == "application/octet-stream" || type == "binary/octet-stream" {
            return nil
        }
        if acceptsMedia && (type.hasPrefix("video/") || type.hasPrefix("audio/") || type == "application/ogg") { return nil }
        return .notAnImage(mediaType: type)
    }
}
