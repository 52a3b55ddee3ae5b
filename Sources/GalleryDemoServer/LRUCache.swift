import Collections

/// A least-recently-used cache bounded by a total cost (bytes), oldest entries first in the ordered
/// dictionary. The demo server keeps at most a few hundred files, so the O(n) move-to-end is no concern.
final class LRUCache<Key: Hashable, Value> {
    private var entries: OrderedDictionary<Key, (value: Value, cost: Int)> = [:]
    let capacity: Int
    private(set) var totalCost = 0

    init(capacity: Int) { self.capacity = capacity }

    var count: Int { entries.count }

    /// The value, now marked most recently used.
    func value(for key: Key) -> Value? {
        guard let entry = entries.removeValue(forKey: key) else { return nil }
        entries[key] = entry
        return entry.value
    }

    /// Inserts or replaces; evicts least recently used entries beyond the capacity. A value costing more than
    /// the whole capacity is not kept.
    func insert(_ value: Value, for key: Key, cost: Int) {
        if let existing = entries.removeValue(forKey: key) { totalCost -= existing.cost }
        guard cost <= capacity else { return }
        entries[key] = (value, cost)
        totalCost += cost
        while totalCost > capacity, !entries.isEmpty {
            totalCost -= entries.removeFirst().value.cost
        }
    }
}
