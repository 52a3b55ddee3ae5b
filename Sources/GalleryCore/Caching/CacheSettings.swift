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
        guard let value = KeyFile(text: text)?.integer(group: group, key: key), value >= 0 else { return .init() }
        return CacheSettings(megabytes: value)
    }

    /// Writes the default, with a comment, into a state file that has no setting yet, so that it can be
    /// found and changed.
    static func addDefault(to file: KeyFile) {
        guard !file.contains(group: group, key: key) else { return }
        file.set(defaultMegabytes, group: group, key: key)
        file.setComment(" Disk cache size in MB (\(defaultMegabytes) by default; 0 turns it off). Read at start.",
                        group: group, key: key)
    }
}
