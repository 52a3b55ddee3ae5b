import GObjectBindings
import GtkBindings
import GalleryCore

/// Moving between the gallery and one item: opening the large view, stepping to a neighbour, going back to
/// the list where it was, and full screen, from the window's calls, the viewer's actions and keys, a swipe and
/// the slideshow. The window tells it what else must follow (`onOpened`, `onClosed`, `onNearEnd`); it owns
/// whether full screen was asked for.
@MainActor
final class LargeViewNavigation {
    private let window: ApplicationWindow
    private let stack: Stack
    private let header: HeaderControls
    private let listView: GalleryListView
    private let largeView: LargeImageView
    private let viewerActions: ViewerActions
    private let slideshow: Slideshow
    /// Full screen was asked for (by F11 or the menu) and not left since; the window manager confirms it
    /// through `fullscreenChanged`, or not at all on a bare X server.
    private(set) var isFullscreen = false

    /// An item was opened (the New view marks it seen; the titles follow).
    var onOpened: (@MainActor (ItemViewModel) -> Void)?
    /// Back to the list.
    var onClosed: (@MainActor () -> Void)?
    /// Stepping forward came near the last items loaded: the next page is wanted.
    var onNearEnd: (@MainActor () -> Void)?

    init(window: ApplicationWindow, stack: Stack, header: HeaderControls, listView: GalleryListView,
         largeView: LargeImageView, viewerActions: ViewerActions, slideshow: Slideshow) {
        self.window = window
        self.stack = stack
        self.header = header
        self.listView = listView
        self.largeView = largeView
        self.viewerActions = viewerActions
        self.slideshow = slideshow
        viewerActions.onBack = { [weak self] in self?.leaveFullscreenOrView() }
        viewerActions.onShowNeighbour = { [weak self] offset in self?.showNeighbour(offset) }
        viewerActions.onToggleFullscreen = { [weak self] in if let self { setFullscreen(!isFullscreen) } }
        viewerActions.onPlayPause = { [weak slideshow, weak largeView] in
            guard let slideshow else { return }
            if slideshow.isRunning { slideshow.togglePause() } else { largeView?.togglePlayback() }
        }
        largeView.onSwipe = { [weak self] offset in self?.showNeighbour(offset) }
        slideshow.isLargeViewOpen = { [weak self] in self?.isLargeViewOpen ?? false }
        slideshow.onShow = { [weak self] download in self?.open(download) }
        slideshow.onRunningChange = { [weak self] running in self?.setFullscreen(running) }
    }

    var isLargeViewOpen: Bool { stack.visibleChildName == "viewer" }

    func open(_ download: ItemViewModel) {
        let monitor = window.monitorPixelSize
        largeView.show(download, maxPixelSize: min(4096, max(monitor.width, monitor.height)),
                       playsThrough: slideshow.isRunning)
        stack.visibleChildName = "viewer"
        header.setViewerMode(true)
        viewerActions.enable(for: download)
        onOpened?(download)
    }

    /// Back to the list, at the scroll position it had, with the viewed row selected.
    func close() {
        guard isLargeViewOpen else { return }
        slideshow.stop()
        setFullscreen(false)
        largeView.close()
        stack.visibleChildName = "gallery"
        header.setViewerMode(false)
        viewerActions.disable()
        if let shown = largeView.download, let position = listView.position(of: shown) { listView.select(position, focus: true) }
        onClosed?()
    }

    /// Escape: out of a slideshow or full screen first, then out of the large view.
    func leaveFullscreenOrView() {
        if slideshow.isRunning { slideshow.stop() } else if isFullscreen { setFullscreen(false) } else { close() }
    }

    func setFullscreen(_ fullscreen: Bool) {
        guard fullscreen != isFullscreen else { return }
        isFullscreen = fullscreen
        window.setFullscreen(fullscreen)
    }

    /// What the window manager says of full screen (F11 may also be left by its own means).
    func fullscreenChanged(_ fullscreen: Bool) { isFullscreen = fullscreen }

    /// Shows the previous (-1) or next (+1) item in the large view: of those the list shows (found ones only,
    /// while a find filters it).
    func showNeighbour(_ offset: Int) {
        guard isLargeViewOpen, let current = largeView.download, let position = listView.position(of: current),
              let next = listView.download(at: position + offset) else { return }
        open(next)
        if offset > 0, listView.foundItems == nil, position + offset >= listView.rowCount - GalleryListView.prefetchRows {
            onNearEnd?()
        }
    }
}
