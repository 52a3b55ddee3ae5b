import CGLib
import GObjectBindings

/// Saves a whole gallery into one folder (`gallery-viewer --download`). Files already there are skipped
/// without a request; partial files from an earlier run are resumed. Downloads share the app's HTTP client
/// and go through the same per-host scheduler as the window's images, with the same cap per host.
@MainActor
public final class GalleryDownloader {
    /// One image to save: its file name in the folder and its full-size URL.
    public struct Job: Equatable, Sendable {
        public var name: String
        public var url: String
        public init(name: String, url: String) {
            self.name = name
            self.url = url
        }
    }

    public struct Failure: Equatable, Sendable {
        public var name: String
        public var reason: String
    }

    /// Counts for the progress display. Bytes are this run's; `activeRemainingBytes` is what the running
    /// downloads still expect (where the server said), for the ETA.
    public struct Progress: Equatable, Sendable {
        public var total = 0
        public var skipped = 0
        public var saved = 0
        public var resumed = 0
        public var failed = 0
        public var bytesReceived = 0
        public var activeRemainingBytes = 0
        public var running = 0
        public init() {}
        public var finished: Int { skipped + saved + failed }
        public var notStarted: Int { total - finished - running }
    }

    public enum Event: Sendable {
        case saved(name: String, resumed: Bool)
        case failed(Failure)
    }

    public let directory: String
    public private(set) var progress = Progress()
    public private(set) var failures: [Failure] = []
    public private(set) var isCancelled = false
    public var onProgress: (@MainActor () -> Void)?
    public var onEvent: (@MainActor (Event) -> Void)?

    private let client: HTTPClient
    private let maxBytes: Int
    private let scheduler: FetchScheduler
    /// Jobs handed to the scheduler at a time. Its queue is scanned on every start, so it is kept short
    /// instead of holding the whole gallery; a gallery's images usually live on one or two hosts.
    private let window: Int
    private var queue: [Job] = []
    private var nextIndex = 0
    private var partialSizes: [String: Int] = [:]
    /// Jobs handed to the scheduler: waiting for a connection slot or downloading.
    private var slots: [Slot] = []
    private var completion: (@MainActor () -> Void)?

    /// One job in the scheduler. `submit` may start it at once; the start closure gets the ticket then.
    @MainActor private final class Slot {
        let job: Job
        var ticket: FetchScheduler.Ticket?
        var download: FileDownload?
        /// Bytes the running download still expects, where the server said.
        var remaining = 0
        init(job: Job) { self.job = job }
    }

    public init(client: HTTPClient, directory: String, limits: ImageLoader.Limits = .init()) {
        self.client = client
        self.directory = directory
        maxBytes = limits.maxImageBytes
        // The window's cap: libsoup's per-host limit less the connection kept for page requests.
        scheduler = FetchScheduler(maxPerHost: max(1, client.configuration.maxConnectionsPerHost - 1))
        window = scheduler.maxPerHost * 4
    }

    /// The images among `items` (feed order, newest first) with safe, unique file names. Names are given
    /// oldest first, so a file keeps its name when the gallery gains newer items. Items that are not images
    /// (videos, pages) have nothing to save here.
    public nonisolated static func jobs(for items: [GalleryItem]) -> [Job] {
        let images = items.filter { $0.kind == .image && $0.fullImageURL != nil }
        let names = DownloadNames.unique(images.reversed().map { ($0.id, $0.fileName) }).reversed()
        return zip(images, names).map { Job(name: $1, url: $0.fullImageURL!) }
    }

    /// Lists the folder, skips what is complete, and downloads the rest. `completion` runs once, when every
    /// job ended or after `cancel()` once every running download closed its partial file.
    public func start(_ jobs: [Job], completion: @escaping @MainActor () -> Void) {
        self.completion = completion
        queue = jobs
        progress.total = jobs.count
        File(path: directory).listDirectory { [weak self] result in
            guard let self, !self.isCancelled else { return }
            switch result {
            case .success(let entries):
                let files = entries.filter(\.isRegularFile)
                let complete = Set(files.map(\.name))
                self.partialSizes = Dictionary(files.map { ($0.name, $0.size) }, uniquingKeysWith: { first, _ in first })
                // A file under its final name was renamed there complete: no request for it.
                let before = self.queue.count
                self.queue.removeAll { complete.contains($0.name) }
                self.progress.skipped = before - self.queue.count
            case .failure(let error) where error.matches(G_IO_ERROR_NOT_FOUND):
                break
            case .failure(let error):
                let reason = tr("Cannot read {folder}: {reason}", ["folder": self.directory, "reason": error.message])
                for job in self.queue { self.recordFailure(job.name, reason) }
                self.queue.removeAll()
            }
            self.onProgress?()
            self.fillWindow()
            self.finishIfDone()
        }
    }

    /// Stops: nothing new starts, running downloads stop and keep their partial files for the next run.
    public func cancel() {
        guard !isCancelled else { return }
        isCancelled = true
        for slot in slots where slot.download == nil {
            if let ticket = slot.ticket { scheduler.cancel(ticket) }
        }
        slots.removeAll { $0.download == nil }
        for slot in slots { slot.download?.cancel() }
        finishIfDone()
    }

    private func fillWindow() {
        while !isCancelled, slots.count < window, nextIndex < queue.count {
            let job = queue[nextIndex]
            nextIndex += 1
            guard let host = URLText.origin(of: job.url) else {
                recordFailure(job.name, tr("Not an http(s) address: {address}", ["address": job.url]))
                continue
            }
            let slot = Slot(job: job)
            slots.append(slot)
            // The slot weakly: the ticket keeps this closure for good, and the slot keeps the ticket (`slots`
            // keeps the slot while it is queued or running).
            slot.ticket = scheduler.submit(host: host, priority: .visible) { [weak self, weak slot] ticket in
                guard let slot else { return }
                slot.ticket = ticket
                self?.begin(slot)
            }
        }
    }

    private func begin(_ slot: Slot) {
        let name = slot.job.name
        let download = FileDownload(url: slot.job.url, directory: directory, name: name,
                                    partialFileBytes: partialSizes[DownloadNames.partialName(of: name)],
                                    client: client, maxBytes: maxBytes)
        slot.download = download
        progress.running += 1
        download.start(onHead: { [weak self, slot] total, alreadySaved in
            guard let self, let total else { return }
            slot.remaining = total - alreadySaved
            self.progress.activeRemainingBytes += slot.remaining
        }, onBytes: { [weak self, slot] count in
            guard let self else { return }
            self.progress.bytesReceived += count
            let step = min(count, slot.remaining)
            slot.remaining -= step
            self.progress.activeRemainingBytes -= step
            self.onProgress?()
        }, completion: { [weak self, slot] outcome in
            self?.end(slot, outcome)
        })
    }

    private func end(_ slot: Slot, _ outcome: FileDownload.Outcome) {
        progress.running -= 1
        progress.activeRemainingBytes -= slot.remaining
        slot.remaining = 0
        slots.removeAll { $0 === slot }
        if let ticket = slot.ticket { scheduler.finish(ticket) }
        switch outcome {
        case .saved(let resumed):
            progress.saved += 1
            if resumed { progress.resumed += 1 }
            onProgress?()
            onEvent?(.saved(name: slot.job.name, resumed: resumed))
        case .failed(let reason):
            recordFailure(slot.job.name, reason)
        case .cancelled:
            onProgress?()
        }
        fillWindow()
        finishIfDone()
    }

    private func recordFailure(_ name: String, _ reason: String) {
        let failure = Failure(name: name, reason: reason)
        failures.append(failure)
        progress.failed += 1
        onProgress?()
        onEvent?(.failed(failure))
    }

    private func finishIfDone() {
        guard slots.isEmpty, isCancelled || nextIndex >= queue.count,
              let completion else { return }
        self.completion = nil
        completion()
    }
}
