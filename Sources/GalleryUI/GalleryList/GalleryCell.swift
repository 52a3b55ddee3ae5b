import GtkBindings
import GalleryCore

/// What the pool binds to the gallery's items: a row of the list (`GalleryRow`) or a tile of the grid
/// (`GalleryTile`). A cell shows its bound model's state and keeps none of its own.
@MainActor
protocol GalleryCell: AnyObject {
    /// The item the cell shows now; nil while it waits in the pool.
    var download: ItemViewModel? { get }
    /// What its box holds: a ListBoxRow, a FlowBoxChild.
    var cellWidget: Widget { get }
    /// The picture (the thumbnail, or a placeholder icon).
    var thumbnail: Image { get }
    func bind(_ download: ItemViewModel, position: Int, total: Int)
    func unbind()
    /// The gallery grew: "Item 12 of N" follows.
    func describePosition(total: Int)
}

/// The box the bound cells sit in, in item order: a GtkListBox (the list, one item per line) or a
/// GtkFlowBox (the grid, `columns` items per line). Cells are addressed by their position in the box.
@MainActor
protocol CellBox: AnyObject {
    var boxWidget: Widget { get }
    func insertCell(_ cell: Widget, at position: Int)
    func removeCell(_ cell: Widget)
    /// Selects exactly the cells at `positions` without moving the focus.
    func selectCells(at positions: Set<Int>)
    var selectedPositions: Set<Int> { get }
    /// As a double-click or Enter on the cell does.
    func activateCell(at position: Int)
    /// A double-click, Enter or space on a cell.
    func onCellActivated(_ handler: @escaping @MainActor (Int) -> Void)
}

extension ListBox: CellBox {
    var boxWidget: Widget { self }
    func insertCell(_ cell: Widget, at position: Int) { insert(cell, at: position) }
    func removeCell(_ cell: Widget) { remove(cell) }
    func selectCells(at positions: Set<Int>) { selectRows(at: positions) }
    func activateCell(at position: Int) { activateRow(at: position) }
    func onCellActivated(_ handler: @escaping @MainActor (Int) -> Void) { onRowActivated(handler) }
}

extension FlowBox: CellBox {
    var boxWidget: Widget { self }
    func insertCell(_ cell: Widget, at position: Int) { insert(cell, at: position) }
    func removeCell(_ cell: Widget) { remove(cell) }
    func selectCells(at positions: Set<Int>) { selectChildren(at: positions) }
    func activateCell(at position: Int) { activateChild(at: position) }
    func onCellActivated(_ handler: @escaping @MainActor (Int) -> Void) { onChildActivated(handler) }
}
