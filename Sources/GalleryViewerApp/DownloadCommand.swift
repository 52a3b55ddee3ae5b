#if canImport(Glibc)
import Glibc
#endif
import CGLib
import CGtk
import GObjectBindings
import GalleryCore

/// `gallery-viewer --download DIR [--source S] [--endpoint URL] USERNAME`: reads the whole gallery (every
/// page, as `--list` does) and saves every image at full size into DIR/SOURCE/USERNAME/ — each page's images
/// download while the next pages are read —, without a window and without the session bus.
///
/// Exit status: 0 when every image is saved (now or by an earlier run), 1 when something failed, 130 when
/// stopped with Ctrl+C (or SIGTERM), which leaves only hidden partial files for the next run to resume.
@MainActor
final class DownloadCommand {
    static let interruptedStatus: Int32 = 130

    private let options: Options
    /// Six image downloads at a time per host, as browsers and `curl --parallel-max 6` do, beside the
    /// connection the pipeline keeps for the feed's pages, which are read while the images download.
    private let client = HTTPClient(configuration: .init(maxConnectionsPerHost: 7))
    private let display = TerminalProgress()
    private let loop = g_main_loop_new(nil, 0)
    private var feed: GalleryFeed?
    private var downloader: GalleryDownloader?
    private var signalSources: [MainLoopSource] = []
    private var interrupted = false

    init(options: Options) { self.options = options }

    func run() -> Int32 {
        defer { g_main_loop_unref(loop) }
        let kind = options.source ?? .deviantArt
        let sources = SourceFactory(overriddenSource: kind, endpointOverride: options.endpointOverride)
        defer { sources.shutDown() }
        let source: any GallerySource
        do {
            source = try sources.make(kind, username: options.username?.trimmed ?? "")
        } catch {
            return fail(error)
        }
        for signal in [SIGINT, SIGTERM] {
            signalSources.append(MainLoopSource.unixSignal(signal) { [weak self] in
                self?.interrupt()
                return true
            })
        }
        defer { signalSources.forEach { $0.cancel() } }

        let user = source.username.hasPrefix("@") ? String(source.username.dropFirst()) : source.username
        let folder = options.download! + "/" + kind.rawValue + "/" + DownloadNames.safe(user, fallback: "user")
        let downloader = GalleryDownloader(pipeline: ImagePipeline(client: client), directory: folder)
        downloader.onProgress = { [display, weak downloader] in
            if let downloader { display.update(downloader.progress) }
        }
        downloader.onEvent = { [display] event in
            switch event {
            case .saved(let name, let resumed):
                guard !display.isTerminal else { break }
                // TRANSLATORS: --download's log lines, one per image; {name} is a file name.
                display.log(resumed ? tr("saved {name} (resumed)", ["name": name]) : tr("saved {name}", ["name": name]))
            case .failed(let failure):
                display.log(tr("failed {name}: {reason}", ["name": failure.name, "reason": failure.reason]))
            }
        }
        let outcome = readAndSave(source, into: folder, with: downloader)
        display.finish()
        switch outcome {
        case .interrupted(let started):
            guard started else {
                Console.error(tr("Stopped while reading the gallery; nothing was saved."))
                return Self.interruptedStatus
            }
            let progress = downloader.progress
            return stopped(saved: progress.saved + progress.skipped, left: progress.total - progress.saved - progress.skipped)
        case .noImages(let items, let feedError):
            if items == 0 { return fail(feedError ?? .emptyGallery(username: source.username)) }
            return report(downloader, folder: folder, skippedItems: items, feedError: feedError)
        case .done(let items, let feedError):
            return report(downloader, folder: folder, skippedItems: items - downloader.progress.total, feedError: feedError)
        case .folderFailed(let reason):
            Console.error(tr("Cannot create the folder {folder}: {reason}", ["folder": folder, "reason": reason]))
            return 1
        }
    }

    private enum Outcome {
        /// Stopped with Ctrl+C; `started`: images were being saved already.
        case interrupted(started: Bool)
        /// The gallery had `items` distinct items, none of them an image to save.
        case noImages(items: Int, feedError: GalleryError?)
        case done(items: Int, feedError: GalleryError?)
        case folderFailed(String)
    }

    /// Reads the gallery page after page and saves its images as their pages arrive: the next page is read
    /// while the images of the last ones download. The same image twice is saved once, as the window shows it
    /// once.
    private func readAndSave(_ source: any GallerySource, into folder: String, with downloader: GalleryDownloader) -> Outcome {
        let feed = GalleryFeed(source: source, client: client)
        self.feed = feed
        var seen = Set<String>()
        var itemCount = 0
        var feedError: GalleryError?
        var folderFailure: String?
        var started = false
        display.showStatus(tr("Reading {name}’s gallery…", ["name": source.username]))
        feed.loadAllPages(page: { [display, weak self, loop] page in
            guard let self else { return }
            var fresh: [GalleryItem] = []
            for item in page where seen.isDisjoint(with: item.identityKeys) {
                seen.formUnion(item.identityKeys)
                fresh.append(item)
            }
            itemCount += fresh.count
            if !started, fresh.contains(where: { $0.kind == .image && $0.fullImageURL != nil }) {
                // Once, before the first download: a few mkdir(2) calls.
                guard g_mkdir_with_parents(folder, 0o755) == 0 else {
                    folderFailure = String(cString: strerror(errno))
                    feed.cancel()
                    return g_main_loop_quit(loop)
                }
                started = true
                self.downloader = downloader
                downloader.startStreaming { g_main_loop_quit(loop) }
            }
            if started { downloader.add(fresh) }
            if downloader.progress.total == 0 {
                display.showStatus(trn("Reading {name}’s gallery… {count} item", "Reading {name}’s gallery… {count} items",
                                       itemCount, ["name": source.username]))
            }
        }, end: { [loop] state in
            if case .failed(let error) = state { feedError = error }
            if started { downloader.finishAdding() } else { g_main_loop_quit(loop) }
        })
        if !interrupted { g_main_loop_run(loop) }
        self.feed = nil
        if interrupted { return .interrupted(started: started) }
        if let folderFailure { return .folderFailed(folderFailure) }
        return started ? .done(items: itemCount, feedError: feedError) : .noImages(items: itemCount, feedError: feedError)
    }

    /// Ctrl+C: stop everything and let the running downloads close their partial files; a second Ctrl+C
    /// leaves at once (partial files are never under a final name, so that is safe too).
    private func interrupt() {
        guard !interrupted else { exit(Self.interruptedStatus) }
        interrupted = true
        feed?.cancel()
        // Running downloads close their partial files first; the downloader ends the loop then.
        if let downloader { downloader.cancel() } else { g_main_loop_quit(loop) }
    }

    private func report(_ downloader: GalleryDownloader, folder: String, skippedItems: Int,
                        feedError: GalleryError?) -> Int32 {
        let progress = downloader.progress
        if interrupted {
            return stopped(saved: progress.saved + progress.skipped, left: progress.total - progress.saved - progress.skipped)
        }
        // TRANSLATORS: --download's summary; {count} is the number of images, {folder} where they are.
        var summary = trn("Saved {saved} of {count} image in {folder}", "Saved {saved} of {count} images in {folder}",
                          progress.total, ["saved": progress.saved + progress.skipped, "folder": folder])
        var notes: [String] = []
        // TRANSLATORS: notes after --download's summary, in parentheses: images saved by an earlier run.
        if progress.skipped > 0 { notes.append(trn("{count} already there", "{count} already there", progress.skipped)) }
        if progress.resumed > 0 { notes.append(trn("{count} resumed", "{count} resumed", progress.resumed)) }
        if progress.bytesReceived > 0 {
            // TRANSLATORS: {size} is an amount of data such as "34.2 MB".
            notes.append(tr("{size} downloaded", ["size": TerminalProgress.size(progress.bytesReceived)]))
        }
        if skippedItems > 0 { notes.append(trn("{count} item is not an image", "{count} items are not images", skippedItems)) }
        if !notes.isEmpty {
            // TRANSLATORS: {notes} is the list of the notes above, each separated from the next by ", ".
            summary = tr("{summary} ({notes})", ["summary": summary, "notes": notes.joined(separator: tr(", "))])
        }
        print(summary)
        if !downloader.failures.isEmpty {
            Console.error(trn("{count} image could not be saved:", "{count} images could not be saved:", downloader.failures.count))
            for failure in downloader.failures {
                TerminalProgress.writeError("  \(failure.name): \(DisplayText.clean(failure.reason))\n")
            }
        }
        if let feedError {
            Console.error(tr("The gallery could not be read to the end: {reason}", ["reason": feedError.sentence]))
        }
        return downloader.failures.isEmpty && feedError == nil ? 0 : 1
    }

    private func stopped(saved: Int, left: Int) -> Int32 {
        display.finish()
        Console.error(tr("Stopped: {saved} saved, {left} left. Run the same command again to resume.",
                         ["saved": saved, "left": left]))
        return Self.interruptedStatus
    }

    private func fail(_ error: GalleryError) -> Int32 {
        display.finish()
        Console.error(error.sentence)
        return 1
    }
}
