import CGtk
import GObjectBindings

/// The last source and username, remembered for the next launch in
/// `$XDG_CONFIG_HOME/gallery-viewer/state.ini` (a GLib key file: tiny, written atomically).
public struct RecentSearch: Equatable, Sendable {
    public var source: SourceKind
    public var username: String

    public init(source: SourceKind, username: String) {
        self.source = source
        self.username = username
    }

    static let group = "last-search"

    public static var defaultPath: String {
        let directory = string(g_get_user_config_dir()) ?? "."
        return directory + "/gallery-viewer/state.ini"
    }

    public static func load(from path: String = defaultPath) -> RecentSearch? {
        let file = g_key_file_new()
        defer { g_key_file_free(file) }
        guard g_key_file_load_from_file(file, path, G_KEY_FILE_NONE, nil) != 0,
              let source = takeString(g_key_file_get_string(file, group, "source", nil)).flatMap(SourceKind.init(rawValue:)),
              let username = takeString(g_key_file_get_string(file, group, "username", nil))
        else { return nil }
        return RecentSearch(source: source, username: username)
    }

    public func save(to path: String = defaultPath) throws(GLibError) {
        let file = g_key_file_new()
        defer { g_key_file_free(file) }
        g_key_file_set_string(file, Self.group, "source", source.rawValue)
        g_key_file_set_string(file, Self.group, "username", username)
        if let directory = takeString(g_path_get_dirname(path)) { g_mkdir_with_parents(directory, 0o755) }
        _ = try GLibError.check { error in g_key_file_save_to_file(file, path, error) }
    }
}
