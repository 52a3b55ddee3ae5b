import GObjectBindings
import GalleryCore

/// Decides which thumbnails the gallery view asks for, and when, so that loading follows the eye:
/// - items at rest on screen first (`.visible` priority);
/// - then a few lines ahead in the direction of travel, at low priority (`.prefetch`);
/// - nothing for items the view flies past: when it moved a whole screen or more since items were last
///   asked for (a fling, a scrollbar drag, End), every request still waiting gives its place up, and the
///   items on screen are asked for once the view has stayed within a screen of one place for
///   `restMilliseconds`.
///
/// A scroll that keeps some items in view (wheel clicks, arrow keys, Page Down, a gentle swipe) asks for
/// the items entering at once, and lets the items that left give their waiting places up. It works on
/// ranges of items, whatever the view's layout: the list's lines hold one item, the grid's `columns`.
@MainActor
final class ThumbnailDemand {
    static let restMilliseconds: UInt32 = 50
    /// Lines ahead of the view that are loaded before they are needed.
    static let prefetchRows = 3
    /// Items ahead of the view that are loaded before they are needed: `prefetchRows` lines of the view.
    var aheadCount = ThumbnailDemand.prefetchRows

    private let downloadAt: @MainActor (Int) -> ItemViewModel?
    private var wanted: [Int: ItemViewModel.Interest] = [:]
    /// Where the view was when items were last asked for; nil while flying or off screen.
    private var askedAt: Double?
    /// Where the view was when it last moved a screen while flying; nil when not flying.
    private var flyingFrom: Double?
    private var direction = 1
    private var restTimer: MainLoopSource?

    init(downloadAt: @escaping @MainActor (Int) -> ItemViewModel?) {
        self.downloadAt = downloadAt
    }

    /// The view now shows `visible` (empty when not on screen) of `count` items, its top at `value` pixels.
    /// `current` tells the same when the rest timer fires.
    func viewChanged(visible: Range<Int>, count: Int, value: Double, pageSize: Double,
                     current: @escaping @MainActor () -> (visible: Range<Int>, count: Int, value: Double)) {
        let screen = max(1, pageSize)
        if let flyingFrom {
            // Still flying while it keeps covering a screen; once it stays within one for `restMilliseconds`,
            // it is at rest.
            if abs(value - flyingFrom) >= screen { fly(from: flyingFrom, to: value, current) }
        } else if let askedAt, abs(value - askedAt) >= screen {
            setWanted([:])
            fly(from: askedAt, to: value, current)
        } else {
            ask(visible: visible, count: count, value: value)
        }
    }

    /// Forgets every item (a new gallery, or none, or the other view).
    func reset() {
        restTimer?.cancel()
        restTimer = nil
        setWanted([:])
        askedAt = nil
        flyingFrom = nil
        direction = 1
    }

    private func fly(from start: Double, to value: Double,
                     _ current: @escaping @MainActor () -> (visible: Range<Int>, count: Int, value: Double)) {
        direction = value >= start ? 1 : -1
        askedAt = nil
        flyingFrom = value
        restTimer?.cancel()
        restTimer = MainLoopSource.after(milliseconds: Self.restMilliseconds) { [weak self] in
            guard let self else { return }
            self.restTimer = nil
            self.flyingFrom = nil
            let now = current()
            self.ask(visible: now.visible, count: now.count, value: now.value)
        }
    }

    private func ask(visible: Range<Int>, count: Int, value: Double) {
        if let askedAt, value != askedAt { direction = value > askedAt ? 1 : -1 }
        askedAt = visible.isEmpty ? nil : value
        var next: [Int: ItemViewModel.Interest] = [:]
        guard !visible.isEmpty else { return setWanted(next) }
        let ahead = direction > 0
            ? visible.upperBound..<min(count, visible.upperBound + aheadCount)
            : max(0, visible.lowerBound - aheadCount)..<visible.lowerBound
        for index in ahead { next[index] = .prefetch }
        for index in visible { next[index] = .visible }
        setWanted(next)
    }

    private func setWanted(_ next: [Int: ItemViewModel.Interest]) {
        // Items given up first, so that their waiting places go before new ones are taken.
        for (index, _) in wanted where next[index] == nil { downloadAt(index)?.setInterest(.none) }
        // Visible items before prefetched ones, in order, so the scheduler sees the screen first.
        for (index, interest) in next.sorted(by: { ($0.value.rawValue, -$0.key) > ($1.value.rawValue, -$1.key) }) {
            downloadAt(index)?.setInterest(interest)
        }
        wanted = next
    }
}
