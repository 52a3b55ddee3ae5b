import GObjectBindings
import GtkBindings
import GalleryCore

/// Right-click on a row, the Menu key or Shift+F10 on the selected one: the row is selected and the window
/// opens its context menu for the item the row shows now.
extension GalleryListView {
    func connectContextMenu() {
        listBox.onButtonPress { [weak self] press in
            guard let self, press.triggersContextMenu,
                  let point = self.viewport.point(fromRootX: press.rootX, y: press.rootY),
                  let row = self.row(atViewportY: Int(point.y)), let download = row.download else { return false }
            self.select(download.index, focus: true)
            self.onContextMenu?(download, press)
            return true
        }
    }

    /// The Menu key or Shift+F10 (from the list's key handler): the menu of the selected item, below its row.
    func openContextMenuForSelection() -> Bool {
        guard let download = selectedDownload, row(for: download) != nil else { return false }
        onContextMenu?(download, nil)
        return true
    }
}
