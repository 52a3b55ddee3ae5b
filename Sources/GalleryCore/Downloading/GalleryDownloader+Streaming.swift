import GObjectBindings

/// Saving a gallery while its pages are still being read: each image downloads as its page arrives, into its
/// partial file under a provisional name (`StreamedNames`); once the feed ended and the names are final, each
/// complete partial file is renamed to its name. An image whose name turned out to be another's (an older image
/// with the same file name came later) gives it up: its download stops, its partial file is renamed to its own
/// final name when complete or deleted, and it joins the images that waited for the final names.
///
/// Nothing is ever renamed to a provisional name, so a file under its name in the folder is always a complete
/// image of a finished naming (an earlier run's); an image whose provisional name is taken there waits for the
/// final names rather than being skipped or overwritten. A run stopped early leaves only partial files, which
/// the next run resumes under the same provisional names (the newest image with a given name always takes it).
extension GalleryDownloader {
    struct Streamed {
        var provisional: String
        var state: State

        enum State: Equatable {
            case queued
            case running
            /// The whole image is in the partial file, waiting for its final name.
            case complete(resumed: Bool, format: ImageFormat?)
            case saved
            case failed
            /// Stopped (or never started) because its name was another's; it runs again under its final name.
            case stopped
            /// Its partial file has been dealt with after a name change.
            case settled
        }
    }

    /// Lists the folder; then the images arrive page by page through `add`, and `finishAdding` says the feed
    /// ended. `completion` runs once, when every image ended (or after `cancel()`).
    public func startStreaming(completion: @escaping @MainActor () -> Void) {
        self.completion = completion
        listFolder { [weak self] in
            guard let self else { return }
            self.phase = .running
            let arrived = self.arrivedWhileListing
            self.arrivedWhileListing = []
            self.admit(arrived)
            if self.feedEnded { self.resolveNames() }
        }
    }

    /// A page's items (feed order, newest first); those that are images are saved.
    public func add(_ items: [GalleryItem]) {
        guard !isCancelled, !feedEnded else { return }
        let images = items.filter { $0.savedFile(imagesOnly: imagesOnly) != nil }
        guard !images.isEmpty else { return }
        progress.total += images.count
        if phase == .listing { arrivedWhileListing += images } else { admit(images) }
        onProgress?()
    }

    /// The feed ended (or failed part-way): the names of the images added so far are final.
    public func finishAdding() {
        guard !feedEnded else { return }
        feedEnded = true
        if phase == .running { resolveNames() } else { finishIfDone() }
    }

    private func admit(_ images: [GalleryItem]) {
        for image in images {
            let index = names.count
            let file = image.savedFile(imagesOnly: imagesOnly)!
            urls.append(file.url)
            if file.isMedia { mediaIndexes.insert(index) }
            let provisional = names.add(id: image.id, name: image.fileName)
            // A name the folder has may belong to an older image (an earlier run's): wait for the final names.
            guard listingFailure == nil, let provisional,
                  !SavedExtension.candidates(for: provisional).contains(where: existing.contains) else { continue }
            streamed[index] = Streamed(provisional: provisional, state: .queued)
            queue.append(Queued(job: Job(name: provisional, url: file.url, isMedia: file.isMedia), streamedIndex: index))
        }
        fillWindow()
    }

    func streamedEnded(_ index: Int, slot: Slot, _ result: Result<SavedFile, ImageLoadError>) {
        guard var entry = streamed[index] else { return }
        switch result {
        case .success(let saved) where slot.defersRename:
            entry.state = .complete(resumed: saved.resumed, format: saved.format)
        case .success(let saved):
            entry.state = .saved
            recordSaved(entry.provisional, resumed: saved.resumed)
        case .failure(let error) where error.isCancelled:
            entry.state = .stopped
        case .failure(let error):
            entry.state = .failed
            recordFailure(entry.provisional, error.message)
        }
        streamed[index] = entry
        if phase != .running {
            settle(index)
            renameSettled()
        }
        continueResolving()
    }

    // MARK: Final names

    private var finals: [String] { resolvedNames ?? [] }

    private func isRenamed(_ index: Int) -> Bool {
        guard let entry = streamed[index], index < finals.count else { return false }
        return finals[index] != entry.provisional
    }

    private func resolveNames() {
        phase = .resolvingNames
        resolvedNames = names.finalNames()
        runNames = Set(finals.map { $0.lowercased() })
        // Queued streamed jobs whose name stays are ordinary jobs now; the others give their name up.
        var kept = queue
        kept.removeAll { queued in
            guard let index = queued.streamedIndex, isRenamed(index) else { return false }
            streamed[index]?.state = .stopped
            return true
        }
        queue = kept
        for slot in slots {
            guard let index = slot.queued.streamedIndex, isRenamed(index) else { continue }
            slot.task?.interrupt()
        }
        for index in streamed.keys.sorted() { settle(index) }
        renameSettled()
        continueResolving()
    }

    /// Once the names are final: a complete partial file whose name stayed is to be renamed to it.
    private func settle(_ index: Int) {
        guard let entry = streamed[index], case .complete(let resumed, let format) = entry.state, !isRenamed(index) else { return }
        streamed[index]?.state = .saved
        let name = savedName(entry.provisional, format: format)
        existing.insert(name)
        settling.append((entry.provisional, name, resumed))
    }

    /// Renames the settled files to their names, a batch at a time on one worker (`File.move(_:)`): when the
    /// feed ends, most of a gallery's images are complete and waiting.
    private func renameSettled() {
        guard !isRenamingSettled, !settling.isEmpty else { return }
        let batch = Array(settling.prefix(Self.renameBatchSize))
        settling.removeFirst(batch.count)
        isRenamingSettled = true
        fileOperations += 1
        let moves = batch.map { (from: directory + "/" + DownloadNames.partialName(of: $0.partial), to: directory + "/" + $0.name) }
        File.move(moves) { [weak self] errors in
            guard let self else { return }
            // The next batch (if any) is under way before this one's results are told: a listener that cancels
            // on hearing one must not find the run with nothing left to wait for while files still await names.
            self.isRenamingSettled = false
            self.renameSettled()
            self.fileOperations -= 1
            for (file, error) in zip(batch, errors) {
                if let error {
                    self.recordFailure(file.name, FileSink.couldNotRename(file.name, error))
                } else {
                    self.recordSaved(file.name, resumed: file.resumed)
                }
            }
            self.finishIfDone()
        }
    }

    /// Renames per trip to the worker: few enough that handling their results is a short main-loop callback.
    private static let renameBatchSize = 64

    /// When no renamed image is still downloading: each one's partial file goes to its final name (complete)
    /// or away, and then the images that waited for the final names run.
    private func continueResolving() {
        guard phase == .resolvingNames, !isCancelled else { return finishIfDone() }
        let renamed = streamed.keys.filter(isRenamed).sorted()
        guard !renamed.contains(where: { [.queued, .running].contains(streamed[$0]?.state) }) else { return }
        phase = .draining
        var waiting: [Job] = []
        for index in finals.indices where streamed[index] == nil {
            waiting.append(Job(name: finals[index], url: urls[index], isMedia: mediaIndexes.contains(index)))
        }
        // Renamed images that stopped short run again under their final names.
        for index in renamed where [.stopped].contains(streamed[index]?.state) {
            waiting.append(Job(name: finals[index], url: urls[index], isMedia: mediaIndexes.contains(index)))
        }
        let jobs = waiting
        var pending = renamed.count + 1
        fileOperations += 1
        let whenSettled: @MainActor () -> Void = { [weak self] in
            pending -= 1
            guard let self, pending == 0 else { return }
            self.fileOperations -= 1
            self.enqueueNamed(jobs)
            self.finishIfDone()
        }
        for index in renamed {
            guard let entry = streamed[index] else {
                whenSettled()
                continue
            }
            let final = finals[index]
            streamed[index]?.state = .settled
            // The provisional name's partial file belongs to another image now: it goes either way.
            partialSizes[DownloadNames.partialName(of: entry.provisional)] = nil
            partialTags[DownloadNames.partialName(of: entry.provisional)] = nil
            switch entry.state {
            case .complete(let resumed, let format) where !isPresent(final):
                let name = savedName(final, format: format)
                move(partialOf: entry.provisional, to: name) { [weak self] error in
                    if let error { self?.recordFailure(name, error) } else { self?.recordSaved(name, resumed: resumed) }
                    whenSettled()
                }
            case .complete:
                // Saved under its final name by an earlier run: this copy is not needed.
                progress.skipped += 1
                deletePartial(of: entry.provisional, then: whenSettled)
            default:
                deletePartial(of: entry.provisional, then: whenSettled)
            }
        }
        whenSettled()
    }

    private func move(partialOf name: String, to final: String, then: @escaping @MainActor (String?) -> Void) {
        fileOperations += 1
        let partial = File(path: directory + "/" + DownloadNames.partialName(of: name))
        existing.insert(final)
        partial.move(to: File(path: directory + "/" + final)) { [weak self] result in
            self?.fileOperations -= 1
            if case .failure(let error) = result {
                then(FileSink.couldNotRename(final, error))
            } else {
                then(nil)
            }
            self?.finishIfDone()
        }
    }

    private func deletePartial(of name: String, then: @escaping @MainActor () -> Void) {
        File(path: directory + "/" + DownloadNames.partialName(of: name)).delete { _ in then() }
    }
}
