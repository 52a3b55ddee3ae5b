import GObjectBindings
import GtkBindings
import GalleryCore

/// What a user can do with one gallery item, wherever they are: the large view's menu and keys ("win.*", on
/// the item shown) and a row's context menu ("row.*", on the item that row showed when the menu opened).
///
/// - Save: the original file, byte for byte as the service sends it (never a re-encoded pixbuf), through the
///   pipeline's `saveFile`: a hidden partial file renamed once complete, with the same checks as `--download`
///   (written from the bytes the large view holds, when it shows the item).
/// - Copy Image: the image at full resolution on the clipboard (decoded from the bytes the large view holds,
///   else downloaded again; the pipeline's limits apply).
/// - Copy Link: the item's page on the service (what a person shares: it credits the author and works for
///   videos too), or the image's address when the item has no page.
/// - Open in Browser: the item's page.
/// - Print: the image at full resolution on one page, through GTK's print dialog (see `ImagePrint`).
/// - Open With: the original saved into the cache's `open-with` folder, then GTK's application chooser on it
///   (`AppChooser`); copies older than a day are removed the next time.
/// - Set as Background: the original saved into `$XDG_DATA_HOME/backgrounds` (where GNOME Settings lists the
///   user's backgrounds), then set through the portal or GNOME's setting (`DesktopBackground`).
enum ItemAction: String, CaseIterable {
    case saveImage = "save-image"
    case copyImage = "copy-image"
    case copyLink = "copy-link"
    case openInBrowser = "open-in-browser"
    case openWith = "open-with"
    case print = "print"
    case setAsBackground = "set-as-background"

    var menuLabel: String {
        switch self {
        case .saveImage: tr("_Save Image As…")
        case .copyImage: tr("_Copy Image")
        case .copyLink: tr("Copy _Link")
        case .openInBrowser: tr("Open in _Browser")
        case .openWith: tr("Open _With…")
        case .print: tr("_Print…")
        case .setAsBackground: tr("Set as Back_ground…")
        }
    }

    /// Whether the action can do anything for `download`'s item. A sensitive image still hidden is not
    /// saved or copied unseen.
    @MainActor
    func applies(to download: ItemViewModel) -> Bool {
        let item = download.item
        return switch self {
        case .saveImage, .openWith: item.savedFile() != nil && download.state != .sensitiveHidden
        case .copyImage, .print:
            item.kind == .image && item.fullImageURL != nil && download.state != .sensitiveHidden
        case .setAsBackground:
            item.kind == .image && item.savedFile() != nil && download.state != .sensitiveHidden
        case .copyLink: item.link != nil
        case .openInBrowser: item.pageURL.map(URLText.isWebAddress) ?? false
        }
    }
}

extension GalleryItem {
    /// The link "Copy Link" copies: the page, else the image; only http(s).
    var link: String? {
        [pageURL, fullImageURL, media?.url].compactMap { $0 }.first(where: URLText.isWebAddress)
    }
}

/// Runs the item actions for a window: file chooser, downloads in flight, clipboard, notifications.
@MainActor
final class ItemActionRunner {
    private let window: ApplicationWindow
    private let services: GalleryServices
    private let notification: InAppNotification
    private let openInBrowser: @MainActor (String) -> Void
    /// Saves and hand-overs in flight.
    private let fetches: OriginalFetches
    /// Open With and Set as Background.
    private let handOver: DesktopHandOver
    private var copying: PreparingWork?
    private var printing: PreparingWork?
    /// The print whose dialog is open, or its preview: GTK tells a preview's end to nobody, so it is kept until
    /// the next print or the window closing.
    private var printOperation: PrintOperation?
    /// Where the last image was saved: the chooser starts there next time.
    private(set) var lastSaveFolder: String?

    init(window: ApplicationWindow, services: GalleryServices, notification: InAppNotification,
         openInBrowser: @escaping @MainActor (String) -> Void) {
        self.window = window
        self.services = services
        self.notification = notification
        self.openInBrowser = openInBrowser
        fetches = OriginalFetches(pipeline: services.pipeline)
        handOver = DesktopHandOver(window: window, notification: notification, fetches: fetches)
    }

    /// Runs `action` on `download`'s item; `largeView` offers what it already holds of that item.
    func run(_ action: ItemAction, on download: ItemViewModel, largeView: LargeImageView?) {
        let item = download.item
        guard action.applies(to: download) else { return }
        switch action {
        case .saveImage: chooseFileAndSave(item)
        case .copyImage: copyImage(item, shownIn: largeView?.download === download ? largeView : nil)
        case .copyLink:
            guard let link = item.link else { return }
            Clipboard.setText(link)
            notification.show(tr("Link copied"))
        case .openInBrowser:
            if let page = item.pageURL { openInBrowser(page) }
        case .print: printImage(item, shownIn: largeView?.download === download ? largeView : nil)
        case .setAsBackground: handOver.setAsBackground(item)
        case .openWith: handOver.openWith(item)
        }
    }

    func cancelAll() {
        fetches.cancelAll()
        printOperation = nil
        copying?.cancel()
        copying = nil
        printing?.cancel()
        printing = nil
    }

    // MARK: Save

    /// "Copy N Links" on several selected items: their links, one a line, in the order they show.
    func copyLinks(of downloads: [ItemViewModel]) {
        UnpackedItems.process(downloads, { items in items.compactMap { $0.link } }) { [weak self] links in
            guard let self, !links.isEmpty else { return }
            Clipboard.setText(links.joined(separator: "\n"))
            // TRANSLATORS: after "Copy N Links"; {count} is how many links were copied.
            self.notification.show(trn("{count} link copied", "{count} links copied", links.count, ["count": links.count]))
        }
    }

    private func chooseFileAndSave(_ item: GalleryItem) {
        guard let file = item.savedFile() else { return }
        let chooser = FileChooser(title: tr("Save Image"), acceptLabel: tr("_Save"), cancelLabel: tr("_Cancel"),
                                      parent: window, suggestedName: DownloadNames.safe(item.fileName),
                                      folder: lastSaveFolder ?? FileChooser.picturesFolder)
        chooser.run { [weak self] path in
            guard let self, let path else { return }
            self.save(file.url, to: path, isMedia: file.isMedia)
        }
    }

    /// Downloads the original at `url` (an image; `isMedia`: a video or sound) into `path` (a partial file
    /// first, renamed when complete).
    func save(_ url: String, to path: String, isMedia: Bool = false) {
        guard let slash = path.lastIndex(of: "/"), path.index(after: slash) < path.endIndex else { return }
        let directory = slash == path.startIndex ? "/" : String(path[..<slash])
        let name = String(path[path.index(after: slash)...])
        lastSaveFolder = directory
        // TRANSLATORS: {name} is a file name.
        notification.show(tr("Saving {name}…", ["name": name]))
        fetches.fetch(url, into: FileDestination(directory: directory, name: name), isMedia: isMedia) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success: self.notification.show(tr("Saved {name}", ["name": name]))
            case .failure(let error) where error.isCancelled: break
            case .failure(let error):
                self.notification.dismiss()
                self.window.showMessage(tr("Could not save {name}", ["name": name]), secondary: error.message)
            }
        }
    }

    /// Saves in flight, for tests.
    var savesInFlight: Int { fetches.count }

    // MARK: Copy

    private func copyImage(_ item: GalleryItem, shownIn view: LargeImageView?) {
        copying?.cancel()
        copying = nil
        let task = loadFullImage(item, shownIn: view, failure: tr("Could not copy the image")) { [weak self] pixbuf in
            self?.copying = nil
            self?.placeOnClipboard(pixbuf)
        }
        if let task { copying = .loading(task) }
    }

    /// Calls `use` with the item's image at full resolution: the large view's pixels when it holds them, else
    /// the URL it shows (a rendition, when the original is too large to decode), which the pipeline serves
    /// from the bytes the view holds, kept out of the memory cache like the view's zoom. Returns the load
    /// while it is pending; a failure is said in a dialog headed `failure`.
    private func loadFullImage(_ item: GalleryItem, shownIn view: LargeImageView?, failure: String,
                               then use: @escaping @MainActor (Pixbuf) -> Void) -> ImageTask? {
        if let pixbuf = view?.fullResolutionPixbuf {
            use(pixbuf)
            return nil
        }
        guard let url = view?.requestedURL ?? item.fullImageURL else { return nil }
        let request = ImageRequest(url: url, size: .original, cachePolicy: [.readMemory, .disk], priority: .interactive)
        let task = services.pipeline.loadImage(request) { [weak self] result in
            switch result {
            case .success(let response): use(response.image.pixbuf)
            case .failure(let error) where error.isCancelled: break
            case .failure(let error): self?.window.showMessage(failure, secondary: error.message)
            }
        }
        return task.isPending ? task : nil
    }

    /// Encodes the image as PNG on a worker, so that neither this nor a later paste into another application
    /// encodes on the main loop, and the clipboard keeps a file rather than the decoded pixels.
    private func placeOnClipboard(_ pixbuf: Pixbuf) {
        let cancellable = Cancellable()
        copying = .encoding(cancellable)
        WorkerTask.run(cancellable: cancellable, { () -> Result<Bytes, GLibError> in
            Result { () throws(GLibError) in try pixbuf.encoded(as: "png") }
        }, completion: { [weak self] encoded in
            guard let self, !cancellable.isCancelled else { return }
            self.copying = nil
            switch encoded {
            case .success(let png):
                Clipboard.setPNG(png)
                self.notification.show(tr("Image copied"))
            case .failure(let error):
                self.window.showMessage(tr("Could not copy the image"), secondary: error.message)
            }
        })
    }

    /// A copy is being prepared (downloaded or decoded), for tests.
    var isCopying: Bool { copying != nil }

    // MARK: Print

    private func printImage(_ item: GalleryItem, shownIn view: LargeImageView?) {
        printing?.cancel()
        printing = nil
        let failure = tr("Could not print the image")
        let quarterTurns = view?.quarterTurns ?? 0
        let task = loadFullImage(item, shownIn: view, failure: failure) { [weak self] pixbuf in
            guard let self else { return }
            let cancellable = Cancellable()
            self.printing = .encoding(cancellable)
            ImagePrint.prepare(pixbuf, cancellable: cancellable) { [weak self] prepared in
                guard let self else { return }
                self.printing = nil
                switch prepared {
                case .success(let printable):
                    let operation = ImagePrint.operation(for: printable, title: item.displayTitle, quarterTurns: quarterTurns)
                    self.printOperation = operation
                    operation.print(parent: self.window) { [weak self, weak operation] outcome in
                        if self?.printOperation === operation { self?.printOperation = nil }
                        if case .failed(let message) = outcome { self?.window.showMessage(failure, secondary: message) }
                    }
                case .failure(let error):
                    self.window.showMessage(failure, secondary: error.message)
                }
            }
        }
        if let task { printing = .loading(task) }
    }

    /// What Copy Image and Print wait for: the image, then its encoding.
    private enum PreparingWork {
        case loading(ImageTask)
        case encoding(Cancellable)

        @MainActor func cancel() {
            switch self {
            case .loading(let task): task.cancel()
            case .encoding(let cancellable): cancellable.cancel()
            }
        }
    }
}
