import GtkBindings
import GalleryCore

/// The recycled cells of the gallery view: a handful of rows (the list) or tiles (the grid) bound to a
/// contiguous range of the gallery's items, in order, as the children of their box — what GTK 4's
/// GtkListView and GtkGridView do with their factory's bind and unbind. The box never holds more cells than
/// the screen shows plus a margin, however long the gallery. The view keeps the range to whole lines, so
/// a flow box lays each line out as the gallery's.
///
/// A pool that slides (the list) is stable: when the range moves by a few items, the cells of items still in
/// range keep their widget (and their painted thumbnail); only the cells that left are unbound, moved to the
/// other end and bound to the items that entered. A jump — fewer than half the cells staying — rebinds every
/// cell in place. A pool that does not slide (the grid) always rebinds in place: a cell taken out of its box
/// and put back is restyled whole (every CSS node under it matched against the theme again) and realized
/// again, and while End was held in the grid that was the largest part of the longest frames; rebinding a
/// tile in place is cheaper, now that its title is a `TextLine` (new text repaints, never remeasures). For
/// the same reason the grid's pool never takes a cell out when it needs fewer (a new search, a shorter
/// gallery): it hides the cell where it is, after the bound ones, and shows it again when it needs more.
///
/// New cell widgets come a few per frame (`newCellsPerFrame`): a cell's first frame — its widgets made,
/// styled, measured, realized and painted — is a few milliseconds of main-loop time, so a window showing a
/// gallery for the first time (or grown taller, or switched to the other view) fills over a few frames instead
/// of freezing for one long one (a screenful at once was the longest stretch of the `thumbnails` benchmark).
/// Recycled cells are cheap and come all at once — except parked ones: a tile hidden since the last, longer
/// gallery is mapped, laid out and painted anew when it comes back, so they come `revivedCellsPerFrame` at a
/// time (the grid: a line). A new search with 100,000 tiles loaded showed the new gallery's screenful in one
/// frame, the longest of that benchmark.
@MainActor
final class CellPool {
    let box: any CellBox
    /// Bound cells in box order: `cells[k]` shows item `range.lowerBound + k`.
    private(set) var cells: [any GalleryCell] = []
    private(set) var range: Range<Int> = 0..<0
    /// Cells waiting to be bound, outside the box.
    private var spare: [any GalleryCell] = []
    /// Cells waiting to be bound, hidden in the box right after the bound ones, in box order (a pool that
    /// does not slide).
    private var parked: [any GalleryCell] = []
    private let makeCell: @MainActor () -> any GalleryCell
    /// New widgets one frame may make.
    let newCellsPerFrame: Int
    private var newCellsLeft: Int
    /// Parked cells one frame may show again.
    var revivedCellsPerFrame = Int.max {
        didSet { revivedCellsLeft = min(revivedCellsLeft, revivedCellsPerFrame) }
    }
    private var revivedCellsLeft = Int.max
    private var budgetFrame: Int?

    /// False: every move rebinds the cells where they are, none leaves the box.
    let slides: Bool

    init(box: any CellBox, newCellsPerFrame: Int, slides: Bool = true,
         makeCell: @escaping @MainActor () -> any GalleryCell) {
        self.box = box
        self.slides = slides
        self.newCellsPerFrame = newCellsPerFrame
        newCellsLeft = newCellsPerFrame
        self.makeCell = makeCell
    }

    /// A pass starts during (or after) frame number `frame`: a frame not seen before may make
    /// `newCellsPerFrame` cells and show `revivedCellsPerFrame` parked ones again, and every pass of one
    /// frame shares them. Before the box has a frame clock (nil) nothing is painted, and the passes share the
    /// first frame's cells. `makesAllWanted` lifts the limit on new cells: a launch's saved first screen,
    /// whose thumbnails were kept, shows whole at once (`GalleryListView.makesNextScreenAtOnce`).
    func startPass(frame: Int?, makesAllWanted: Bool = false) {
        guard frame != budgetFrame || makesAllWanted else { return }
        budgetFrame = frame
        newCellsLeft = makesAllWanted ? Int.max / 2 : newCellsPerFrame
        revivedCellsLeft = revivedCellsPerFrame
    }

    /// Every cell this pool made, bound or spare: what the view costs in widgets.
    var madeCount: Int { cells.count + spare.count + parked.count }

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

    /// Binds the cells to `wanted` of `downloads` (whose count goes into the cells' accessible descriptions),
    /// or to its start when that takes more new or parked widgets than this frame has left: `range` then
    /// falls short of `wanted` at its end, and the caller passes again in the next frame. Work is proportional
    /// to the cells that change, never to the gallery.
    func bind(_ wanted: Range<Int>, of downloads: [ItemViewModel]) {
        total = downloads.count
        // Parked cells come back before any new one is made.
        let affordable = parked.count > revivedCellsLeft
            ? cells.count + revivedCellsLeft : madeCount + newCellsLeft
        let newRange = wanted.lowerBound..<min(wanted.upperBound, wanted.lowerBound + affordable)
        guard newRange != range else { return }
        let overlap = newRange.clamped(to: range)
        // Sliding takes each cell that left out of its box and puts it back at the other end, which unrealizes
        // and realizes it again (its windows made anew, its style computed again). Once fewer than half the
        // cells stay, rebinding every cell where it is costs less.
        if !slides || overlap.isEmpty || overlap.count * 2 < newRange.count {
            rebindInPlace(newRange, downloads)
        } else {
            slide(to: newRange, keeping: overlap, downloads)
        }
        range = newRange
    }

    /// Unbinds every cell (a new gallery, or none, or the other view).
    func clear(_ downloads: [ItemViewModel]) {
        bind(0..<0, of: downloads)
    }

    /// The items shown, for the cells' "Item 12 of N".
    private var total = 0

    /// The gallery grew: the cells' "Item 12 of N" descriptions follow.
    func totalChanged(_ total: Int) {
        self.total = total
        for cell in cells { cell.describePosition(total: total) }
    }

    private func rebindInPlace(_ newRange: Range<Int>, _ downloads: [ItemViewModel]) {
        for cell in cells { cell.unbind() }
        while cells.count > newRange.count { retire(cells.removeLast()) }
        while cells.count < newRange.count {
            if !parked.isEmpty {
                let cell = parked.removeFirst()
                revivedCellsLeft -= 1
                cell.cellWidget.show()
                cells.append(cell)
                continue
            }
            let cell = takeCell()
            box.insertCell(cell.cellWidget, at: cells.count)
            cells.append(cell)
        }
        for (offset, cell) in cells.enumerated() {
            cell.bind(downloads[newRange.lowerBound + offset], position: newRange.lowerBound + offset, total: total)
        }
    }

    private func slide(to newRange: Range<Int>, keeping overlap: Range<Int>, _ downloads: [ItemViewModel]) {
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
            cell.bind(downloads[index], position: index, total: total)
            above.append(cell)
        }
        var below: [any GalleryCell] = []
        for index in overlap.upperBound..<newRange.upperBound {
            let cell = takeCell()
            box.insertCell(cell.cellWidget, at: -1)
            cell.bind(downloads[index], position: index, total: total)
            below.append(cell)
        }
        cells = above + kept + below
    }

    /// Only the last bound cell may be retired while the pool does not slide: it parks right after the
    /// cells still bound, so their positions in the box stay their offsets in `cells`.
    private func retire(_ cell: any GalleryCell) {
        if slides {
            box.removeCell(cell.cellWidget)
            spare.append(cell)
        } else {
            cell.cellWidget.hide()
            parked.insert(cell, at: 0)
        }
    }

    private func takeCell() -> any GalleryCell {
        if let cell = spare.popLast() { return cell }
        newCellsLeft -= 1
        let cell = makeCell()
        cell.cellWidget.show()
        return cell
    }
}
