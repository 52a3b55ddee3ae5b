/// Which items of a gallery were seen already: the same image twice (by `GalleryItem.identityKeys`) is shown,
/// listed and saved once, in the window, by `--list` and by `--download` alike.
///
/// Keys are kept as 64-bit hashes: 100,000 items' URLs would weigh tens of MB as strings (a collision between
/// two different URLs is not a practical concern). They are spread over many small sets by their low bits:
/// a set grows by rehashing every member at once, which for one set of a 100,000-item gallery's keys was a
/// 25 ms stall of the main loop as a page arrived (end100k bench); a shard's growth moves 1/64th of that.
public struct DistinctItems: Sendable {
    private static let shardCount = 64
    private var shards = [Set<Int>](repeating: [], count: shardCount)

    public init() {}

    /// True for an item none of whose keys was seen before, which it then marks seen; false for a duplicate.
    public mutating func insert(_ item: GalleryItem) -> Bool {
        let keys = item.identityKeys.map(\.hashValue)
        guard !keys.contains(where: { shards[Self.shard(of: $0)].contains($0) }) else { return false }
        for key in keys { shards[Self.shard(of: key)].insert(key) }
        return true
    }

    private static func shard(of key: Int) -> Int { Int(UInt(bitPattern: key) % UInt(shardCount)) }
}
