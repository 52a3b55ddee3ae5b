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

    private let pipeline: ImagePipeline
    /// Jobs handed to the pipeline at a time: enough to keep every connection slot busy, few enough that the
    /// scheduler's queue is not the whole gallery (a gallery's images usually live on one or two hosts).
    private let window: Int
    private var queue: [Job] = []
    private var nextIndex = 0
    private var partialSizes: [String: Int] = [:]
    /// Jobs handed to the pipeline: waiting for a connection slot or downloading.
    private var slots: [Slot] = []
    private var completion: (@MainActor () -> Void)?

    /// One job in the pipeline.
    @MainActor private final class Slot {
        let job: Job
        var task: FileTask?
        /// This attempt's bytes so far, and what the running download still expects, where the server said.
        var received = 0
        var remaining = 0
        var isRunning = false
        init(job: Job) { self.job = job }
    }

    /// Saves through `pipeline` (its client, its per-host scheduler and limits).
    public init(pipeline: ImagePipeline, directory: String) {
        self.pipeline = pipeline
        self.directory = directory
        window = pipeline.maxConnectionsPerHost * 4
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
        // Each save ends with `.cancelled`: one waiting for a slot at once, a running one once its partial
        // file is closed.
        for slot in slots { slot.task?.interrupt() }
        finishIfDone()
    }

    private func fillWindow() {
        while !isCancelled, slots.count < window, nextIndex < queue.count {
            let job = queue[nextIndex]
            nextIndex += 1
            guard URLText.origin(of: job.url) != nil else {
                recordFailure(job.name, tr("Not an http(s) address: {address}", ["address": job.url]))
                continue
            }
            let slot = Slot(job: job)
            slots.append(slot)
            let destination = FileDestination(directory: directory, name: job.name,
                                              partialFileBytes: partialSizes[DownloadNames.partialName(of: job.name)])
            slot.task = pipeline.saveFile(ImageRequest(url: job.url, size: .original, priority: .visible), to: destination,
                                          progress: { [weak self, slot] progress in self?.advance(slot, progress) },
                                          completion: { [weak self, slot] result in self?.end(slot, result) })
        }
    }

    private func advance(_ slot: Slot, _ update: LoadProgress) {
        if !slot.isRunning {
            slot.isRunning = true
            progress.running += 1
        }
        let delta = max(0, update.receivedBytes - slot.received)
        slot.received = update.receivedBytes
        progress.bytesReceived += delta
        let remaining = max(0, (update.expectedBytes ?? update.receivedBytes) - update.receivedBytes)
        progress.activeRemainingBytes += remaining - slot.remaining
        slot.remaining = remaining
        if delta > 0 { onProgress?() }
    }

    private func end(_ slot: Slot, _ result: Result<SavedFile, ImageLoadError>) {
        if slot.isRunning { progress.running -= 1 }
        progress.activeRemainingBytes -= slot.remaining
        slot.remaining = 0
        slots.removeAll { $0 === slot }
        switch result {
        case .success(let saved):
            progress.saved += 1
            if saved.resumed { progress.resumed += 1 }
            onProgress?()
            onEvent?(.saved(name: slot.job.name, resumed: saved.resumed))
        case .failure(let error) where error.isCancelled:
            onProgress?()
        case .failure(let error):
            recordFailure(slot.job.name, error.message)
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
