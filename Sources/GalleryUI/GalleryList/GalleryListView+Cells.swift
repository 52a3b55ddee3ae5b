import GObjectBindings
import GtkBindings
import GalleryCore

/// The cells bound now, found by item or by point, and their context menu: right-click on a cell, the Menu
/// key or Shift+F10 on the selected one selects the cell, and the window opens its context menu for the item
/// the cell shows now. Reads the pool and the widgets only: no state of its own.
extension GalleryListView {
    /// The cell showing `download` now, if it is bound (on screen or next to it).
    func cell(for download: ItemViewModel) -> (any GalleryCell)? {
        pool.cell(forIndex: download.index).flatMap { $0.download === download ? $0 : nil }
    }

    /// The list row showing `download` now (nil in the grid).
    public func row(for download: ItemViewModel) -> GalleryRow? { cell(for: download) as? GalleryRow }
    /// The grid tile showing `download` now (nil in the list).
    public func tile(for download: ItemViewModel) -> GalleryTile? { cell(for: download) as? GalleryTile }

    /// The cell at (`x`, `y`) pixels in the viewport, and so the item under the pointer (for a context menu).
    func cell(atViewportX x: Int, y: Int) -> (any GalleryCell)? {
        let box = cellBox.boxWidget
        guard let origin = box.translate(x: 0, y: 0, to: viewport) else { return nil }
        let position: Int? = mode == .grid
            ? flowBox.childIndex(atX: x - origin.x, y: y - origin.y)
            : listBox.rowIndex(atY: y - origin.y)
        return position.flatMap { pool.index(atPosition: $0) }.flatMap { pool.cell(forIndex: $0) }
    }

    /// The cells bound to items now, in order (what a test or a context menu may look at).
    var boundCells: [any GalleryCell] { pool.cells }
    public var boundRows: [GalleryRow] { pool.cells.compactMap { $0 as? GalleryRow } }
    public var boundTiles: [GalleryTile] { pool.cells.compactMap { $0 as? GalleryTile } }

    func connectContextMenu() {
        for box in [listBox.boxWidget, flowBox.boxWidget] {
            box.onButtonPress { [weak self] press in
                guard let self, press.triggersContextMenu,
                      let point = self.viewport.point(fromRootX: press.rootX, y: press.rootY),
                      let cell = self.cell(atViewportX: Int(point.x), y: Int(point.y)),
                      let download = cell.download else { return false }
                self.select(download.index, focus: true)
                self.onContextMenu?(download, press)
                return true
            }
        }
    }

    /// The Menu key or Shift+F10 (from the view's key handler): the menu of the selected item, below its cell.
    func openContextMenuForSelection() -> Bool {
        guard let download = selectedDownload, cell(for: download) != nil else { return false }
        onContextMenu?(download, nil)
        return true
    }

    /// The widget a context menu opened by key hangs from: the selected item's cell.
    public func menuAnchor(for download: ItemViewModel) -> Widget? { cell(for: download)?.cellWidget }
}
