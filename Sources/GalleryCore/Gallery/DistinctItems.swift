/// Which items of a gallery were seen already: the same image twice (by `GalleryItem.identityKeys`) is shown,
/// listed and saved once, in the window, by `--list` and by `--download` alike.
///
/// Keys are kept as 64-bit hashes: 100,000 items' URLs would weigh tens of MB as strings (a collision between
/// two different URLs is not a practical concern).
public struct DistinctItems: Sendable {
    private var seen: Set<Int> = []

    public init() {}

    /// True for an item none of whose keys was seen before, which it then marks seen; false for a duplicate.
    public mutating func insert(_ item: GalleryItem) -> Bool {
        let keys = Set(item.identityKeys.map(\.hashValue))
        guard seen.isDisjoint(with: keys) else { return false }
        seen.formUnion(keys)
        return true
    }
}
