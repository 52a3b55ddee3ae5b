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

    /// The key file's text: `base` (the file as it was, with the settings and comments the user keeps
    /// there) with this search in its group, and the cache setting spelled out for whoever looks.
    func serialized(over base: String? = nil) -> String {
        let file = base.flatMap { KeyFile(text: $0, keepComments: true) } ?? KeyFile()
        file.set(source.rawValue, group: Self.group, key: "source")
        file.set(username, group: Self.group, key: "username")
        CacheSettings.addDefault(to: file)
        return file.text
    }
}

/// Saves the last search on every search (and the view mode when it changes) without blocking the main loop: GIO writes the file on its worker
/// threads, atomically (a temporary file renamed over the old one), readable by the user only, in a directory
/// only the user can enter (0700: it says who the user looks at). Saves that come faster than the disk
/// are coalesced: the newest wins. The rest of the file (the `[cache]` setting, comments) is kept as it was
/// when the store was made: edit it while the app is closed.
@MainActor
public final class RecentSearchStore {
    public let path: String
    /// The file as read at start: what every save keeps besides the search.
    private let base: String?
    /// The search the file held at start.
    public let lastSearch: RecentSearch?
    /// The disk cache's size as the file set it at start (the same file: read once for both).
    public let cacheSettings: CacheSettings
    /// The view (list or grid) the file held at start.
    public let viewMode: GalleryViewMode?
    /// What this process saved: every write puts both over `base`, so that neither undoes the other.
    private var savedSearch: RecentSearch?
    private var savedViewMode: GalleryViewMode?
    private var directoryReady = false
    private let writer: CoalescingFileWriter
    /// Called after each write with its error, if any (tests).
    public var onSaved: (@MainActor (GLibError?) -> Void)? {
        get { writer.onSaved }
        set { writer.onSaved = newValue }
    }

    /// Reads the file once (a few bytes, synchronously).
    public init(path: String = RecentSearch.defaultPath) {
        self.path = path
        writer = CoalescingFileWriter(path: path)
        base = File.smallText(atPath: path)
        lastSearch = base.flatMap(RecentSearch.parse)
        cacheSettings = base.map(CacheSettings.parse) ?? .init()
        viewMode = base.flatMap(GalleryViewMode.parse)
    }

    public func save(_ search: RecentSearch) {
        savedSearch = search
        write()
    }

    public func save(viewMode: GalleryViewMode) {
        savedViewMode = viewMode
        write()
    }

    private func write() {
        prepareDirectory()
        var text = base
        if let savedSearch { text = savedSearch.serialized(over: text) }
        if let savedViewMode { text = savedViewMode.serialized(over: text) }
        writer.save(Bytes(text ?? ""))
    }

    /// Once per process: a directory call of a few microseconds, not worth a thread. An existing directory
    /// made with wider permissions by an older version is narrowed.
    private func prepareDirectory() {
        guard !directoryReady else { return }
        directoryReady = true
        FileSystem.makePrivateDirectory(FileSystem.directoryName(of: path))
    }
}
