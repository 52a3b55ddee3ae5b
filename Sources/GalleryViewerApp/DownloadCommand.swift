#if canImport(Glibc)
import Glibc
#endif
import GObjectBindings
import GalleryCore

/// `gallery-viewer --download DIR [--source S] [--endpoint URL] USERNAME|LINK`: reads the whole gallery
/// (every page, as `--list` does) and saves every image at full size into DIR/SOURCE/USERNAME/ — each page's
/// images download while the next pages are read —, without a window and without the session bus.
///
/// Exit status: 0 when every image is saved (now or by an earlier run), 1 when something failed, 130 when
/// stopped with Ctrl+C (or SIGTERM), which leaves only hidden partial files for the next run to resume.
@MainActor
final class DownloadCommand {
    private let options: Options
    private let session: CommandSession
    private var client: HTTPClient { session.client }
    private let display = TerminalProgress()

    init(options: Options) {
        self.options = options
        // Six image downloads at a time per host, as browsers and `curl --parallel-max 6` do, beside the
        // connection the pipeline keeps for the feed's pages, which are read while the images download.
        session = CommandSession(options: options, client: .init(maxConnectionsPerHost: 7))
    }

    func run() -> Int32 {
        let source: any GallerySource
        switch session.makeSource() {
        case .success(let made): source = made
        case .failure(let error): return fail(error)
        }

        let user = source.username.hasPrefix("@") ? String(source.username.dropFirst()) : source.username
        let folder = options.download! + "/" + source.kind.rawValue + "/" + DownloadNames.safe(user, fallback: "user")
        let downloader = GalleryDownloader(pipeline: ImagePipeline(client: client, decodes: false), directory: folder)
        let imagesOnly = options.imagesOnly
        downloader.imagesOnly = imagesOnly
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

        // Each page's images go to the downloader as the page arrives; the folder is made before the first.
        var itemCount = 0
        var page: [GalleryItem] = []
        var started = false
        var done = false
        var folderFailure: String?
        var folderRefusal: String?
        display.showStatus(tr("Reading {name}’s gallery…", ["name": source.username]))
        session.onInterrupt { [weak downloader] in downloader?.cancel() }
        let feedError = session.readGallery(source, pageDone: { [display, session] count in
            itemCount = count
            defer { page = [] }
            if !started, folderFailure == nil, page.contains(where: { $0.savedFile(imagesOnly: imagesOnly) != nil }) {
                // Once, before any download: a few mkdir(2) calls.
                do throws(GLibError) {
                    try File.makeDirectories(atPath: folder, mode: 0o755)
                } catch {
                    folderFailure = error.message
                    return session.quit()
                }
                // Said once, here: the downloader would fail every image with it.
                if let refusal = GalleryDownloader.folderRefusal(folder) {
                    folderRefusal = refusal
                    return session.quit()
                }
                started = true
                downloader.startStreaming {
                    done = true
                    session.quit()
                }
            }
            if started { downloader.add(page) }
            if downloader.progress.total == 0 {
                display.showStatus(trn("Reading {name}’s gallery… {count} item", "Reading {name}’s gallery… {count} items",
                                       count, ["name": source.username]))
            }
        }, item: { page.append($0) })
        if let folderFailure {
            display.finish()
            Console.error(tr("Cannot create the folder {folder}: {reason}", ["folder": folder, "reason": folderFailure]))
            return 1
        }
        if let folderRefusal {
            display.finish()
            Console.error(folderRefusal)
            return 1
        }
        if session.interrupted && !started {
            display.finish()
            Console.error(tr("Stopped while reading the gallery; nothing was saved."))
            return CommandSession.interruptedStatus
        }
        if itemCount == 0 || !started {
            display.finish()
            if itemCount == 0 { return fail(feedError ?? .emptyGallery(username: source.username)) }
        }
        // The feed ended: the names are final. Stopped or not, the downloads end (closing their partial files).
        if started && !session.interrupted { downloader.finishAdding() }
        if started { session.runLoop(until: { done }) }
        display.finish()
        return report(downloader, folder: folder, skippedItems: itemCount - downloader.progress.total, feedError: feedError)
    }

    private func report(_ downloader: GalleryDownloader, folder: String, skippedItems: Int,
                        feedError: GalleryError?) -> Int32 {
        let progress = downloader.progress
        if session.interrupted {
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
        session.reportItemCeiling()
        if let reason = downloader.stopReason { Console.error(reason) }
        return downloader.failures.isEmpty && feedError == nil && !session.stoppedAtItemCeiling && downloader.stopReason == nil ? 0 : 1
    }

    private func stopped(saved: Int, left: Int) -> Int32 {
        display.finish()
        Console.error(tr("Stopped: {saved} saved, {left} left. Run the same command again to resume.",
                         ["saved": saved, "left": left]))
        return CommandSession.interruptedStatus
    }

    private func fail(_ error: GalleryError) -> Int32 {
        display.finish()
        return session.fail(error)
    }
}
