import CGtk
import GObjectBindings
import GtkBindings
import GalleryCore
import GalleryUI

/// The GtkApplication and its wiring: one HTTP client and image loader for the process, the main window,
/// the app-wide actions, and what to show first.
@MainActor
final class GalleryViewerApplication {
    private let options: Options
    private let application = Application(id: AppVersion.applicationID)
    private let client = HTTPClient()
    private lazy var loader = ImageLoader(client: client)
    private let sources: SourceFactory
    /// The last search of the previous launch, read once; each new one is saved by `recentSearches`.
    private let recent = RecentSearch.load()
    private let recentSearches = RecentSearchStore()
    /// The command line wins; else the last search's source; DeviantArt on a first launch.
    private let initialSource: SourceKind
    private var window: MainWindow?

    init(options: Options) {
        self.options = options
        initialSource = options.source ?? recent?.source ?? .deviantArt
        sources = SourceFactory(overriddenSource: initialSource, endpointOverride: options.endpointOverride)
    }

    func run() -> Int32 {
        // The X11 window class comes from the program name; the desktop entry's StartupWMClass matches it.
        g_set_prgname(AppVersion.applicationID)
        g_set_application_name(MainWindow.appTitle)
        application.onStartup { [weak self] in self?.startup() }
        application.onActivate { [weak self] in self?.activate() }
        application.onShutdown { [weak self] in self?.shutdown() }
        return application.run(programName: "gallery-viewer")
    }

    private func startup() {
        gtk_window_set_default_icon_name(AppVersion.applicationID)
        Style.install()
        application.addAction("quit", accelerators: ["<Primary>q"]) { [weak self] in self?.quit() }
        application.addAction("about") { [weak self] in
            guard let window = self?.window?.window else { return }
            AboutDialog.present(.init(
                programName: MainWindow.appTitle, version: AppVersion.string,
                comments: "Browse public image galleries from DeviantArt, Mastodon and Wikimedia Commons.",
                website: "https://github.com/galleryviewer/gallery-viewer", iconName: AppVersion.applicationID,
                license: GTK_LICENSE_MIT_X11, authors: ["The Gallery Viewer developers"]), parent: window)
        }
        SimpleAction.addToggle(to: application.ref, name: "show-sensitive", initial: false) { [weak self] show in
            self?.window?.setShowSensitive(show)
        }
    }

    private func activate() {
        if let window { return window.present() }
        let services = GalleryServices(client: client, loader: loader) { [sources] kind, username throws(GalleryError) in
            try sources.make(kind, username: username)
        }
        let window = MainWindow(application: application, services: services)
        self.window = window
        window.onSearch = { [recentSearches] source, username in
            recentSearches.save(RecentSearch(source: source, username: username))
        }
        window.present()

        // The remembered username only goes with its own source.
        let source = initialSource
        let username = options.username ?? (source == recent?.source ? recent?.username : nil)
        if let username, !username.isEmpty {
            window.search(source: source, username: username)
        } else {
            window.header.selectedSource = source
            window.header.usernameEntry.grabFocus()
        }
    }

    /// Ctrl+Q: stop every download and leave at once; nothing waits for the network.
    private func quit() {
        window?.gallery?.cancel()
        client.abortAll()
        application.quit()
    }

    private func shutdown() {
        window?.gallery?.cancel()
        client.abortAll()
        sources.shutDown()
    }
}
