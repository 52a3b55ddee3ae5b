import GObjectBindings
import GtkBindings
import GalleryCore

/// The application window: header bar with source and username, then one of: a status page (welcome,
/// loading, errors), the gallery list, or the large view of one item.
@MainActor
public final class MainWindow {
    // TRANSLATORS: the application's name, as in the desktop's menu.
    public static let appTitle = tr("Gallery Viewer")

    public let window: ApplicationWindow
    public let header: HeaderControls
    public let listView = GalleryListView()
    public let largeView: LargeImageView
    public let statusPage = StatusPage()
    /// Offline (a saved first page is shown), or a note of something done.
    public let notices = NoticeBar()
    /// Once a session, when images are decoded without the namespace sandbox.
    let sandboxNote: SandboxNote
    let stack = Stack()
    let notification = InAppNotification()
    private let services: GalleryServices
    public private(set) var gallery: Gallery?
    public var showSensitive = false
    private(set) var itemActions: ItemActionRunner!
    /// Actions of the large view only: disabled elsewhere.
    private let viewerActions: ViewerActions
    /// A row's context menu and the item it acts on.
    let rowMenu: RowMenu
    /// The item the row menu acts on: the one its row showed when it opened.
    public var rowMenuTarget: ItemViewModel? { rowMenu.target }
    private let viewModeSwitch: ViewModeSwitch
    private let recentGalleries: RecentGalleriesKeeper
    let slideshow: Slideshow
    /// Ctrl+F: the bar above the list or grid that filters it.
    let find: GalleryFind
    private let spinnerWarmUp = SpinnerWarmUp()
    /// Drag and drop: items out of the window, profile links into it.
    let itemDrags: ItemDrags
    private(set) var linkDrop: LinkDrop?
    /// "Save N Images…" of several selected items, with its progress bar.
    let selectionSave: SelectionSave
    /// Follow, Following and the New view; nil when the app gave no follow store.
    let following: FollowingWatch?
    /// The launch's gallery from its saved first page, until the service answers; nil without saved pages.
    let savedCopy: SavedCopyFirst?
    /// A check's additions to the New view on screen, filling behind it.
    let newReplacement = NewViewReplacement()
    /// The large view's opening and leaving, its neighbours, full screen.
    private let navigation: LargeViewNavigation

    /// A search started (for remembering the last source and username).
    public var onSearch: (@MainActor (SourceKind, String) -> Void)?
    /// The New view of the followed galleries was shown (for a launch to open it again).
    public var onShowNewImages: (@MainActor () -> Void)?
    /// The user switched between list and grid (for remembering it).
    public var onViewModeChange: (@MainActor (GalleryViewMode) -> Void)?
    /// The entry's state (the app setting it) and a link's search.
    private let input: SearchInput
    /// The status page or the gallery, the titles, the offline notice.
    private let status: GalleryStatusDisplay

    public init(application: Application, services: GalleryServices) {
        self.services = services
        window = ApplicationWindow(application: application)
        header = HeaderControls(sources: services.sources)
        largeView = LargeImageView(pipeline: services.pipeline)
        sandboxNote = SandboxNote(pipeline: services.pipeline)
        input = SearchInput(header: header, services: services)
        viewerActions = ViewerActions(window: window, largeView: largeView)
        rowMenu = RowMenu(listView: listView)
        viewModeSwitch = ViewModeSwitch(window: window, listView: listView)
        recentGalleries = RecentGalleriesKeeper(window: window, menu: header.recentGalleries, stateFile: services.stateFile)
        find = GalleryFind(window: window, listView: listView)
        slideshow = Slideshow(window: window, largeView: largeView, listView: listView, pipeline: services.pipeline,
                              stateFile: services.stateFile, notification: notification)
        itemDrags = ItemDrags(listView: listView, largeView: largeView, pipeline: services.pipeline)
        selectionSave = SelectionSave(window: window, pipeline: services.pipeline, notification: notification)
        navigation = LargeViewNavigation(window: window, stack: stack, header: header, listView: listView, largeView: largeView,
                                         viewerActions: viewerActions, slideshow: slideshow)
        status = GalleryStatusDisplay(window: window, stack: stack, statusPage: statusPage, header: header, notices: notices,
                                      listView: listView, largeView: largeView)
        savedCopy = services.snapshots.map { SavedCopyFirst(snapshots: $0, images: services.pipeline.cache) }
        following = services.following.map { [window] in
            FollowingWatch(store: $0.store, checker: $0.checker, services: services, application: application, window: window)
        }

        window.title = Self.appTitle
        window.setDefaultSize(width: 860, height: 720)
        window.setTitlebar(header.bar)
        window.addStyleClass("gallery-window")

        window.setChild(WindowContent.build(stack: stack, status: statusPage.container, findBar: find.bar,
                                           gallery: listView.container, viewer: largeView.root,
                                           bars: [notices.bar, sandboxNote.bar, selectionSave.bar],
                                           notification: notification.revealer))
        status.showWelcome()

        statusPage.retryButton.onClicked { [weak self] in self?.reload() }
        listView.onActivate = { [weak self] download in self?.openLargeView(download) }
        largeView.onChange = { [weak self] in
            self?.status.updateTitles()
            self?.slideshow.viewChanged()
        }
        largeView.onOpenInBrowser = { [weak self] url in self?.openInBrowser(url) }
        listView.onContextMenu = { [weak self] download, press in self?.rowMenu.open(for: download, at: press) }
        itemActions = ItemActionRunner(window: window, services: services, notification: notification) {
            [weak self] url in self?.openInBrowser(url)
        }
        linkDrop = LinkDrop(window: window) { [weak self] link in self?.search(link: link) }
        connectCollaborators()
        installActions(application)
        window.onDestroy { [weak self] in self?.windowDestroyed() }
        // The launch's saved first screen: its pages change without a fade until its rows are all made.
        listView.onScreenMadeAtOnce = { [weak self] in self?.stack.fadesBetweenPages = true }
        window.onMap { [weak self] in
            guard let self else { return }
            // An idle callback runs after the frame GTK is about to paint: the first check waits for it.
            MainLoopSource.idle { [weak self] in self?.following?.firstScreenPainted() }
            self.spinnerWarmUp.start([(self.statusPage.spinner, StatusPage.spinnerSize),
                                      (self.listView.listBox, GalleryRow.spinnerSize),
                                      (self.listView.flowBox, GalleryTile.spinnerSize),
                                      (self.largeView.status.spinner, LargeViewStatus.spinnerSize)])
        }
    }

    /// What the collaborators ask of the window.
    private func connectCollaborators() {
        status.gallery = { [weak self] in self?.gallery }
        status.isLargeViewOpen = { [weak self] in self?.isLargeViewOpen ?? false }
        status.onShown = { [weak self] gallery in
            self?.recentGalleries.rememberIfAnswered(gallery)
            self?.slideshow.galleryChanged()
            self?.following?.galleryChanged()
        }
        input.onSearch = { [weak self] source, username in self?.search(source: source, username: username) }
        input.shownSource = { [weak self] in self?.gallery.flatMap { $0.isKnownItems ? nil : $0.source.kind } }
        input.onLinkProblem = { [weak self] error, link in self?.showLinkProblem(error, link: link) }
        input.onAskingServer = { [weak self] server, link in self?.showAskingServer(server, link: link) }
        navigation.onOpened = { [weak self] download in
            self?.following?.opened(download)
            self?.status.updateTitles()
        }
        navigation.onClosed = { [weak self] in
            self?.status.updateTitles()
            self?.savedCopy?.liveChanged()
        }
        navigation.onNearEnd = { [weak self] in self?.gallery?.loadMore() }
        viewerActions.onRun = { [weak self] action, download in
            guard let self else { return }
            self.itemActions.run(action, on: download, largeView: self.largeView)
        }
        largeView.onContextMenu = { [weak self] press in self?.viewerActions.openMenu(at: press) }
        rowMenu.onOpen = { [weak self] download in self?.openLargeView(download) }
        rowMenu.onRun = { [weak self] action, download in self?.itemActions.run(action, on: download, largeView: nil) }
        rowMenu.onSaveSelection = { [weak self] downloads in self?.selectionSave.save(downloads) }
        rowMenu.onCopySelectionLinks = { [weak self] downloads in self?.itemActions.copyLinks(of: downloads) }
        viewModeSwitch.onChange = { [weak self] mode in self?.onViewModeChange?(mode) }
        recentGalleries.onChoose = { [weak self] entry in self?.search(source: entry.source, username: entry.username) }
        recentGalleries.onWillToggle = { [weak self] in self?.closeLargeView() }
        find.onOpen = { [weak self] in self?.closeLargeView() }
        window.onFullscreenChanged { [weak navigation] fullscreen in navigation?.fullscreenChanged(fullscreen) }
        window.onMinimizedChanged { [weak self] minimized in self?.largeView.setWindowMinimized(minimized) }
        slideshow.gallery = { [weak self] in self?.gallery }
        connectFollowing()
        connectSavedCopy()
    }

    private func connectSavedCopy() {
        savedCopy?.onShowSaved = { [weak self] saved in self?.adopt(saved) }
        savedCopy?.onReplace = { [weak self] live in
            guard let self else { return }
            self.gallery = live
            listView.replace(with: live)
            status.update()
        }
        savedCopy?.mayReplace = { [weak self] in self.map { !$0.isLargeViewOpen && !$0.find.isOpen } ?? false }
        find.onClose = { [weak self] in self?.savedCopy?.liveChanged() }
    }

    private func connectFollowing() {
        guard let following else { return }
        header.addFollowControls(toggle: following.followToggle, followingButton: following.menu.button)
        following.shownGallery = { [weak self] in self?.gallery }
        following.onOpen = { [weak self] source, username in self?.search(source: source, username: username) }
        following.onShowNew = { [weak self] items, endpoint, replacing in
            self?.showNewImages(items, endpoint: endpoint, replacing: replacing)
        }
        following.mayReplaceNew = { [weak self] in self.map { !$0.isLargeViewOpen && !$0.find.isOpen } ?? false }
        newReplacement.shown = { [weak self] in self?.gallery }
        newReplacement.mayReplace = following.mayReplaceNew
        newReplacement.onReplace = { [weak self] new, old in
            guard let self, !isDestroyed else { return }
            follow(new)
            listView.replace(with: new)
            // After the new rows asked for their thumbnails (bound at the next frame): those shown before are
            // shared, not fetched again.
            MainLoopSource.idle { old.cancel() }
            status.update()
        }
        following.isWindowActive = { [weak self] in self?.window.isActive ?? false }
        following.onNote = { [weak self] text in self?.notification.show(text) }
        following.onProblem = { [weak self] text in self?.notification.show(text, seconds: nil) }
    }

    /// True once the window was closed. Its widgets are disposed then; nothing may update them again.
    public private(set) var isDestroyed = false
    /// The gallery on screen when the window closed (closing it is the usual way to quit): what the app keeps
    /// of its first screen as it quits.
    public private(set) var galleryWhenClosed: Gallery?

    /// The window is going away with downloads in flight: stop them all, so no callback reaches a widget
    /// GTK already disposed (the classic crash of lazy image lists).
    private func windowDestroyed() {
        isDestroyed = true
        input.cancelLookup()
        savedCopy?.end()
        newReplacement.cancel()
        status.cancel()
        spinnerWarmUp.cancel()
        slideshow.stop()
        following?.stop()
        largeView.stop()
        itemActions.cancelAll()
        itemDrags.cancelAll()
        selectionSave.close()
        notification.dismiss()
        gallery?.cancel()
        galleryWhenClosed = gallery
        gallery = nil
        listView.detach()
    }

    public func present() { window.present() }

    /// Starts loading `username`'s gallery from `source`, replacing (and cancelling) the current one. A
    /// profile link instead of a username picks its own source (`search(link:)`).
    /// `fromSavedCopy` (the launch's gallery): its first page saved the last time shows at once, from disk,
    /// until the service's answer takes its place.
    public func search(source: SourceKind, username: String, fromSavedCopy: Bool = false) {
        guard !isDestroyed else { return }
        if case .username = ProfileLink.read(username) {} else { return search(link: username) }
        input.updatingControls {
            if header.selectedSource != source { header.selectedSource = source }
            if header.usernameEntry.text != username { header.usernameEntry.text = username }
        }
        clearForNewSearch()

        let trimmed = username.trimmed
        guard !trimmed.isEmpty else { return status.showWelcome() }
        let gallerySource: any GallerySource
        do {
            gallerySource = try services.makeSource(source, trimmed)
        } catch {
            return status.showError(error)
        }
        onSearch?(source, trimmed)
        let options = Gallery.Options(thumbnailPixelSize: listView.thumbnailPixelSize,
                                      showSensitive: showSensitive, feedLimits: services.feedLimits)
        let gallery = Gallery(source: gallerySource, client: services.client, pipeline: services.pipeline, options: options,
                              snapshots: services.snapshots)
        if fromSavedCopy {
            // Its first screen, thumbnails kept, shows whole and without a fade (`makesNextScreenAtOnce`).
            listView.makesNextScreenAtOnce = true
            stack.fadesBetweenPages = false
        }
        adopt(gallery)
        gallery.start()
        if fromSavedCopy {
            savedCopy?.begin(live: gallery) { [services] in
                Gallery(source: gallerySource, client: services.client, pipeline: services.pipeline, options: options)
            }
        }
    }

    /// Shows `gallery` (a service's, its saved copy, or the New view's) and follows its changes.
    private func adopt(_ gallery: Gallery) {
        follow(gallery)
        listView.show(gallery)
        status.update()
    }

    /// Makes `gallery` the window's and follows its changes.
    private func follow(_ gallery: Gallery) {
        self.gallery = gallery
        gallery.onStatusChange = { [weak self, weak gallery] in
            guard let self, !self.isDestroyed, let gallery else { return }
            if self.savedCopy?.isBehindSavedCopy(gallery) == true { return self.savedCopy?.liveChanged() ?? () }
            guard self.gallery === gallery else { return }
            self.savedCopy?.liveChanged()
            self.status.scheduleUpdate()
        }
    }

    /// The New view: `items` (newest first, each saying whose it is) as the gallery, with the same list, grid,
    /// large view and actions as a service's.
    /// `endpoint` decides the address policy of the window's client for their thumbnails (`NewImages`);
    /// `replacing`: the New view on screen takes in what a check found, keeping its place, once the new one
    /// has filled behind it (`NewViewReplacement`). The items come a slice per main-loop turn, as a page's do.
    /// The gallery made of them.
    @discardableResult
    func showNewImages(_ items: [KnownItem], endpoint: String?, replacing: Bool = false) -> Gallery? {
        guard !isDestroyed else { return nil }
        if let endpoint { services.client.useEndpoint(endpoint) }
        let options = Gallery.Options(thumbnailPixelSize: listView.thumbnailPixelSize, showSensitive: showSensitive,
                                      feedLimits: services.feedLimits)
        let known = Gallery(known: items, client: services.client, pipeline: services.pipeline, options: options)
        if replacing, let shown = gallery, shown.isKnownItems {
            newReplacement.begin(known, replacing: shown)
            return known
        }
        input.updatingControls { header.usernameEntry.text = "" }
        clearForNewSearch()
        onShowNewImages?()
        if items.isEmpty { statusPage.showNothingNew() }
        adopt(known)
        // The keyboard goes to the newest, as a menu's choice leaves it in what it opened.
        if !items.isEmpty { listView.select(0, focus: true) }
        return known
    }

    /// Opens the New view of the followed galleries (read from their store); false without following.
    @discardableResult
    public func showFollowedNewImages() -> Bool {
        guard let following else { return false }
        following.showNew()
        return true
    }

    /// Searches what a profile link names (a plain username too). `declaredSource` (the command line's
    /// --source) reads a `/@NAME` link without asking its server; a link of another service with it gets a
    /// message.
    public func search(link text: String, declaredSource: SourceKind? = nil) {
        guard !isDestroyed else { return }
        input.search(link: text, declaredSource: declaredSource)
    }

    /// A `/@NAME` link's server is being asked what it runs.
    private func showAskingServer(_ server: String, link: String) {
        guard !isDestroyed else { return }
        prepareForSearch(showing: link)
        statusPage.showAskingServer(server)
        stack.visibleChildName = "status"
        status.updateTitles()
    }

    /// The link stays in the entry, so that Try Again (and Enter) ask again.
    private func showLinkProblem(_ error: GalleryError, link: String) {
        guard !isDestroyed else { return }
        prepareForSearch(showing: link)
        status.showError(error)
    }

    /// A new search that shows `text` (the link) in the entry.
    private func prepareForSearch(showing text: String) {
        input.updatingControls {
            if header.usernameEntry.text != text { header.usernameEntry.text = text }
        }
        clearForNewSearch()
    }

    /// What every new search does first: a link's lookup in flight, the large view and the gallery go.
    private func clearForNewSearch() {
        listView.makesNextScreenAtOnce = false
        input.cancelLookup()
        savedCopy?.end()
        newReplacement.cancel()
        following?.newViewLeft()
        closeLargeView()
        find.close()
        gallery?.cancel()
        gallery = nil
        listView.show(nil)
        notices.show(nil)
        slideshow.galleryChanged()
        following?.galleryChanged()
    }

    /// Loads the current gallery again from its first page.
    public func reload() {
        if gallery?.isKnownItems == true, let following { return following.showNew() }
        guard let source = header.selectedSource else { return }
        search(source: source, username: header.usernameEntry.text)
    }

    public func setShowSensitive(_ show: Bool) {
        showSensitive = show
        if show { gallery?.revealSensitive() }
    }

    // MARK: Large view

    public var isLargeViewOpen: Bool { navigation.isLargeViewOpen }
    /// Full screen was asked for and not left since (see `LargeViewNavigation`).
    public var isFullscreen: Bool { navigation.isFullscreen }

    public func openLargeView(_ download: ItemViewModel) { navigation.open(download) }

    /// Back to the list, at the scroll position it had, with the viewed row selected.
    public func closeLargeView() { navigation.close() }

    public func setFullscreen(_ fullscreen: Bool) { navigation.setFullscreen(fullscreen) }

    /// How the gallery shows now.
    public var viewMode: GalleryViewMode { listView.mode }

    /// Shows the gallery as a list or as a grid; the toggle follows. Tells `onViewModeChange` when it changed.
    public func setViewMode(_ mode: GalleryViewMode) { viewModeSwitch.set(mode) }

    /// Shows the previous (-1) or next (+1) item in the large view, of those the list shows.
    public func showNeighbour(_ offset: Int) { navigation.showNeighbour(offset) }

    /// A short note at the top of the window ("Cache cleared…"), gone after a few seconds.
    public func showNote(_ text: String) { notification.show(text, seconds: InAppNotification.longSeconds) }

    /// Opens a page in the browser (`BrowserLink` checks it is one).
    func openInBrowser(_ url: String) { BrowserLink.open(url, from: window) }

    private func installActions(_ application: Application) {
        let map = window
        SimpleAction.add(to: map, name: "focus-search") { [weak self] in
            self?.closeLargeView()
            self?.header.usernameEntry.focusAndSelectAll()
        }
        SimpleAction.add(to: map, name: "reload") { [weak self] in self?.reload() }
        SimpleAction.add(to: map, name: "close") { [weak self] in self?.window.close() }
        Shortcuts.addHelpOverlayAction(to: window)
        Shortcuts.install(in: application)
    }
}
