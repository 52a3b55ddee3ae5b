import GtkBindings
import GalleryCore

/// The recycled cells of the gallery view: a handful of rows (the list) or tiles (the grid) bound to a
/// contiguous range of the gallery's items, in order, as the children of their box — what GTK 4's
/// GtkListView and GtkGridView do with their factory's bind and unbind. The box never holds more cells than
/// the screen shows plus a margin, however long the gallery. The view keeps the range to whole lines, so
/// a flow box lays each line out as the gallery's.
///
/// Rebinding is stable: when the range moves by a few items, the cells of items still in range keep their
/// widget (and so their focus and their painted thumbnail); only the cells that left are unbound, moved to
/// the other end and bound to the items that entered. A jump — fewer than half the cells staying —
/// rebinds every cell in place.
@MainActor
final class CellPool {
    let box: any CellBox
    /// Bound cells in box order: `cells[k]` shows item `range.lowerBound + k`.
    private(set) var cells: [any GalleryCell] = []
    private(set) var range: Range<Int> = 0..<0
    /// Cells waiting to be bound, outside the box.
    private var spare: [any GalleryCell] = []
    private let makeCell: @MainActor () -> any GalleryCell

    init(box: any CellBox, makeCell: @escaping @MainActor () -> any GalleryCell) {
        self.box = box
        self.makeCell = makeCell
    }

    /// Every cell this pool made, bound or spare: what the view costs in widgets.
    var madeCount: Int { cells.count + spare.count }

    func cell(forIndex index: Int) -> (any GalleryCell)? {
        range.contains(index) ? cells[index - range.lowerBound] : nil
    }

    /// The item shown by the box's cell at `position`.
    func index(atPosition position: Int) -> Int? {
        (0..<cells.count).contains(position) ? range.lowerBound + position : nil
    }

    func position(ofIndex index: Int) -> Int? {
        range.contains(index) ? index - range.lowerBound : nil
    }

    /// Binds the cells to `newRange` of `downloads` (whose count goes into the cells' accessible
    /// descriptions). Work is proportional to the cells that change, never to the gallery.
    func bind(_ newRange: Range<Int>, of downloads: [ImageDownload]) {
        guard newRange != range else { return }
        let overlap = newRange.clamped(to: range)
        // Sliding takes each cell that left out of its box and puts it back at the other end, which unrealizes
        // and realizes it again (its windows made anew, its style computed again): in the grid, holding End,
        // that was a fifth of the main thread's time. Once fewer than half the cells stay, rebinding every
        // cell where it is costs less.
        if overlap.isEmpty || overlap.count * 2 < newRange.count {
            rebindInPlace(newRange, downloads)
        } else {
            slide(to: newRange, keeping: overlap, downloads)
        }
        range = newRange
    }

    /// Unbinds every cell (a new gallery, or none, or the other view).
    func clear(_ downloads: [ImageDownload]) {
        bind(0..<0, of: downloads)
    }

    /// The gallery grew: the cells' "Item 12 of N" descriptions follow.
    func totalChanged(_ total: Int) {
        for cell in cells { cell.describePosition(total: total) }
    }

    private func rebindInPlace(_ newRange: Range<Int>, _ downloads: [ImageDownload]) {
        for cell in cells { cell.unbind() }
        while cells.count > newRange.count { retire(cells.removeLast()) }
        while cells.count < newRange.count {
            let cell = takeCell()
            box.insertCell(cell.cellWidget, at: cells.count)
            cells.append(cell)
        }
        for (offset, cell) in cells.enumerated() {
            cell.bind(downloads[newRange.lowerBound + offset], total: downloads.count)
        }
    }

    private func slide(to newRange: Range<Int>, keeping overlap: Range<Int>, _ downloads: [ImageDownload]) {
        let keptFrom = overlap.lowerBound - range.lowerBound
        let keptTo = overlap.upperBound - range.lowerBound
        for cell in cells[..<keptFrom] + cells[keptTo...] {
            cell.unbind()
            retire(cell)
        }
        let kept = cells[keptFrom..<keptTo]
        var above: [any GalleryCell] = []
        for (position, index) in (newRange.lowerBound..<overlap.lowerBound).enumerated() {
            let cell = takeCell()
            box.insertCell(cell.cellWidget, at: position)
            cell.bind(downloads[index], total: downloads.count)
            above.append(cell)
        }
        var below: [any GalleryCell] = []
        for index in overlap.upperBound..<newRange.upperBound {
            let cell = takeCell()
            box.insertCell(cell.cellWidget, at: -1)
            cell.bind(downloads[index], total: downloads.count)
            below.append(cell)
        }
        cells = above + kept + below
    }

    private func retire(_ cell: any GalleryCell) {
        box.removeCell(cell.cellWidget)
        spare.append(cell)
    }

    private func takeCell() -> any GalleryCell {
        if let cell = spare.popLast() { return cell }
        let cell = makeCell()
        cell.cellWidget.show()
        return cell
    }
}
