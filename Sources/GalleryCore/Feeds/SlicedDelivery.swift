import GObjectBindings

/// Hands items over at most `perTurn()` per main-loop turn — each becomes a row, and a reply of a thousand
/// items (or a New view of ten thousand) must not become one long freeze.
@MainActor
final class SlicedDelivery {
    private let perTurn: @MainActor () -> Int
    private var nextSlice: MainLoopSource?

    init(perTurn: @escaping @MainActor () -> Int) {
        self.perTurn = perTurn
    }

    /// Delivers `items` slice by slice, the first at once; `beforeLast` runs just before the last slice is
    /// handed over (also when there are no items at all).
    func hand<Item>(_ items: ArraySlice<Item>, to deliver: @escaping @MainActor ([Item]) -> Void,
                    beforeLast: @escaping @MainActor () -> Void) {
        let count = max(1, perTurn())
        guard items.count > count else {
            beforeLast()
            if !items.isEmpty { deliver(Array(items)) }
            return
        }
        deliver(Array(items.prefix(count)))
        // At idle priority: GTK lays out and paints the rows just made before the next slice comes.
        nextSlice = MainLoopSource.idle { [weak self] in
            guard let self else { return }
            nextSlice = nil
            hand(items.dropFirst(count), to: deliver, beforeLast: beforeLast)
        }
    }

    /// The slices not handed over yet are not.
    func cancel() {
        nextSlice?.cancel()
        nextSlice = nil
    }
}
