import GalleryCore

/// Classifies every thumbnail fetch of the scroll at the moment the client starts it (see SessionObserver),
/// against the app's own notion of which rows are on screen (`ItemViewModel.isVisible`, set by the list).
@MainActor
final class ScrollAnalysis {
    private let downloads: [ItemViewModel]
    private let rowOfPath: [String: Int]
    private var started: Set<Int> = []
    /// Set once the bottom rows are painted; later fetches are background work.
    var settled = false

    private(set) var fetchesUntilSettled = 0
    private(set) var fetchesAfterSettled = 0
    /// Fetches for rows that had been on screen and left before their fetch started.
    private(set) var staleUntilSettled = 0
    private(set) var staleAfterSettled = 0
    /// Stale fetches started while a row on screen was still waiting for its own — what priorities exist to
    /// prevent. Rows that scrolled past should be overtaken by the visible ones.
    private(set) var inversions = 0
    private(set) var inversionExamples: [String] = []
    /// Rows never marked visible whose fetch started anyway.
    private(set) var neverVisible = 0
    /// Rows just ahead of the view, fetched on purpose at low priority.
    private(set) var prefetches = 0

    init(downloads: [ItemViewModel], thumbnailPaths: [String: Int]) {
        self.downloads = downloads
        rowOfPath = thumbnailPaths
        // Rows fetched before the scroll (the first screen) count as started.
        started = Set(downloads.filter { $0.state != .notStarted }.map(\.index))
    }

    func fetchQueued(path: String) {
        guard let row = rowOfPath[path] else { return }
        started.insert(row)
        let download = downloads[row]
        if settled { fetchesAfterSettled += 1 } else { fetchesUntilSettled += 1 }
        guard !download.isVisible else { return }
        if download.interest == .prefetch { return prefetches += 1 }
        guard download.attempts > 0 else {
            neverVisible += 1
            return
        }
        if settled {
            staleAfterSettled += 1
            return
        }
        staleUntilSettled += 1
        let waiting = downloads.filter { $0.isVisible && $0.state == .loading && !started.contains($0.index) }
        guard !waiting.isEmpty else { return }
        inversions += 1
        if inversionExamples.count < 3 {
            inversionExamples.append("row \(row) (off screen) started while rows \(waiting.map(\.index)) on screen waited")
        }
    }
}
