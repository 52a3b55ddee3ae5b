import CGLib
import GObjectBindings

/// How big the disk cache may grow: `max-size-mb` in the `[cache]` group of the state file
/// (`~/.config/gallery-viewer/state.ini`), read at start. 0 turns the disk cache off.
public struct CacheSettings: Equatable, Sendable {
    public static let defaultMegabytes = 256
    /// libsoup keeps the cache's size in 32 bits (`HTTPCache.largestMaxBytes`).
    public static let largestMegabytes = HTTPCache.largestMaxBytes / 1_048_576
    static let group = "cache"
    static let key = "max-size-mb"

    public var megabytes: Int

    public init(megabytes: Int = defaultMegabytes) {
        self.megabytes = min(max(0, megabytes), Self.largestMegabytes)
    }

    public var maxBytes: Int { megabytes * 1_048_576 }
    public var isEnabled: Bool { megabytes > 0 }

    /// The setting in state.ini's text; the default when it is missing, not a number, or negative (a size
    /// over the largest is the largest). `RecentSearchStore` reads the file once for both.
    static func parse(_ text: String) -> CacheSettings {
        let file = g_key_file_new()
        defer { g_key_file_free(file) }
        guard g_key_file_load_from_data(file, text, gsize(text.utf8.count), G_KEY_FILE_NONE, nil) != 0 else { return .init() }
        var error: UnsafeMutablePointer<GError>?
        let value = g_key_file_get_int64(file, group, key, &error)
        guard error == nil, value >= 0 else {
            g_clear_error(&error)
            return .init()
        }
        return CacheSettings(megabytes: Int(clamping: value))
    }

    /// Writes the default, with a comment, into a state file that has no setting yet, so that it can be
    /// found and changed.
    static func addDefault(to file: OpaquePointer?) {
        guard g_key_file_has_key(file, group, key, nil) == 0 else { return }
        g_key_file_set_integer(file, group, key, Int32(defaultMegabytes))
        g_key_file_set_comment(file, group, key,
                               " Disk cache size in MB (\(defaultMegabytes) by default; 0 turns it off). Read at start.", nil)
    }
}
