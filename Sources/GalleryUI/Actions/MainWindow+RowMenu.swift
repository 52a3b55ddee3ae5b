import GObjectBindings
import GtkBindings
import GalleryCore

/// A row's or tile's context menu (right-click, the Menu key, Shift+F10): open, save, copy, copy link, open
/// in browser, on the item the cell showed when the menu opened. Cells are recycled, so the menu holds that
/// item itself (`rowMenuTarget`), not the cell: whatever the cell shows later, the menu acts on what the user
/// clicked.
extension MainWindow {
    func installRowActions() {
        let map = rowActions
        rowActionsByName["open"] = SimpleAction.add(to: map, name: "open") { [weak self] in
            guard let self, let target = self.rowMenuTarget else { return }
            self.openLargeView(target)
        }
        for action in ItemAction.allCases {
            rowActionsByName[action.rawValue] = SimpleAction.add(to: map, name: action.rawValue) { [weak self] in
                guard let self, let target = self.rowMenuTarget else { return }
                self.itemActions.run(action, on: target, largeView: nil)
            }
        }
        // On the view's container, which holds the list and the grid alike.
        listView.container.insertActionGroup(rowActions, prefix: "row")
    }

    /// Opens the row menu for `download`: at the pointer for a click, below its cell for a key.
    func openRowMenu(for download: ImageDownload, at press: ButtonPress?) {
        rowMenuTarget = download
        for action in ItemAction.allCases {
            rowActionsByName[action.rawValue]?.isEnabled = action.applies(to: download)
        }
        if rowMenu == nil { rowMenu = PopupMenu(model: ItemMenus.row(), attachedTo: listView.container) }
        guard let rowMenu else { return }
        if let press {
            rowMenu.popUpAtPointer(for: press)
        } else if let anchor = listView.menuAnchor(for: download) {
            rowMenu.popUp(at: anchor)
        }
    }

    /// Runs a row menu action by name ("save-image") as its menu item does, for tests.
    func activateRowAction(_ name: String) {
        rowActions.activateAction(name)
    }
}
