import CGLib
import GObjectBindings

/// How the window shows a gallery: a row per item, or a grid of square tiles. Remembered across launches in
/// the state file's own `[view]` group (`mode=grid`), apart from the last search.
public enum GalleryViewMode: String, Sendable, CaseIterable {
    case list
    case grid

    static let group = "view"
    static let key = "mode"

    /// The mode state.ini's text names; nil when it names none or one this version does not know (the
    /// window then starts with the list).
    static func parse(_ text: String) -> GalleryViewMode? {
        let file = g_key_file_new()
        defer { g_key_file_free(file) }
        guard g_key_file_load_from_data(file, text, gsize(text.utf8.count), G_KEY_FILE_NONE, nil) != 0 else { return nil }
        return takeString(g_key_file_get_string(file, group, key, nil)).flatMap(GalleryViewMode.init(rawValue:))
    }

    /// Sets this mode in a key file being written.
    func write(into file: OpaquePointer?) {
        g_key_file_set_string(file, Self.group, Self.key, rawValue)
    }

    /// `base` (the file's text, comments kept) with this mode in its group.
    func serialized(over base: String?) -> String {
        let file = g_key_file_new()
        defer { g_key_file_free(file) }
        if let base {
            g_key_file_load_from_data(file, base, gsize(base.utf8.count),
                                      GKeyFileFlags(rawValue: G_KEY_FILE_KEEP_COMMENTS.rawValue), nil)
        }
        write(into: file)
        CacheSettings.addDefault(to: file)
        return takeString(g_key_file_to_data(file, nil, nil)) ?? ""
    }
}
