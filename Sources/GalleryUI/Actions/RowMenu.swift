import GObjectBindings
import GtkBindings
import GalleryCore

/// A row's or tile's context menu (right-click, the Menu key, Shift+F10): open and the item actions
/// (`ItemMenus.groups`), on the item the cell showed when the menu opened. Cells are recycled, so the menu holds that
/// item itself (`target`), not the cell: whatever the cell shows later, the menu acts on what the user
/// clicked. On one of several selected items it offers what applies to them all: "Save N Images…" and
/// "Copy N Links" (`selection`, held the same way).
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
    /// The items selected when the menu opened on one of them (several).
    private(set) var selection: [ItemViewModel] = []
    private var selectionPopup: PopupMenu?
    /// Save the selected items into a folder.
    var onSaveSelection: (@MainActor ([ItemViewModel]) -> Void)?
    /// Copy the selected items' links.
    var onCopySelectionLinks: (@MainActor ([ItemViewModel]) -> Void)?

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
        actionsByName["save-selection"] = SimpleAction.add(to: actions, name: "save-selection") { [weak self] in
            guard let self else { return }
            self.onSaveSelection?(self.selection)
        }
        actionsByName["copy-selection-links"] = SimpleAction.add(to: actions, name: "copy-selection-links") { [weak self] in
            guard let self else { return }
            self.onCopySelectionLinks?(self.selection)
        }
        // On the view's container, which holds the list and the grid alike.
        listView.container.insertActionGroup(actions, prefix: "row")
    }

    /// Opens the menu for `download`: at the pointer for a click, below its cell for a key.
    func open(for download: ItemViewModel, at press: ButtonPress?) {
        let selected = listView.selectedDownloads
        if selected.count > 1, selected.contains(where: { $0 === download }) {
            return openForSelection(selected, anchoredAt: download, press: press)
        }
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

    /// The menu of several selected items; its labels count them, so its model is made for each opening.
    private func openForSelection(_ selected: [ItemViewModel], anchoredAt download: ItemViewModel, press: ButtonPress?) {
        selection = selected
        // By kind only, which needs no item unpacked: the files and links themselves are worked out on a
        // worker when the action runs (a selection can be a whole gallery).
        let saved = selected.filter { [.image, .video, .audio].contains($0.kind) }.count
        let links = selected.count
        actionsByName["save-selection"]?.isEnabled = saved > 0
        actionsByName["copy-selection-links"]?.isEnabled = links > 0
        selectionPopup?.close()
        selectionPopup = PopupMenu(model: ItemMenus.selection(saved: saved, links: links), attachedTo: listView.container)
        guard let popup = selectionPopup else { return }
        if let press {
            popup.popUpAtPointer(for: press)
        } else if let anchor = listView.menuAnchor(for: download) {
            popup.popUp(at: anchor)
        }
    }

    var isOpen: Bool { (popup?.isOpen ?? false) || (selectionPopup?.isOpen ?? false) }

    func close() {
        popup?.close()
        selectionPopup?.close()
    }

    /// Runs an action by name ("save-image") as its menu item does, for tests.
    func activate(_ name: String) {
        actions.activateAction(name)
    }
}
