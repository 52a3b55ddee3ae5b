import GObjectBindings

/// Find in the gallery (Ctrl+F): which of the items loaded so far hold every word typed in their title (as a
/// row shows it) or description, folded as GNOME searches (`SearchText`: any case, with or without accents).
///
/// A gallery can hold 100,000 items, so nothing of it runs on the main loop but taking the items' packed
/// bytes: each find runs on a GTask worker, which first folds the items that arrived since the last find
/// (kept for the next ones), then tests them all. One find runs at a time; what is typed meanwhile waits, and
/// only the newest of those runs and completes, so fast typing never queues stale work.
@MainActor
public final class GalleryTextSearch {
    /// What is searched for at most: a pasted page of text is cut, not folded whole.
    public static let maxQueryCharacters = 200
    /// Of each item's title and description, what is searched and kept folded: the folded texts live as long
    /// as the find, so with a gallery of 100,000 they cost up to a few hundred bytes an item, not a description's
    /// whole length (a Commons description can run long).
    nonisolated public static let maxItemTextBytes = 600

    public struct Result: Sendable, Equatable {
        /// The matching items' indices in the gallery, ascending.
        public var indices: [Int]
        /// How many items were searched (those loaded when the find ran).
        public var searched: Int
    }

    private let gallery: Gallery
    /// The folded text of the gallery's first `folded.count` items, in order.
    private var folded: [String] = []
    private var isRunning = false
    private var pending: (query: String, completion: @MainActor (Result) -> Void)?

    public init(gallery: Gallery) {
        self.gallery = gallery
    }

    /// Finds `query` among the items loaded now and calls `completion` on the main loop, unless another find
    /// was asked for before this one ran or finished: then only the newest completes.
    public func find(_ query: String, completion: @escaping @MainActor (Result) -> Void) {
        pending = (query, completion)
        runPending()
    }

    private func runPending() {
        guard !isRunning, let (query, completion) = pending else { return }
        pending = nil
        isRunning = true
        let arrived = gallery.downloads[min(folded.count, gallery.downloads.count)...].map(\.packedItem)
        let known = folded
        let words = SearchText.queryWords(String(query.prefix(Self.maxQueryCharacters)))
        WorkerTask.run({
            var all = known
            all.reserveCapacity(known.count + arrived.count)
            for packed in arrived { all.append(Self.searchableText(packed.item)) }
            let indices = words.isEmpty ? Array(all.indices) : all.indices.filter { index in
                words.allSatisfy { all[index].contains($0) }
            }
            return (all, Result(indices: indices, searched: all.count))
        }, completion: { [weak self] (output: ([String], Result)) in
            guard let self else { return }
            let (all, result) = output
            self.folded = all
            self.isRunning = false
            if self.pending == nil { completion(result) }
            self.runPending()
        })
    }

    /// The row's title and the description, folded, cut at a character boundary.
    nonisolated static func searchableText(_ item: GalleryItem) -> String {
        let text = item.displayTitle + "\n" + (item.altText ?? "")
        return SearchText.folded(text.prefix(utf8Bytes: maxItemTextBytes))
    }
}
