import GObjectBindings

/// How long the slideshow shows each picture: the main menu's three choices, as Eye of GNOME and gThumb offer
/// a few seconds. Remembered across launches in the state file's `[slideshow]` group (`interval=5`).
public enum SlideshowInterval: Int, Sendable, CaseIterable {
    case short = 3
    case medium = 5
    case long = 10

    /// Eye of GNOME's default.
    public static let standard = SlideshowInterval.medium

    public var seconds: Int { rawValue }

    static let group = "slideshow"
    static let key = "interval"

    /// The interval state.ini's text names; nil when it names none or one this version does not offer.
    static func parse(_ text: String) -> SlideshowInterval? {
        KeyFile(text: text)?.string(group: group, key: key).flatMap(Int.init).flatMap(SlideshowInterval.init(rawValue:))
    }

    /// Sets this interval in a key file being written.
    func write(into file: KeyFile) {
        file.set(String(rawValue), group: Self.group, key: Self.key)
    }
}
