import GObjectBindings
import GtkBindings
import GalleryCore

/// What the window shows of its gallery's state: the status page (welcome, loading, waiting, a failure) or the
/// gallery, the header bar's title and subtitle, the offline notice. Changes come in bursts (every thumbnail
/// that starts or finishes changes the counts): they are shown once per batch, before the next frame is drawn,
/// because each new subtitle makes GTK lay the header bar out again.
@MainActor
final class GalleryStatusDisplay {
    private let window: ApplicationWindow
    private let stack: Stack
    private let statusPage: StatusPage
    private let header: HeaderControls
    private let notices: NoticeBar
    private let listView: GalleryListView
    private let largeView: LargeImageView
    private var pending: MainLoopSource?

    /// The gallery shown, if any.
    var gallery: (@MainActor () -> Gallery?)?
    /// The large view is open (its item names the window).
    var isLargeViewOpen: (@MainActor () -> Bool)?
    /// The gallery's state was shown: for those who follow it (recent galleries, slideshow, following).
    var onShown: (@MainActor (Gallery) -> Void)?

    init(window: ApplicationWindow, stack: Stack, statusPage: StatusPage, header: HeaderControls, notices: NoticeBar,
         listView: GalleryListView, largeView: LargeImageView) {
        self.window = window
        self.stack = stack
        self.statusPage = statusPage
        self.header = header
        self.notices = notices
        self.listView = listView
        self.largeView = largeView
    }

    /// Shows the gallery's state before the next frame, once however often it is asked meanwhile.
    func scheduleUpdate() {
        guard pending?.isActive != true else { return }
        pending = MainLoopSource.idle(priority: MainLoopSource.Priority.highIdle + 10) { [weak self] in
            self?.pending = nil
            self?.update()
        }
    }

    func cancel() {
        pending?.cancel()
        pending = nil
    }

    /// Shows the gallery's state now.
    func update() {
        guard let gallery = gallery?() else { return }
        if !gallery.downloads.isEmpty {
            if stack.visibleChildName == "status" { stack.visibleChildName = "gallery" }
        } else if gallery.isKnownItems {
            stack.visibleChildName = "status"
        } else if case .failed(let error) = gallery.feed.state {
            return show(error, then: gallery)
        } else if let wait = gallery.feed.waitReason {
            statusPage.showWaiting(wait)
            stack.visibleChildName = "status"
        } else {
            statusPage.showLoading(gallery.source)
            stack.visibleChildName = "status"
        }
        shown(gallery)
    }

    private func show(_ error: GalleryError, then gallery: Gallery) {
        showError(error)
        shown(gallery)
    }

    private func shown(_ gallery: Gallery) {
        listView.updateFooter()
        onShown?(gallery)
        updateTitles()
        if let copy = gallery.feed.offlineCopy, !gallery.isSavedCopy {
            notices.show(.offline(service: gallery.source.kind.displayName, savedAgo: copy.savedAgo))
        }
    }

    func updateTitles() {
        if isLargeViewOpen?() == true {
            // GTK keeps the window title and its header bar's title in step: the image's title names both,
            // as in other GNOME image viewers.
            window.title = largeView.title
            header.bar.title = largeView.title
            header.bar.subtitle = largeView.sizeLine
        } else {
            let gallery = gallery?()
            // TRANSLATORS: the window's title while it shows the new images of the followed galleries.
            let title = gallery?.isKnownItems == true ? tr("New Images") : MainWindow.appTitle
            window.title = title
            header.bar.title = title
            header.bar.subtitle = gallery?.summary ?? (stack.visibleChildName == "status" ? statusPage.titleLabel.text : nil)
        }
    }

    func showWelcome() {
        statusPage.showWelcome()
        stack.visibleChildName = "status"
        updateTitles()
    }

    func showError(_ error: GalleryError) {
        statusPage.show(error)
        stack.visibleChildName = "status"
        updateTitles()
    }
}
