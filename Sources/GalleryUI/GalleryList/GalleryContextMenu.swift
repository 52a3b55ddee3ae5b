import GObjectBindings
import GtkBindings
import GalleryCore

/// The cells' context menu: a right-click on a cell, the Menu key or Shift+F10 on the selected one selects
/// the cell's item, and `onOpen` opens the menu for the item the cell shows now (the pool rebinds cells as
/// the view moves, so the item is read from the cell at the moment of the click).
@MainActor
final class GalleryContextMenu {
    /// The item whose menu was asked for, and the click (nil: the Menu key or Shift+F10).
    var onOpen: (@MainActor (ItemViewModel, ButtonPress?) -> Void)?
    private unowned let view: GalleryListView

    init(view: GalleryListView) {
        self.view = view
    }

    /// Follows right-clicks (and the platform's other menu clicks) in the list's and the grid's box.
    func connect(_ boxes: [any CellBox]) {
        for box in boxes {
            box.boxWidget.onButtonPress { [weak self] press in
                guard let self, press.triggersContextMenu,
                      let point = self.view.viewport.point(fromRootX: press.rootX, y: press.rootY),
                      let cell = self.cell(atViewportX: Int(point.x), y: Int(point.y)),
                      let download = cell.download, let position = self.view.position(of: download) else { return false }
                // On one of several selected items the menu is theirs: the selection stays.
                let selected = self.view.selectedDownloads
                if selected.count < 2 || !selected.contains(where: { $0 === download }) { self.view.select(position, focus: true) }
                self.onOpen?(download, press)
                return true
            }
        }
    }

    /// The Menu key or Shift+F10: the menu of the selected item, below its cell.
    func openForSelection() -> Bool {
        guard let download = view.selectedDownload, view.cell(for: download) != nil else { return false }
        onOpen?(download, nil)
        return true
    }

    /// The cell at (`x`, `y`) pixels in the viewport, and so the item under the pointer: GTK's own hit test
    /// of the box shown.
    func cell(atViewportX x: Int, y: Int) -> (any GalleryCell)? {
        let pool = view.pool
        guard let origin = pool.box.boxWidget.translate(x: 0, y: 0, to: view.viewport) else { return nil }
        let position: Int? = view.mode == .grid
            ? view.flowBox.childIndex(atX: x - origin.x, y: y - origin.y)
            : view.listBox.rowIndex(atY: y - origin.y)
        return position.flatMap { pool.index(atPosition: $0) }.flatMap { pool.cell(forIndex: $0) }
    }
}
