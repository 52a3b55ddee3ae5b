import GObjectBindings
import GtkBindings
import GalleryCore

/// A row's or tile's context menu (right-click, the Menu key, Shift+F10): open and the item actions
/// (`ItemMenus.groups`), on the item the cell showed when the menu opened. Cells are recycled, so the menu holds that
/// item itself (`target`), not the cell: whatever the cell shows later, the menu acts on what the user
/// clicked.
@MainActor
final class RowMenu {
    private let actions = ActionGroup()
    /// The menu's actions ("open", "save-image"…), each enabled as it applies to `target`.
    private(set) var actionsByName: [String: SimpleAction] = [:]
    private let listView: GalleryListView
    private var popup: PopupMenu?
    /// The item the menu acts on: the one its cell showed when it opened.
    private(set) var target: ItemViewModel?
    /// "Open": the item in the large view.
    var onOpen: (@MainActor (ItemViewModel) -> Void)?
    /// An item action on the item.
    var onRun: (@MainActor (ItemAction, ItemViewModel) -> Void)?

    init(listView: GalleryListView) {
        self.listView = listView
        actionsByName["open"] = SimpleAction.add(to: actions, name: "open") { [weak self] in
            guard let self, let target = self.target else { return }
            self.onOpen?(target)
        }
        for action in ItemAction.allCases {
            actionsByName[action.rawValue] = SimpleAction.add(to: actions, name: action.rawValue) { [weak self] in
                guard let self, let target = self.target else { return }
                self.onRun?(action, target)
            }
        }
        // On the view's container, which holds the list and the grid alike.
        listView.container.insertActionGroup(actions, prefix: "row")
    }

    /// Opens the menu for `download`: at the pointer for a click, below its cell for a key.
    func open(for download: ItemViewModel, at press: ButtonPress?) {
        target = download
        for action in ItemAction.allCases {
            actionsByName[action.rawValue]?.isEnabled = action.applies(to: download)
        }
        if popup == nil { popup = PopupMenu(model: ItemMenus.row(), attachedTo: listView.container) }
        guard let popup else { return }
        if let press {
            popup.popUpAtPointer(for: press)
        } else if let anchor = listView.menuAnchor(for: download) {
            popup.popUp(at: anchor)
        }
    }

    var isOpen: Bool { popup?.isOpen ?? false }

    func close() { popup?.close() }

    /// Runs an action by name ("save-image") as its menu item does, for tests.
    func activate(_ name: String) {
        actions.activateAction(name)
    }
}
