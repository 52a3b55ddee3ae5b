import GObjectBindings
import GtkBindings
import GalleryCore

/// "Save N Images…" on several selected items: a folder chosen in the file chooser, then the originals saved
/// into it by the same `GalleryDownloader` as `--download` (the same file names, the folder's checks, files
/// already complete skipped, partial ones resumed), with a bar across the window saying how far it got and
/// a Cancel button. The end is said in the window's notification; a file that failed is named there with
/// why. Cancel, or the window closing, stops the downloads and keeps the partial files for next time.
@MainActor
final class SelectionSave {
    let bar = InfoBar()
    let label = Label()
    let progress = ProgressBar()
    let cancelButton = Button(label: tr("_Cancel"))
    private let window: ApplicationWindow
    private let pipeline: ImagePipeline
    private let notification: InAppNotification
    private(set) var downloader: GalleryDownloader?
    /// The folder last saved into, where the next chooser starts.
    private var lastFolder: String?
    private var isClosed = false

    init(window: ApplicationWindow, pipeline: ImagePipeline, notification: InAppNotification) {
        self.window = window
        self.pipeline = pipeline
        self.notification = notification
        let content = Box(.vertical, spacing: 6)
        label.xalign = 0
        content.append(label)
        content.append(progress)
        bar.setContent(content)
        bar.messageType = .info
        cancelButton.onClicked { [weak self] in self?.cancel() }
        bar.addAction(cancelButton)
        // TRANSLATORS: the accessible name of the bar that shows the progress of "Save N Images…".
        bar.accessibleName = tr("Saving Images")
    }

    var isSaving: Bool { downloader != nil }

    /// Asks for a folder, then saves `downloads`' originals into it. One save at a time: while one runs, the
    /// window says so instead.
    func save(_ downloads: [ItemViewModel]) {
        guard downloader == nil else {
            return notification.show(tr("Images are being saved; wait for them or cancel first."))
        }
        UnpackedItems.process(downloads, { GalleryDownloader.jobs(for: $0) }) { [weak self] jobs in
            guard let self, !self.isClosed, !jobs.isEmpty else { return }
            self.chooseFolder(for: jobs)
        }
    }

    private func chooseFolder(for jobs: [GalleryDownloader.Job]) {
        let chooser = FileChooser(folderTitle: trn("Save {count} Image", "Save {count} Images", jobs.count, ["count": jobs.count]),
                                      acceptLabel: tr("_Save Here"), cancelLabel: tr("_Cancel"), parent: window,
                                      folder: lastFolder ?? FileChooser.picturesFolder)
        chooser.run { [weak self] folder in
            guard let self, !self.isClosed, let folder else { return }
            self.start(jobs, in: folder)
        }
    }

    /// Saves `jobs` into `folder` now (the chooser's answer; tests start here).
    func start(_ jobs: [GalleryDownloader.Job], in folder: String) {
        guard downloader == nil, !isClosed else { return }
        lastFolder = folder
        let downloader = GalleryDownloader(pipeline: pipeline, directory: folder)
        self.downloader = downloader
        downloader.onProgress = { [weak self, weak downloader] in
            if let downloader { self?.show(downloader.progress) }
        }
        show(downloader.progress)
        bar.isRevealed = true
        downloader.start(jobs) { [weak self, weak downloader] in
            guard let self, let downloader, self.downloader === downloader else { return }
            self.finished(downloader, folder: folder)
        }
    }

    /// Stops the downloads; the partial files stay for the next save into the folder.
    func cancel() {
        downloader?.cancel()
    }

    /// The window is going away: the downloads stop, and nothing is shown of them any more (the bar and the
    /// notification are being disposed).
    func close() {
        isClosed = true
        let running = downloader
        downloader = nil
        running?.cancel()
    }

    private func show(_ progress: GalleryDownloader.Progress) {
        // TRANSLATORS: the save bar while "Save N Images…" runs; {done} of {total} images are saved or skipped.
        label.text = tr("Saving images: {done} of {total}…", ["done": progress.finished, "total": progress.total])
        self.progress.fraction = progress.total == 0 ? 0 : Double(progress.finished) / Double(progress.total)
    }

    private func finished(_ downloader: GalleryDownloader, folder: String) {
        self.downloader = nil
        bar.isRevealed = false
        let progress = downloader.progress
        let name = folder.split(separator: "/").last.map(String.init) ?? folder
        let stored = progress.saved + progress.skipped
        let message: String
        if downloader.isCancelled && downloader.stopReason == nil {
            // TRANSLATORS: after Cancel; {saved} of {total} images are in the folder {folder}.
            message = tr("Saving stopped: {saved} of {total} images are in {folder}.",
                         ["saved": stored, "total": progress.total, "folder": name])
        } else if let reason = downloader.stopReason ?? downloader.failures.first.map({ $0.name + ": " + $0.reason }) {
            // TRANSLATORS: {saved} of {total} images were saved in {folder}; {reason} says why one was not.
            message = tr("{saved} of {total} images saved in {folder}. Not saved: {reason}",
                         ["saved": stored, "total": progress.total, "folder": name, "reason": reason])
        } else {
            message = trn("{count} image saved in {folder}.", "{count} images saved in {folder}.", stored,
                          ["count": stored, "folder": name])
        }
        notification.show(message, seconds: InAppNotification.longSeconds)
    }
}
