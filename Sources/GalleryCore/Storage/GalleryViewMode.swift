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
        KeyFile(text: text)?.string(group: group, key: key).flatMap(GalleryViewMode.init(rawValue:))
    }

    /// Sets this mode in a key file being written.
    func write(into file: KeyFile) {
        file.set(rawValue, group: Self.group, key: Self.key)
    }
}
