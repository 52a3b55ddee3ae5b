/// A least-recently-used cache bounded by a total cost (bytes). O(1) lookup, insert and eviction.
/// A class: its linked nodes are shared state that a struct copy would alias.
final class LRUCache<Key: Hashable, Value> {
    private final class Node {
        let key: Key
        var value: Value
        var cost: Int
        var newer: Node?
        weak var older: Node?
        init(key: Key, value: Value, cost: Int) {
            self.key = key
            self.value = value
            self.cost = cost
        }
    }

    let capacity: Int
    private(set) var totalCost = 0
    private var nodes: [Key: Node] = [:]
    /// Least recently used end; `newest` is the other end. Strong links run oldest → newest.
    private var oldest: Node?
    private weak var newest: Node?

    init(capacity: Int) { self.capacity = capacity }

    var count: Int { nodes.count }

    /// The value, now marked most recently used.
    func value(for key: Key) -> Value? {
        guard let node = nodes[key] else { return nil }
        unlink(node)
        linkAsNewest(node)
        return node.value
    }

    /// Inserts or replaces; evicts least recently used entries beyond the capacity. A value costing more than
    /// the whole capacity is not kept.
    func insert(_ value: Value, for key: Key, cost: Int) {
        if let existing = nodes.removeValue(forKey: key) {
            unlink(existing)
            totalCost -= existing.cost
        }
        guard cost <= capacity else { return }
        let node = Node(key: key, value: value, cost: cost)
        nodes[key] = node
        linkAsNewest(node)
        totalCost += cost
        while totalCost > capacity, let victim = oldest {
            unlink(victim)
            nodes.removeValue(forKey: victim.key)
            totalCost -= victim.cost
        }
    }

    private func unlink(_ node: Node) {
        let older = node.older
        let newer = node.newer
        if let older { older.newer = newer } else { oldest = newer }
        if let newer { newer.older = older } else { newest = older }
        node.newer = nil
        node.older = nil
    }

    private func linkAsNewest(_ node: Node) {
        if let newest {
            newest.newer = node
            node.older = newest
        } else {
            oldest = node
        }
        newest = node
    }
}
