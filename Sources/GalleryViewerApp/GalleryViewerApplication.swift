#if canImport(Glibc)
import Glibc
#endif
import GObjectBindings
import GtkBindings
import GalleryCore
import GalleryUI

/// The GtkApplication and its wiring: one HTTP client and image pipeline for the process (with the disk
/// cache), the main window, the app-wide actions, and what to show first.
///
/// One instance per session: the first launch owns the app id on the session bus; a later launch (menu,
/// terminal, `gallery-viewer --source … USER`) hands its arguments and environment over and exits at once
/// with status 0, and the running window comes to the front and runs that search. Without a session bus
/// every launch simply runs on its own.
@MainActor
final class GalleryViewerApplication {
    private let application = Application(id: AppVersion.applicationID, unique: true, handlesCommandLine: true)
    /// Opened at startup, so only by the instance that shows the window (a launch handing over never
    /// touches it); nil when it is turned off or another process holds it.
    private var diskCache: DiskCache?
    /// Made on first use, after startup opened the disk cache.
    private lazy var client = HTTPClient(cache: diskCache?.http)
    /// Its decoder helpers start after the window's first frame (`helpersAfterFirstFrame`): on two cores, the
    /// sandboxes starting took CPU from building the window, and a launch's first screen needs no decode when
    /// its thumbnails were kept.
    private lazy var pipeline = ImagePipeline(client: client, decodes: false)
    private let helpersAfterFirstFrame = PaintWatcher()
    private let sources = SourceFactory(overriddenSource: nil, endpointOverride: nil)
    /// The state file: saves each new search and the recent galleries; holds the last search of the previous
    /// launch and the cache's size, read once, at startup of the instance that shows the window (a launch
    /// handing over never reads it).
    private lazy var recentSearches = RecentSearchStore()
    private var recent: RecentSearch? { recentSearches.lastSearch }
    private var window: MainWindow?
    /// The followed galleries (`$XDG_DATA_HOME/gallery-viewer`), opened with the window.
    private lazy var followStore = FollowStore()
    /// Checks go through clients of their own (one per endpoint, see `FollowChecker`), two connections a host:
    /// a check of many galleries never queues the window's thumbnails behind it.
    private lazy var followChecker = FollowChecker(
        store: followStore, makeClient: { HTTPClient(configuration: .init(maxConnectionsPerHost: 2)) },
        endpointOverride: { [sources] kind in sources.endpointForCheck(kind) })
    private var signalSources: [MainLoopSource] = []
    /// When `main` began; the launch's first screen is timed from there in the debug log.
    private let started: Int
    private var firstScreenTrace: FirstScreenTrace?
    /// The gallery the window showed when it was closed: the quit that follows keeps its first screen.
    private var closedGallery: Gallery?

    init(started: Int) { self.started = started }

    func run(arguments: [String]) -> Int32 {
        logLaunch("application starting")
        // The X11 window class comes from the program name; the desktop entry's StartupWMClass matches it.
        Program.setName(AppVersion.applicationID)
        Program.setDisplayName(MainWindow.appTitle)
        application.onStartup { [weak self] in self?.startup() }
        application.onCommandLine { [weak self] commandLine in self?.handle(commandLine) ?? true }
        application.onActivate { [weak self] in self?.presentWindow() }
        application.onShutdown { [weak self] in self?.shutdown() }
        return application.run(arguments: arguments)
    }

    private func startup() {
        logLaunch("startup began")
        defer { logLaunch("startup done") }
        // GTK has read GDK_GL by now, and no worker has started yet.
        OpenGLSupport.forgetForChildren()
        // First, so that its index is being read while the window is made.
        diskCache = DiskCache.open(settings: recentSearches.cacheSettings)
        // Quit as Ctrl+Q does when asked to end (logout, kill, Ctrl+C in a terminal): the cache's index is
        // written on the way out.
        signalSources = [SIGTERM, SIGINT, SIGHUP].map { signal in
            MainLoopSource.unixSignal(signal) { [weak self] in
                self?.quit()
                return false
            }
        }
        ApplicationWindow.setDefaultIconName(AppVersion.applicationID)
        Style.install()
        application.addAction("quit") { [weak self] in self?.quit() }
        application.addAction("clear-cache") { [weak self] in self?.clearCache() }
        application.addAction("about") { [weak self] in
            guard let window = self?.window?.window else { return }
            // TRANSLATORS: not to translate: put your names here, one per line, for the About window's credits.
            let credits = tr("translator-credits")
            AboutDialog.present(.init(
                programName: MainWindow.appTitle, version: AppVersion.string,
                comments: AppDescription.aboutComments,
                website: "https://github.com/galleryviewer/gallery-viewer", iconName: AppVersion.applicationID,
                license: .mitX11, authors: [tr("The Gallery Viewer developers")],
                translatorCredits: credits == "translator-credits" ? nil : credits), parent: window)
        }
        SimpleAction.addToggle(to: application, name: "show-sensitive", initial: false) { [weak self] show in
            self?.window?.setShowSensitive(show)
        }
        // The accelerators are installed by each MainWindow with its actions.
    }

    /// Every launch's arguments, parsed with the same options as this process's own (which were checked
    /// before GApplication started, so a later launch's usage errors never reach here). Returns true on
    /// failure.
    private func handle(_ commandLine: ApplicationCommandLine) -> Bool {
        let options: Options
        do {
            options = try Options.parse(Array(commandLine.arguments.dropFirst()))
        } catch {
            commandLine.printError(Options.fullMessage(for: error) + "\n")
            return true
        }
        // The source this launch searches (or shows): its own, else the open window's, else the last search's.
        let source = options.source ?? window?.header.selectedSource ?? recent?.source ?? .deviantArt
        let endpoint = options.endpointOverride(environment: commandLine.environment)
        // The endpoint override comes from that launch's own --endpoint or environment: for its --source, or
        // without one for every source (also one a link picks later in the window). A bare launch (the menu)
        // only brings the window forward and keeps the override of the one before.
        if endpoint != nil || options.source != nil || options.username != nil {
            sources.setOverride(source: options.source, endpoint: endpoint)
        }
        if let window {
            window.present()
            if let username = options.username {
                search(username, source: source, declared: options.source, in: window)
            } else if options.source != nil {
                window.header.selectedSource = source  // searches the entry's username there, if there is one
            }
        } else {
            openWindow(source: source, username: options.username, declared: options.source)
        }
        return false
    }

    /// A username searches `source`; a profile link picks its own (`declared`: the launch's --source).
    private func search(_ username: String, source: SourceKind, declared: SourceKind?, in window: MainWindow,
                        fromSavedCopy: Bool = false) {
        if case .username = ProfileLink.read(username) {
            window.search(source: source, username: username, fromSavedCopy: fromSavedCopy)
        } else {
            window.search(link: username, declaredSource: declared)
        }
    }

    /// The first window: the command line's search, else the last one of the previous launch.
    private func openWindow(source: SourceKind, username requestedUser: String?, declared: SourceKind? = nil) {
        let window = makeWindow()
        logLaunch("window made")
        if firstScreenTrace == nil { firstScreenTrace = FirstScreenTrace(window: window, started: started) }
        // The remembered username only goes with its own source.
        let username = requestedUser ?? (source == recent?.source ? recent?.username : nil)
        if requestedUser == nil, recentSearches.showedNewImages, window.showFollowedNewImages() {
            // The New view was on screen when the app last closed: it opens again, from the store.
            window.header.selectedSource = source
        } else if let username, !username.isEmpty {
            // The first screen comes from the gallery's saved first page, if it was the last one shown.
            search(username, source: source, declared: declared, in: window, fromSavedCopy: true)
        } else {
            window.header.selectedSource = source
            window.header.usernameEntry.grabFocus()
        }
        // A saved copy shown took what was read ahead; otherwise (the New view, a link, no gallery) no one will.
        diskCache?.snapshots.dropReadAhead()
    }

    private func presentWindow() {
        if let window { return window.present() }
        openWindow(source: recent?.source ?? .deviantArt, username: nil)
    }

    private func makeWindow() -> MainWindow {
        let services = GalleryServices(client: client, pipeline: pipeline, snapshots: diskCache?.snapshots,
                                       serverLookupOrigin: { [sources] in sources.serverLookupOrigin },
                                       stateFile: recentSearches, following: (followStore, followChecker),
                                       endpointOverride: { [sources] kind in sources.endpoint(for: kind) }) {
            [sources] kind, username throws(GalleryError) in
            try sources.make(kind, username: username)
        }
        let window = MainWindow(application: application, services: services)
        self.window = window
        window.onSearch = { [recentSearches] source, username in
            recentSearches.save(RecentSearch(source: source, username: username))
        }
        // The list or the grid, as the last launch left it.
        if let mode = recentSearches.viewMode { window.setViewMode(mode) }
        window.onViewModeChange = { [recentSearches] mode in recentSearches.save(viewMode: mode) }
        window.onShowNewImages = { [recentSearches] in recentSearches.saveShowingNewImages() }
        window.window.onDestroy { [weak self, weak window] in
            guard let self, self.window === window else { return }
            self.closedGallery = window?.galleryWhenClosed
            self.window = nil
        }
        window.present()
        helpersAfterFirstFrame.start(on: window.window) { [pipeline] in
            pipeline.startDecoderHelpers()
            return false
        }
        return window
    }

    /// A step of the launch in the debug log, timed from `main` (see `FirstScreenTrace`).
    private func logLaunch(_ step: String) {
        DebugLog.write("launch: \(step) \((MonotonicClock.microseconds - started) / 1000) ms after main began")
    }

    /// Ctrl+Q: leave at once; `shutdown` stops every download, so nothing waits for the network.
    private func quit() {
        application.quit()
    }

    /// Main menu › Clear Cache: no question asked (it only costs downloading again); the window says what
    /// it did.
    private func clearCache() {
        guard let diskCache else {
            window?.showNote(tr("There is no disk cache to clear: it is turned off, or another Gallery Viewer uses it."))
            return
        }
        diskCache.clear(through: client) { [weak self] freed in
            // TRANSLATORS: {size} is an amount of data such as "12.3 MB".
            self?.window?.showNote(tr("Cache cleared: {size} of saved thumbnails, images and pages deleted.",
                                      ["size": TerminalProgress.size(freed)]))
        }
    }

    private func shutdown() {
        diskCache?.save(showing: window?.gallery ?? closedGallery, images: pipeline.cache)
        window?.gallery?.cancel()
        client.abortAll()
        sources.shutDown()
    }
}
