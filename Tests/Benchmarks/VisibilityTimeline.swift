/// When each row of the list was in the viewport, from the benchmark's side of the main loop.
///
/// The list changes its visible range inside an idle callback, somewhere within one main-loop iteration;
/// the benchmark sees the new range only after that iteration. So each change is known to lie between the
/// end of the previous iteration and the end of this one, and both bounds are kept: questions are answered
/// conservatively ("certainly visible then", "certainly gone by then").
struct VisibilityTimeline {
    struct Interval {
        /// Entered the viewport no earlier than `enteredAfter`, and no later than `enteredBy`.
        var enteredAfter: Int
        var enteredBy: Int
        /// Left no earlier than `leftAfter`, no later than `leftBy` (nil: still visible).
        var leftAfter: Int?
        var leftBy: Int?
    }

    private(set) var intervals: [Int: [Interval]] = [:]
    private var current: Range<Int> = 0..<0
    private var previousObservation: Int = 0

    /// Records the range seen at `time`, the end of an iteration; call after every iteration.
    mutating func observe(_ range: Range<Int>, at time: Int) {
        defer { previousObservation = time }
        guard range != current else { return }
        for index in current where !range.contains(index) {
            intervals[index]![intervals[index]!.count - 1].leftAfter = previousObservation
            intervals[index]![intervals[index]!.count - 1].leftBy = time
        }
        for index in range where !current.contains(index) {
            intervals[index, default: []].append(Interval(enteredAfter: previousObservation, enteredBy: time))
        }
        current = range
    }

    var everShown: Set<Int> { Set(intervals.keys) }

    /// Certainly in the viewport at `time`.
    func certainlyVisible(_ index: Int, at time: Int) -> Bool {
        intervals[index]?.contains { $0.enteredBy <= time && ($0.leftAfter.map { time < $0 } ?? true) } ?? false
    }

    /// Possibly in the viewport at `time` (within the bounds of what was seen).
    func possiblyVisible(_ index: Int, at time: Int) -> Bool {
        intervals[index]?.contains { $0.enteredAfter <= time && ($0.leftBy.map { time <= $0 } ?? true) } ?? false
    }

    /// Was on screen before `time` and certainly no longer is.
    func certainlyScrolledPast(_ index: Int, at time: Int) -> Bool {
        guard let first = intervals[index]?.first, first.enteredBy <= time else { return false }
        return !possiblyVisible(index, at: time)
    }

    /// The rows certainly in the viewport at `time`.
    func rowsCertainlyVisible(at time: Int) -> [Int] {
        intervals.keys.filter { certainlyVisible($0, at: time) }
    }
}
