import GObjectBindings

/// The last source and username, remembered for the next launch in
/// `$XDG_CONFIG_HOME/gallery-viewer/state.ini` (a GLib key file).
public struct RecentSearch: Equatable, Sendable {
    public var source: SourceKind
    public var username: String

    public init(source: SourceKind, username: String) {
        self.source = source
        self.username = username
    }

    static let group = "last-search"

    public static var defaultPath: String {
        FileSystem.userConfigDirectory + "/gallery-viewer/state.ini"
    }

    /// The remembered search; nil when there is none or the text is corrupt or names an unknown source —
    /// the app then starts with its defaults.
    static func parse(_ text: String) -> RecentSearch? {
        guard let file = KeyFile(text: text),
              let source = file.string(group: group, key: "source").flatMap(SourceKind.init(rawValue:)),
              let username = file.string(group: group, key: "username")
        else { return nil }
        return RecentSearch(source: source, username: username)
    }

    func write(into file: KeyFile) {
        file.set(source.rawValue, group: Self.group, key: "source")
        file.set(username, group: Self.group, key: "username")
        file.set(0, group: Self.group, key: Self.newImagesKey)
    }

    /// 1 while the window shows the New view of the followed galleries, the place a launch opens again.
    static let newImagesKey = "new-images"
}

/// The state file: the last search, the recent galleries and the view mode, saved on every change without blocking the main
/// loop: GIO writes the file on its worker threads, atomically (a temporary file renamed over the old one),
/// readable by the user only, in a directory only the user can enter (0700: it says who the user looks at).
/// Saves that come faster than the disk are coalesced: the newest wins. Every save rewrites the file as the
/// store last wrote it (as read at start, at first) with only its own group changed, so the `[cache]` setting,
/// comments and the groups of other parts of the app are kept: edit it while the app is closed.
@MainActor
public final class RecentSearchStore {
    public let path: String
    /// The file as read at start, then as last written: what every save keeps besides what it changes.
    private var contents: String?
    /// The search the file held at start.
    public let lastSearch: RecentSearch?
    /// The galleries looked at last, newest first (the username entry's dropdown and completion).
    public private(set) var recentGalleries: RecentGalleries
    /// The disk cache's size as the file set it at start (the same file: read once for both).
    public let cacheSettings: CacheSettings
    /// The view (list or grid) the file held at start.
    public let viewMode: GalleryViewMode?
    /// The slideshow's interval the file held at start.
    public let slideshowInterval: SlideshowInterval?
    private var directoryReady = false
    private let writer: CoalescingFileWriter
    /// Called after each write with its error, if any (tests).
    public var onSaved: (@MainActor (GLibError?) -> Void)? {
        get { writer.onSaved }
        set { writer.onSaved = newValue }
    }

    /// A save not on disk yet.
    public var isSaving: Bool { writer.isWriting }

    /// A file larger than this is not the app's (or is damaged): it is read as empty, and replaced at the
    /// first save.
    public static let maxFileBytes = 256 * 1024

    /// Reads the file once (a few bytes, synchronously).
    public init(path: String = RecentSearch.defaultPath) {
        self.path = path
        writer = CoalescingFileWriter(path: path)
        contents = File.smallText(atPath: path, maxBytes: Self.maxFileBytes)
        lastSearch = contents.flatMap(RecentSearch.parse)
        recentGalleries = contents.map(RecentGalleries.parse) ?? .init()
        cacheSettings = contents.map(CacheSettings.parse) ?? .init()
        viewMode = contents.flatMap(GalleryViewMode.parse)
        slideshowInterval = contents.flatMap(SlideshowInterval.parse)
        showedNewImages = contents.flatMap { KeyFile(text: $0)?.integer(group: RecentSearch.group, key: RecentSearch.newImagesKey) } == 1
    }

    /// The window showed the New view last (rather than `lastSearch`'s gallery).
    public let showedNewImages: Bool

    /// The New view is on screen: the next launch opens it (until a search is saved).
    public func saveShowingNewImages() {
        update { $0.set(1, group: RecentSearch.group, key: RecentSearch.newImagesKey) }
    }

    public func save(_ search: RecentSearch) {
        update { search.write(into: $0) }
    }

    public func save(viewMode: GalleryViewMode) {
        update { viewMode.write(into: $0) }
    }

    public func save(slideshowInterval: SlideshowInterval) {
        update { slideshowInterval.write(into: $0) }
    }

    /// `search` becomes the newest recent gallery.
    public func remember(_ search: RecentSearch) {
        let before = recentGalleries
        recentGalleries.remember(search)
        guard recentGalleries != before else { return }
        saveRecentGalleries()
    }

    /// Takes `search` off the recent galleries.
    public func forget(_ search: RecentSearch) {
        let before = recentGalleries
        recentGalleries.remove(search)
        guard recentGalleries != before else { return }
        saveRecentGalleries()
    }

    /// Clear History: the recent galleries and the search the next launch would open again.
    public func forgetAll() {
        recentGalleries.removeAll()
        update { file in
            recentGalleries.write(into: file)
            file.removeGroup(RecentSearch.group)
        }
    }

    private func saveRecentGalleries() {
        update { recentGalleries.write(into: $0) }
    }

    /// Applies `change` to the file as last written and saves the result.
    private func update(_ change: (KeyFile) -> Void) {
        let text = Self.edit(contents, change)
        contents = text
        prepareDirectory()
        writer.save(Bytes(text))
    }

    /// `base` (a key file's text, kept with its comments) with `change` applied, and the cache setting
    /// spelled out for whoever looks.
    nonisolated static func edit(_ base: String?, _ change: (KeyFile) -> Void) -> String {
        let file = base.flatMap { KeyFile(text: $0, keepComments: true) } ?? KeyFile()
        change(file)
        CacheSettings.addDefault(to: file)
        return file.text
    }

    /// Once per process: a directory call of a few microseconds, not worth a thread. An existing directory
    /// made with wider permissions by an older version is narrowed.
    private func prepareDirectory() {
        guard !directoryReady else { return }
        directoryReady = true
        FileSystem.makePrivateDirectory(FileSystem.directoryName(of: path))
    }
}
