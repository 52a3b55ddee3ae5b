#if canImport(Glibc)
import Glibc
#endif
import GObjectBindings
import GalleryCore

/// What `--list` and `--download` share: one HTTP client and GLib main loop without a window, the source
/// from USERNAME or a profile link (its server asked what it runs when the link does not say), every page of
/// the gallery read with the same image counted once, Ctrl+C (and SIGTERM) handled on the main loop, and
/// errors printed as one sentence.
@MainActor
final class CommandSession {
    /// Exit status after Ctrl+C or SIGTERM.
    static let interruptedStatus: Int32 = 130
    /// The most items `--list` and `--download` read of a gallery unless `--max-items` says otherwise: the
    /// window's own goal (100,000 items), so only a feed that invents items forever meets it.
    nonisolated static let defaultMaxItems = 100_000

    let options: Options
    let client: HTTPClient
    private let sources: SourceFactory
    private let loop = MainLoop()
    private var signalSources: [MainLoopSource] = []
    /// What a first Ctrl+C stops (the feed, the downloads); the loop is left after it.
    private var stopWork: (@MainActor () -> Void)?
    private(set) var interrupted = false
    /// `readGallery` stopped at `--max-items`, with more items to come.
    private(set) var stoppedAtItemCeiling = false

    init(options: Options, client configuration: HTTPClient.Configuration = .init()) {
        self.options = options
        client = HTTPClient(configuration: configuration)
        sources = SourceFactory(overriddenSource: options.source, endpointOverride: options.endpointOverride)
        for signal in [SIGINT, SIGTERM] {
            signalSources.append(MainLoopSource.unixSignal(signal) { [weak self] in
                self?.interrupt()
                return true
            })
        }
    }

    isolated deinit {
        signalSources.forEach { $0.cancel() }
        sources.shutDown()
    }

    /// Runs the main loop until `quit()` (at once when interrupted already).
    func runLoop() {
        if !interrupted { loop.run() }
    }

    /// Runs the main loop until `done` holds, interrupted or not: what a Ctrl+C stopped may still have to
    /// finish (a download closing its partial file).
    func runLoop(until done: @escaping @MainActor () -> Bool) {
        guard !done() else { return }
        let check = MainLoopSource.every(milliseconds: 20) { [weak self] in
            if done() { self?.quit() }
            return true
        }
        loop.run()
        check.cancel()
    }

    func quit() { loop.quit() }

    /// Prints `error` on standard error; the exit status for it.
    func fail(_ error: GalleryError) -> Int32 {
        Console.error(error.sentence)
        return 1
    }

    /// Ctrl+C: stop what runs (`stopWork`) and leave the loop; a second one leaves the process at once (partial
    /// files are never under a final name, so that is safe too).
    private func interrupt() {
        guard !interrupted else { exit(Self.interruptedStatus) }
        interrupted = true
        stopWork?()
        quit()
    }

    // MARK: The source

    /// The source for USERNAME, or for the profile link given instead (with --source naming the service, or
    /// left out); a `/@NAME` link's server is asked what it runs, on the loop.
    func makeSource() -> Result<any GallerySource, GalleryError> {
        resolveGallery().flatMap { target in
            Result { () throws(GalleryError) in try sources.make(target.source, username: target.username) }
        }
    }

    /// The service and username USERNAME or the link names, as `makeSource` reads them, without making the
    /// source (the Demo source would start its server).
    func resolveGallery() -> Result<(source: SourceKind, username: String), GalleryError> {
        let input = options.username?.trimmed ?? ""
        let target: (source: SourceKind, username: String)
        switch ProfileLink.read(input) {
        case .username:
            target = (options.source ?? .deviantArt, input)
        case .unusable(let error):
            return .failure(error)
        case .link(let link):
            switch link.target(declared: options.source) {
            case .success(let found): target = found
            case .failure(let error): return .failure(error)
            case nil:
                guard case .fediverse(let name, let server) = link else { return .failure(.unusableLink(reason: "")) }
                switch lookUp(name: name, server: server) {
                case .success(let found): target = found
                case .failure(let error): return .failure(error)
                }
            }
        }
        return .success(target)
    }

    /// Asks a `/@NAME` link's server (or the endpoint override standing for every server) what it runs.
    /// Where a `/@NAME` link's server is asked what it runs (see `SourceFactory.serverLookupOrigin`).
    var serverLookupOrigin: String? { sources.serverLookupOrigin }

    private func lookUp(name: String, server: String) -> Result<(source: SourceKind, username: String), GalleryError> {
        var outcome: Result<SourceKind, GalleryError>?
        let lookup = ServerSoftwareLookup(client: client)
        let request = lookup.sourceKind(forServer: server, askingAt: sources.serverLookupOrigin) { [weak self] result in
            outcome = result
            self?.quit()
        }
        stopWork = { request.cancel() }
        runLoop()
        stopWork = nil
        guard let outcome else { return .failure(.unidentifiedServer(server: server, detail: tr("Stopped."))) }
        return outcome.map { ($0, ProfileLink.address(name, server)) }
    }

    // MARK: The gallery

    /// Loads every page of `source`, handing over each item once (the same image twice is one item, as in the
    /// window) and saying on standard error when the service makes the feed wait. Returns the feed's error
    /// when it failed, possibly part-way; nil when it finished or was interrupted.
    func readGallery(_ source: any GallerySource, pageDone: @escaping @MainActor (_ itemCount: Int) -> Void = { _ in },
                     item: @escaping @MainActor (GalleryItem) -> Void) -> GalleryError? {
        let feed = GalleryFeed(source: source, client: client)
        var distinct = DistinctItems()
        var count = 0
        var outcome: GalleryError?
        feed.onStateChange = { [weak feed] in
            if let reason = feed?.waitReason { Console.error(reason.sentence) }
        }
        let ceiling = options.maxItems
        feed.loadAllPages(page: { [weak self, weak feed] items in
            for each in items where distinct.insert(each) {
                guard count < ceiling else {
                    self?.stoppedAtItemCeiling = true
                    break
                }
                count += 1
                item(each)
            }
            pageDone(count)
            if self?.stoppedAtItemCeiling == true {
                feed?.cancel()
                self?.quit()
            }
        }, end: { [weak self] state in
            if case .failed(let error) = state { outcome = error }
            self?.quit()
        })
        let alsoStop = stopWork
        stopWork = {
            feed.cancel()
            alsoStop?()
        }
        runLoop()
        stopWork = alsoStop
        return interrupted ? nil : outcome
    }

    /// Says on standard error that `--max-items` stopped the reading, when it did.
    func reportItemCeiling() {
        guard stoppedAtItemCeiling else { return }
        // TRANSLATORS: {count} is a number; --max-items is an option name.
        Console.error(tr("Stopped after {count} items, the most --max-items allows: the gallery has more.",
                         ["count": options.maxItems]))
    }

    /// What a Ctrl+C stops beside the feed (the downloads, which go on while the pages are read).
    func onInterrupt(_ stop: @escaping @MainActor () -> Void) { stopWork = stop }
}
