import CGLib
import GObjectBindings

/// The offline demo gallery: a local HTTP server that answers DeviantArt's backend RSS URLs, Bluesky's XRPC
/// (`/xrpc/app.bsky.actor.getProfile`, `…feed.getAuthorFeed`; handles `NAME.demo.test`), Misskey's API
/// (`POST /api/users/show`, `/api/users/notes`), Mastodon's (`/api/v1/accounts/lookup`, `…/ID/statuses`) and
/// Commons' MediaWiki API (`/w/api.php?generator=allimages`) for the demo users of data/demo/users.json, with
/// their images, on 127.0.0.1.
///
/// Knobs, server-wide (`Options`) and per request (query parameters, which win): `latency=MS` before the
/// response, `bandwidth=BYTES_PER_SECOND` for the body, and on image URLs `fault=404|500|html|truncate|corrupt|
/// redirect|stall` (see `DemoFault`). `growEverySeconds` (`--grow-every`) makes every gallery gain an upload
/// at the top that often (`DemoGrowth`). Mastodon's statuses and Bluesky's author feed carry validators and
/// answer a matching conditional request with 304, as the real services do (`DemoValidators`).
@MainActor
public final class DemoServer {
    public struct Options: Sendable {
        /// Milliseconds before every response.
        public var latencyMilliseconds: Int
        /// Body rate limit for every response; nil sends at full speed.
        public var bandwidthBytesPerSecond: Int?
        /// Memory for image files read from disk (LRU).
        public var imageCacheBytes: Int
        /// Keep `requestLog` and `acceptedConnections` (tests, benchmarks); they grow with every request.
        public var recordsRequests: Bool
        /// Every this many seconds after `start`, each demo gallery gains a new upload at the top
        /// (`DemoGrowth`); nil: galleries stay as the catalog has them.
        public var growEverySeconds: Int?

        public init(latencyMilliseconds: Int = 0, bandwidthBytesPerSecond: Int? = nil,
                    imageCacheBytes: Int = 128 * 1024 * 1024, recordsRequests: Bool = true, growEverySeconds: Int? = nil) {
            self.growEverySeconds = growEverySeconds.flatMap { $0 > 0 ? $0 : nil }
            self.latencyMilliseconds = latencyMilliseconds
            self.bandwidthBytesPerSecond = bandwidthBytesPerSecond
            self.imageCacheBytes = imageCacheBytes
            self.recordsRequests = recordsRequests
        }
    }

    public let catalog: DemoCatalog
    public let options: Options
    private let router: DemoRouter
    private let http: LocalHTTPServer

    /// Loads the catalog from `<dataDirectory>/demo/users.json` and checks that gallery-demo-images made the
    /// images for it. Throws `DemoServerError` with a message fit for the user.
    public init(dataDirectory: String, options: Options = .init()) throws {
        catalog = try DemoCatalog(contentsOf: DemoGalleryLocation.catalogPath(in: dataDirectory))
        let imagesDirectory = DemoGalleryLocation.imagesDirectory(in: dataDirectory)
        let stampPath = DemoGalleryLocation.stampPath(in: dataDirectory)
        guard g_file_test(imagesDirectory, G_FILE_TEST_IS_DIR) != 0, let stamp = File.smallText(atPath: stampPath) else {
            throw DemoServerError.imagesMissing(directory: imagesDirectory)
        }
        guard stamp.contains("catalog \(catalog.fingerprint)") else {
            throw DemoServerError.imagesOutOfDate(directory: imagesDirectory)
        }
        self.options = options
        http = LocalHTTPServer(serverHeader: "GalleryDemoServer", recordsRequests: options.recordsRequests)
        router = DemoRouter(catalog: catalog,
                            images: ImageStore(directory: imagesDirectory, capacityBytes: options.imageCacheBytes))
    }

    /// Listens on 127.0.0.1:`port` (0 picks a free port); `baseURL` tells where.
    public func start(port: UInt16 = 0) throws {
        try http.start(port: port) { [weak self] message in self?.handle(message) }
        router.baseURL = http.baseURL
        startedAt = Self.now()
    }

    // MARK: Growth

    /// When `start` ran, in seconds since 1970: growth steps count from here.
    private var startedAt = 0
    /// When each growth step happened, oldest first.
    private var growthDates: [Int] = []
    /// Uploads each demo gallery has gained so far.
    public var grownUploads: Int { growthDates.count }

    /// Gives every demo gallery one new upload at the top, dated now (tests; `growEverySeconds` does it by
    /// itself). At most `DemoGrowth.maxSteps`.
    public func grow() {
        guard growthDates.count < DemoGrowth.maxSteps else { return }
        growthDates.append(Self.now())
        router.catalog = DemoGrowth.catalog(catalog, grownAt: growthDates)
    }

    /// The catalog as served now: `catalog` with the uploads grown so far.
    public var currentCatalog: DemoCatalog {
        growOnSchedule()
        return router.catalog
    }

    /// Takes the growth steps `growEverySeconds` made due since the last request, each dated when it fell due.
    private func growOnSchedule() {
        guard let every = options.growEverySeconds, startedAt > 0 else { return }
        let due = min(DemoGrowth.maxSteps, (Self.now() - startedAt) / every)
        let scheduled = growthDates.count
        guard due > scheduled else { return }
        growthDates += (scheduled + 1...due).map { startedAt + $0 * every }
        router.catalog = DemoGrowth.catalog(catalog, grownAt: growthDates)
    }

    /// Seconds since 1970, rounded up: a gallery grown just after a client followed it has an upload dated
    /// after that moment, never in the same truncated second before it.
    private static func now() -> Int { Int((g_get_real_time() + 999_999) / 1_000_000) }

    /// "http://127.0.0.1:PORT", empty before `start`.
    public var baseURL: String { http.baseURL }
    public var acceptedConnections: Int { http.acceptedConnections }
    public var requestCount: Int { http.requestCount }
    public var requestLog: [String] { http.requestLog }
    /// Told each request's path and query as it arrives.
    public var onRequest: (@MainActor (String) -> Void)? {
        get { http.onRequest }
        set { http.onRequest = newValue }
    }
    /// Responses not finished yet; 0 once every client got its answer or went away.
    public var responsesInFlight: Int { http.responsesInFlight }
    /// Image files read from disk so far (the rest came from the memory cache).
    public var diskReads: Int { router.images.diskReads }

    /// Holds responses back (tests): a request whose path and query (as in `requestLog`) this accepts gets its
    /// answer only at `releaseHeldResponses()`, so a test sees the client with that request in flight for as long
    /// as it looks, whatever the machine's load.
    public var holdsResponse: (@MainActor (String) -> Bool)?
    private var heldResponses: [@MainActor () -> Void] = []
    /// Requests answered and waiting for `releaseHeldResponses()`.
    public var heldResponseCount: Int { heldResponses.count }

    /// Sends every held response (each with its latency and bandwidth, counted from now).
    public func releaseHeldResponses() {
        let held = heldResponses
        heldResponses = []
        held.forEach { $0() }
    }

    /// The feed URL of a demo user's first page (or of the page at `offset`).
    public func feedURL(user: String, offset: Int = 0) -> String { baseURL + DemoFeed.pagePath(user: user, offset: offset) }

    /// Stops listening and drops client connections. Idempotent.
    public func stop() { http.stop() }

    private func handle(_ message: Soup.ServerMessage) {
        // Misskey's API is all POSTs under /api/; Mastodon's REST API, under /api/v1/, is read with GETs.
        let isAPICall = message.path.hasPrefix("/api/") && !message.path.hasPrefix("/api/v1/")
        guard isAPICall ? message.method == "POST" : message.method == "GET" || message.method == "HEAD" else {
            var response = ServerResponse.html(status: 405, title: "Method Not Allowed",
                                               message: isAPICall ? "Only POST." : "Only GET and HEAD.")
            response.headers.append(("Allow", isAPICall ? "POST" : "GET, HEAD"))
            return ResponseWriter.send(response, to: message)
        }
        let latency: Int
        let bandwidth: Int?
        do {
            latency = try Self.knob("latency", in: message.query) ?? options.latencyMilliseconds
            bandwidth = try Self.knob("bandwidth", in: message.query) ?? options.bandwidthBytesPerSecond
        } catch {
            return ResponseWriter.send(.html(status: 400, title: "Bad Request", message: error.description), to: message)
        }
        growOnSchedule()
        let target = message.path + (message.rawQuery.map { "?\($0)" } ?? "")
        let hold = holdsResponse?(target) == true
        let send = { [weak self] (response: ServerResponse) in
            let response = response.delayed(milliseconds: latency).throttled(bytesPerSecond: bandwidth)
            guard hold, let self else { return ResponseWriter.send(response, to: message) }
            self.heldResponses.append { ResponseWriter.send(response, to: message) }
        }
        if isAPICall {
            send(router.routePost(path: message.path, body: message.requestBody))
            if hold { message.pause() }
            return
        }
        var answered = false
        router.route(path: message.path, query: message.query) { response in
            answered = true
            send(DemoValidators.answer(response, ifNoneMatch: message.requestHeader("If-None-Match"),
                                       ifModifiedSince: message.requestHeader("If-Modified-Since")))
        }
        // Waiting for the disk, or held: hold the response until the router answers and it is released.
        if !answered || hold { message.pause() }
    }

    private struct KnobError: Error, CustomStringConvertible {
        let description: String
    }

    /// A non-negative integer query parameter; nil when absent. 0 means "off".
    private static func knob(_ name: String, in query: [String: String]) throws(KnobError) -> Int? {
        guard let text = query[name] else { return nil }
        guard let value = Int(text), value >= 0 else {
            throw KnobError(description: "\(name) must be a non-negative integer, not \(text).")
        }
        return value
    }
}

public enum DemoServerError: Error, CustomStringConvertible {
    case imagesMissing(directory: String)
    case imagesOutOfDate(directory: String)
    case noDataDirectory(searched: [String])

    public var description: String {
        switch self {
        // TRANSLATORS: `make demo-data` and `gallery-demo-images` are commands: keep them as they are.
        case .imagesMissing(let directory):
            tr("The demo images are missing ({folder}). Run `make demo-data` (or `gallery-demo-images`) first.",
               ["folder": directory])
        case .imagesOutOfDate(let directory):
            tr("The demo images in {folder} were made for another catalog. Run `make demo-data` (or `gallery-demo-images`) again.",
               ["folder": directory])
        // TRANSLATORS: {folders} is a list of folders; {variable} an environment variable's name; --data an option.
        case .noDataDirectory(let searched):
            tr("No demo data found (looked for demo/users.json in: {folders}). Set {variable} or pass --data.",
               ["folders": searched.joined(separator: ", "), "variable": DemoGalleryLocation.environmentVariable])
        }
    }
}
