import GalleryCore

/// The items a find matched, in the gallery's order, as the list or grid shows them instead of the whole
/// gallery: their positions in the view are their indices here, not `ItemViewModel.index`.
@MainActor
struct FoundItems {
    let items: [ItemViewModel]

    /// Where `download` is among `items` (whose gallery indices ascend), nil when it is not.
    func position(of download: ItemViewModel) -> Int? {
        var low = 0, high = items.count
        while low < high {
            let middle = (low + high) / 2
            if items[middle].index < download.index { low = middle + 1 } else { high = middle }
        }
        return low < items.count && items[low] === download ? low : nil
    }

    /// `other` begins with these items: a page that arrived during the same find only adds to them.
    func isBeginning(of other: [ItemViewModel]) -> Bool {
        other.count >= items.count && zip(items, other).allSatisfy { $0 === $1 }
    }
}
