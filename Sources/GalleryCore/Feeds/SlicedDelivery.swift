import GObjectBindings

/// Hands items over at most `perTurn()` per main-loop turn — each becomes a row, and a reply of a thousand
/// items (or a New view of ten thousand) must not become one long freeze. Each slice's items are let go as it
/// is handed over, so that the last turn does not free them all at once either.
@MainActor
final class SlicedDelivery {
    private let perTurn: @MainActor () -> Int
    private var nextSlice: MainLoopSource?

    init(perTurn: @escaping @MainActor () -> Int) {
        self.perTurn = perTurn
    }

    /// Delivers `items` slice by slice, the first at once; `beforeLast` runs just before the last slice is
    /// handed over (also when there are no items at all).
    func hand<Item>(_ items: [Item], to deliver: @escaping @MainActor ([Item]) -> Void,
                    beforeLast: @escaping @MainActor () -> Void) {
        let count = max(1, perTurn())
        guard items.count > count else {
            beforeLast()
            if !items.isEmpty { deliver(items) }
            return
        }
        deliver(Array(items.prefix(count)))
        handRest(PendingItems(items, handedOver: count), to: deliver, beforeLast: beforeLast)
    }

    private func handRest<Item>(_ pending: PendingItems<Item>, to deliver: @escaping @MainActor ([Item]) -> Void,
                                beforeLast: @escaping @MainActor () -> Void) {
        // At idle priority: GTK lays out and paints the rows just made before the next slice comes.
        nextSlice = MainLoopSource.idle { [weak self] in
            guard let self else { return }
            nextSlice = nil
            let slice = pending.take(max(1, perTurn()))
            if pending.isEmpty { beforeLast() }
            deliver(slice)
            if !pending.isEmpty { handRest(pending, to: deliver, beforeLast: beforeLast) }
        }
    }

    /// The slices not handed over yet are not.
    func cancel() {
        nextSlice?.cancel()
        nextSlice = nil
    }
}

/// The items still to hand over, newest last, so that a slice is taken off the end and nothing else moves.
/// Reversed in place at the first `take`, a turn after the first slice: the caller has let go of the array by
/// then, so it is not copied (were it still shared, it would be, once).
@MainActor
private final class PendingItems<Item> {
    private var items: [Item]
    /// Taken from the front before the items were reversed.
    private var handedOver: Int
    private var isReversed = false

    init(_ items: [Item], handedOver: Int) {
        self.items = items
        self.handedOver = handedOver
    }

    var isEmpty: Bool { items.count == (isReversed ? 0 : handedOver) }

    func take(_ count: Int) -> [Item] {
        if !isReversed {
            items.reverse()
            items.removeLast(handedOver)
            isReversed = true
        }
        var slice: [Item] = []
        slice.reserveCapacity(min(count, items.count))
        while slice.count < count, let item = items.popLast() { slice.append(item) }
        return slice
    }
}
