import GObjectBindings
import GtkBindings
import GalleryCore

/// Right-click on a cell, the Menu key or Shift+F10 on the selected one: the cell is selected and the window
/// opens its context menu for the item the cell shows now.
extension GalleryListView {
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
    public func menuAnchor(for download: ImageDownload) -> Widget? { cell(for: download)?.cellWidget }
}
