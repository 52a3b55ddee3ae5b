import CGLib
import Glibc
import Collections
import GObjectBindings

/// Saves a whole gallery into one folder (`gallery-viewer --download`). Files already there are skipped
/// without a request; partial files from an earlier run are resumed. Downloads go through the pipeline's
/// `saveFile`: the app's HTTP client and the same per-host scheduler as the window's images.
///
/// Two ways in: `start(_:)` with every job named, or `startStreaming` and then each page's items as the feed
/// delivers them (`add`) and `finishAdding` when it ended — the images download while later pages are read,
/// under provisional names (`StreamedNames`) that become final, by a rename, once the feed has ended.
@MainActor
public final class GalleryDownloader {
    /// One image to save: its file name in the folder and its full-size URL.
    public struct Job: Equatable, Sendable {
        public var name: String
        public var url: String
        /// A video or sound (its own size limit and media types).
        public var isMedia: Bool
        public init(name: String, url: String, isMedia: Bool = false) {
            self.name = name
            self.url = url
            self.isMedia = isMedia
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
    public internal(set) var progress = Progress()
    public private(set) var failures: [Failure] = []
    public private(set) var isCancelled = false
    /// Why the run stopped by itself (the disk is nearly full), nil otherwise.
    public private(set) var stopReason: String?
    /// No file is started while the folder's disk has less than this free: the run stops with `stopReason`.
    public var minimumFreeBytes = GalleryDownloader.defaultMinimumFreeBytes
    /// 256 MiB: room for the files already running (each at most the pipeline's image limit) and for the rest
    /// of the system, which a full disk would break.
    public static let defaultMinimumFreeBytes = 256 * 1_048_576
    public var onProgress: (@MainActor () -> Void)?
    public var onEvent: (@MainActor (Event) -> Void)?

    let pipeline: ImagePipeline
    /// Jobs handed to the pipeline at a time: enough to keep every connection slot busy, few enough that the
    /// scheduler's queue is not the whole gallery (a gallery's images usually live on one or two hosts).
    private let window: Int
    var queue = Deque<Queued>()
    /// Jobs handed to the pipeline: waiting for a connection slot or downloading.
    var slots: [Slot] = []
    var completion: (@MainActor () -> Void)?
    /// What the folder held when it was listed, and what this run put there since.
    var existing: Set<String> = []
    /// Every job's final name (lowercased), once known: a name is corrected to its bytes' format only when
    /// that does not make it another job's (`correctsExtension`).
    var runNames: Set<String> = []
    var partialSizes: [String: Int] = [:]
    /// The validator stored with each partial file, for its resume's `If-Range`.
    var partialTags: [String: String] = [:]
    var phase = Phase.listing

    // Streaming (see GalleryDownloader+Streaming.swift)
    var names = StreamedNames()
    /// Images that arrive while the folder is still being listed.
    var arrivedWhileListing: [GalleryItem] = []
    var urls: [String] = []
    /// The indexes (as `urls`') of the videos and sounds.
    var mediaIndexes: Set<Int> = []
    /// Streamed images (by their place in `names`) and where they stand.
    var streamed: [Int: Streamed] = [:]
    var feedEnded = false
    /// Every image's final name, once the feed ended.
    var resolvedNames: [String]?
    /// Renames and deletes under way (the run is not over before they are).
    var fileOperations = 0
    /// Complete streamed files whose name stayed, waiting to be renamed to it, and whether a batch of them is
    /// being renamed now.
    var settling = Deque<(partial: String, name: String, resumed: Bool)>()
    var isRenamingSettled = false

    enum Phase {
        case listing
        /// Jobs run as they come (all of them given at once, or page by page while the feed is read).
        case running
        /// The feed ended: streamed files get their final names before the images that waited for them run.
        case resolvingNames
        /// Every job is queued or done.
        case draining
    }

    struct Queued {
        var job: Job
        /// The streamed image this job downloads (its rename waits for the final names), nil for a named job.
        var streamedIndex: Int?
    }

    /// One job in the pipeline.
    @MainActor final class Slot {
        let queued: Queued
        var task: FileTask?
        /// The file is left as its partial file, for a rename once the names are final.
        var defersRename = false
        /// This attempt's bytes so far, and what the running download still expects, where the server said.
        var received = 0
        var remaining = 0
        var isRunning = false
        init(_ queued: Queued) { self.queued = queued }
    }

    /// Saves through `pipeline` (its client, its per-host scheduler and limits).
    public init(pipeline: ImagePipeline, directory: String) {
        self.pipeline = pipeline
        self.directory = directory
        window = pipeline.maxConnectionsPerHost * 4
    }

    /// The images, videos and sounds among `items` (feed order, newest first) with safe, unique file names.
    /// Names are given oldest first, so a file keeps its name when the gallery gains newer items. Pages have
    /// nothing to save; with `imagesOnly`, neither have videos and sounds.
    public nonisolated static func jobs(for items: [GalleryItem], imagesOnly: Bool = false) -> [Job] {
        let saved = items.filter { $0.savedFile(imagesOnly: imagesOnly) != nil }
        let names = DownloadNames.unique(saved.reversed().map { ($0.id, $0.fileName) }).reversed()
        return zip(saved, names).map { item, name in
            let file = item.savedFile(imagesOnly: imagesOnly)!
            return Job(name: name, url: file.url, isMedia: file.isMedia)
        }
    }

    /// `--download --images-only`: videos and sounds are left out.
    public var imagesOnly = false

    /// Lists the folder, skips what is complete, and downloads the rest. `completion` runs once, when every
    /// job ended or after `cancel()` once every running download closed its partial file. `--download`
    /// streams (`startStreaming`); the window's "Save N Images…" knows its jobs.
    public func start(_ jobs: [Job], completion: @escaping @MainActor () -> Void) {
        self.completion = completion
        feedEnded = true
        progress.total = jobs.count
        runNames = Set(jobs.map { $0.name.lowercased() })
        listFolder { [weak self] in
            guard let self else { return }
            self.phase = .draining
            self.enqueueNamed(jobs)
        }
    }

    /// Stops: nothing new starts, running downloads stop and keep their partial files for the next run.
    public func cancel() {
        guard !isCancelled else { return }
        isCancelled = true
        queue.removeAll()
        // Each save ends with `.cancelled`: one waiting for a slot at once, a running one once its partial
        // file is closed.
        for slot in slots { slot.task?.interrupt() }
        finishIfDone()
    }

    /// Stops like `cancel`, saying why.
    func stop(because reason: String) {
        stopReason = reason
        cancel()
    }

    /// Free bytes for this user on the file system of `path` (statvfs); nil when it cannot be asked.
    nonisolated static func freeBytes(_ path: String) -> Int? {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return nil }
        let (bytes, overflow) = Int(info.f_bavail).multipliedReportingOverflow(by: Int(info.f_frsize))
        return overflow ? Int.max : bytes
    }

    // MARK: The folder

    /// Checks and lists the folder once, before any job runs: what is there decides what is skipped and
    /// resumed. A folder others can write to is refused (they could plant files and links under the names
    /// this run writes): every job fails with the reason.
    func listFolder(then: @escaping @MainActor () -> Void) {
        let directory = directory
        WorkerTask.run({ Self.folderRefusal(directory) }, completion: { [weak self] refusal in
            guard let self, !self.isCancelled else { return }
            guard let refusal else { return self.listEntries(then: then) }
            self.listingFailure = refusal
            then()
            self.onProgress?()
            self.finishIfDone()
        })
    }

    /// Why files must not be saved into `path`, or nil: it can be changed by another user — writable by
    /// everyone, by a group other than the user's own, or owned by someone else (root aside). A folder that
    /// does not exist yet is not refused here.
    public nonisolated static func folderRefusal(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let mode = info.st_mode
        let othersWrite = mode & S_IWOTH != 0 || (mode & S_IWGRP != 0 && info.st_gid != getegid())
            || (info.st_uid != geteuid() && info.st_uid != 0)
        guard othersWrite else { return nil }
        // TRANSLATORS: --download refuses a folder; {folder} is its path. "chmod go-w" is a command, not translated.
        return tr("Other users can change {folder}: choose a folder only you can write to (or run chmod go-w on it)",
                  ["folder": path])
    }

    private func listEntries(then: @escaping @MainActor () -> Void) {
        File(path: directory).listDirectory { [weak self] result in
            guard let self, !self.isCancelled else { return }
            switch result {
            case .success(let entries):
                let files = entries.filter(\.isRegularFile)
                self.existing = Set(files.map(\.name))
                self.partialSizes = Dictionary(files.map { ($0.name, $0.size) }, uniquingKeysWith: { first, _ in first })
                self.partialTags = Dictionary(files.compactMap { file in file.resumeTag.map { (file.name, $0) } },
                                              uniquingKeysWith: { first, _ in first })
                // A link or anything else under a partial file's name is no partial file: it is removed (never
                // followed) and the image downloaded whole.
                for entry in entries where !entry.isRegularFile && entry.name.hasPrefix(".") && entry.name.hasSuffix(".part") {
                    self.partialSizes[entry.name] = 0
                }
            case .failure(let error) where error.matches(G_IO_ERROR_NOT_FOUND):
                self.existing = []
                self.partialSizes = [:]
            case .failure(let error):
                self.existing = []
                self.partialSizes = [:]
                self.listingFailure = tr("Cannot read {folder}: {reason}", ["folder": self.directory, "reason": error.message])
            }
            then()
            self.onProgress?()
            self.finishIfDone()
        }
    }

    /// Why the folder could not be listed; every job fails with it.
    var listingFailure: String?

    /// Queues jobs whose names are final: a file already under its name was renamed there complete, so it
    /// needs no request.
    func enqueueNamed(_ jobs: [Job]) {
        for job in jobs {
            if let listingFailure {
                recordFailure(job.name, listingFailure)
            } else if isPresent(job.name) {
                progress.skipped += 1
            } else {
                queue.append(Queued(job: job))
            }
        }
        fillWindow()
    }

    // MARK: Jobs

    func fillWindow() {
        while !isCancelled, slots.count < window, !queue.isEmpty {
            // Checked before each file: a run stops before the disk fills, never with a file cut off by it (the
            // running ones keep their partial files, for the next run to resume).
            if let free = Self.freeBytes(directory), free < minimumFreeBytes {
                return stop(because: tr("Stopped: the disk of {folder} has only {free} free (at least {needed} are kept free)",
                                        ["folder": directory, "free": SizeText.format(free), "needed": SizeText.format(minimumFreeBytes)]))
            }
            let queued = queue.removeFirst()
            let job = queued.job
            guard URLText.origin(of: job.url) != nil else {
                recordFailure(job.name, tr("Not an http(s) address: {address}", ["address": job.url]))
                continue
            }
            let slot = Slot(queued)
            slot.defersRename = queued.streamedIndex != nil && phase != .draining
            slots.append(slot)
            if let index = queued.streamedIndex { streamed[index]?.state = .running }
            let partialName = DownloadNames.partialName(of: job.name)
            let destination = FileDestination(directory: directory, name: job.name,
                                              partialFileBytes: partialSizes[partialName],
                                              partialFileTag: partialTags[partialName],
                                              renamesWhenComplete: !slot.defersRename,
                                              correctsExtension: slot.defersRename || correctsExtension(job.name))
            var request = ImageRequest(url: job.url, size: .original, priority: .visible)
            request.isMedia = job.isMedia
            slot.task = pipeline.saveFile(request, to: destination,
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
        let name = slot.queued.job.name
        if let index = slot.queued.streamedIndex {
            streamedEnded(index, slot: slot, result)
        } else {
            switch result {
            case .success(let saved): recordSaved(saved.name ?? name, resumed: saved.resumed)
            case .failure(let error) where error.isCancelled: onProgress?()
            case .failure(let error): recordFailure(name, error.message)
            }
        }
        fillWindow()
        finishIfDone()
    }

    // MARK: Names from the bytes

    /// Whether `name`'s file may take the extension of its bytes' format: no other job has that name.
    func correctsExtension(_ name: String) -> Bool {
        !SavedExtension.candidates(for: name).dropFirst().contains { runNames.contains($0.lowercased()) }
    }

    /// The name a file saved under `name` has, its bytes being `format`.
    func savedName(_ name: String, format: ImageFormat?) -> String {
        correctsExtension(name) ? SavedExtension.name(name, for: format) : name
    }

    /// Whether the folder holds `name`'s image, under that name or the one its bytes gave it.
    func isPresent(_ name: String) -> Bool {
        existing.contains(name) || correctsExtension(name) && SavedExtension.candidates(for: name).contains(where: existing.contains)
    }

    func recordSaved(_ name: String, resumed: Bool) {
        existing.insert(name)
        progress.saved += 1
        if resumed { progress.resumed += 1 }
        onProgress?()
        onEvent?(.saved(name: name, resumed: resumed))
    }

    func recordFailure(_ name: String, _ reason: String) {
        let failure = Failure(name: name, reason: reason)
        failures.append(failure)
        progress.failed += 1
        onProgress?()
        onEvent?(.failed(failure))
    }

    func finishIfDone() {
        guard slots.isEmpty, fileOperations == 0, isCancelled || (phase == .draining && queue.isEmpty),
              let completion else { return }
        self.completion = nil
        completion()
    }
}

extension GalleryItem {
    /// What `--download` and Save As save of the item: its full-size image, or its video's or sound's own
    /// file (unless `imagesOnly`); nil for pages and for media the app cannot fetch.
    public func savedFile(imagesOnly: Bool = false) -> (url: String, isMedia: Bool)? {
        if kind == .image, let fullImageURL { return (fullImageURL, false) }
        if !imagesOnly, kind == .video || kind == .audio, let media { return (media.url, true) }
        return nil
    }
}
