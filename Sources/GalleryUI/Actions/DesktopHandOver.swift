#if canImport(Glibc)
import Glibc
#endif
import GObjectBindings
import GtkBindings
import GalleryCore

/// Open With and Set as Background: the item's original fetched into a file of the app's own, then handed to
/// the desktop. The file's extension comes from its bytes, never from the name the service gave it (an "image"
/// called `x.jar` would otherwise open in Java, the chooser offering the type's default first): an image whose
/// bytes are no format the app knows, or a video or sound without a media extension, is not handed over.
@MainActor
final class DesktopHandOver {
    private let window: ApplicationWindow
    private let notification: InAppNotification
    private let fetches: OriginalFetches
    /// The last chooser's copy, never swept while it may be open.
    private var handedOver: String?

    /// Where Open With keeps the originals it hands to other applications.
    static var openWithFolder: String { DiskCache.defaultDirectory + "/open-with" }
    /// A copy handed over is kept this long: the other application may still be reading it.
    nonisolated static let openWithCopySeconds = 24 * 3600
    /// Where the originals set as backgrounds go: GNOME Settings offers the pictures there again.
    static var backgroundsFolder: String { FileSystem.userDataDirectory + "/backgrounds" }
    /// The extensions a video or sound handed to another application may have.
    static let mediaExtensions: Set<String> = ["mp4", "m4v", "mov", "webm", "mkv", "ogv", "ogg", "oga", "opus", "mp3",
                                               "m4a", "aac", "wav", "flac"]

    init(window: ApplicationWindow, notification: InAppNotification, fetches: OriginalFetches) {
        self.window = window
        self.notification = notification
        self.fetches = fetches
    }

    // MARK: Open With

    func openWith(_ item: GalleryItem) {
        guard let file = item.savedFile() else { return }
        let failure = tr("Could not open the image")
        let folder = Self.openWithFolder
        guard let destination = prepare(folder, mode: 0o700, name: DownloadNames.safe(item.fileName), failure: failure)
        else { return }
        // TRANSLATORS: {name} is a file name.
        notification.show(tr("Fetching {name}…", ["name": destination.name]))
        fetch(file.url, into: destination, isMedia: file.isMedia, failure: failure) { [weak self] path in
            guard let self else { return }
            self.notification.dismiss()
            // Old copies go once this one is in place under its final name, which the sweep skips, as it skips
            // the copy a chooser opened before may still be showing.
            let keep = [FileSystem.baseName(of: path), self.handedOver].compactMap { $0 }
            self.handedOver = keep[0]
            WorkerTask.run({ DirectoryScan.removeFiles(in: folder, olderThan: Self.openWithCopySeconds, keeping: keep) },
                           completion: { _ in })
            AppChooser(file: path, parent: self.window).run { [weak self] outcome in
                if case .failed(let message) = outcome { self?.window.showMessage(failure, secondary: message) }
            }
        }
    }

    // MARK: Set as Background

    func setAsBackground(_ item: GalleryItem) {
        guard let file = item.savedFile(), !file.isMedia else { return }
        let failure = tr("Could not set the background")
        // A name of its own (the time it was set), so that nothing of the user's in that folder is replaced.
        let name = "\(time(nil))-" + DownloadNames.safe(item.fileName)
        guard let destination = prepare(Self.backgroundsFolder, mode: 0o755, name: name, failure: failure) else { return }
        notification.show(tr("Setting the background…"))
        fetch(file.url, into: destination, isMedia: false, failure: failure) { [weak self] path in
            guard let self else { return }
            DesktopBackground.set(file: path, parent: self.window) { [weak self] outcome in
                self?.backgroundWasSet(outcome, path: path, failure: failure)
            }
        }
    }

    private func backgroundWasSet(_ outcome: DesktopBackground.Outcome, path: String, failure: String) {
        switch outcome {
        case .set: return notification.show(tr("Background set"))
        case .cancelled: break
        case .unavailable:
            // TRANSLATORS: {path} is where the image was saved.
            window.showMessage(failure, secondary: tr("This desktop offers no way for applications to set it. The image is saved as {path}.",
                                                      ["path": path]))
        case .failed(let message): window.showMessage(failure, secondary: message)
        }
        notification.dismiss()
    }

    // MARK: Fetching

    /// The destination `name` in `folder` (made when missing), or nil after saying why not; nil too while the
    /// same file is still being fetched (a second press waits for the first).
    private func prepare(_ folder: String, mode: Int32, name: String, failure: String) -> FileDestination? {
        do throws(GLibError) {
            try File.makeDirectories(atPath: folder, mode: mode)
        } catch {
            window.showMessage(failure, secondary: error.message)
            return nil
        }
        let destination = FileDestination(directory: folder, name: name, correctsExtension: true)
        return fetches.isFetching(into: destination) ? nil : destination
    }

    /// Where `saved` is, when it is a file that may be handed to another application: an image in a format the
    /// app knows (named for it), or a video or sound with a media extension.
    static func path(of saved: SavedFile, in destination: FileDestination, isMedia: Bool) -> String? {
        let name = saved.name ?? destination.name
        let ext = name.lastIndex(of: ".").map { name[name.index(after: $0)...].lowercased() } ?? ""
        guard isMedia ? mediaExtensions.contains(ext) : saved.format != nil else { return nil }
        return destination.directory + "/" + name
    }

    /// Fetches the original and calls `then` with the file's path once it is one that may be handed over.
    private func fetch(_ url: String, into destination: FileDestination, isMedia: Bool, failure: String,
                       then: @escaping @MainActor (String) -> Void) {
        fetches.fetch(url, into: destination, isMedia: isMedia) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let saved):
                guard let path = Self.path(of: saved, in: destination, isMedia: isMedia) else {
                    File(path: destination.directory + "/" + (saved.name ?? destination.name)).delete { _ in }
                    self.notification.dismiss()
                    return self.window.showMessage(failure, secondary: isMedia
                        ? tr("The server did not say what kind of video or sound this is.")
                        : tr("The file is not an image in a format this app knows."))
                }
                then(path)
            case .failure(let error) where error.isCancelled: self.notification.dismiss()
            case .failure(let error):
                self.notification.dismiss()
                self.window.showMessage(failure, secondary: error.message)
            }
        }
    }
}
