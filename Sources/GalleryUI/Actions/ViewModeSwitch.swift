import GObjectBindings
import GtkBindings
import GalleryCore

/// The list/grid switch: `win.grid`, a toggle (the header bar's button), and `win.view-mode::list|grid`
/// (Ctrl+1 and Ctrl+2, as in Files).
@MainActor
final class ViewModeSwitch {
    private let listView: GalleryListView
    private var gridAction: SimpleAction?
    /// The mode changed (for remembering it).
    var onChange: (@MainActor (GalleryViewMode) -> Void)?

    init(window: ApplicationWindow, listView: GalleryListView) {
        self.listView = listView
        gridAction = SimpleAction.addToggle(to: window, name: "grid", initial: false) { [weak self] grid in
            self?.apply(grid ? .grid : .list)
        }
        SimpleAction.add(to: window, name: "view-mode", stringParameter: { [weak self] name in
            guard let mode = GalleryViewMode(rawValue: name) else { return }
            self?.set(mode)
        })
    }

    /// Shows the gallery as a list or as a grid; the toggle follows. Tells `onChange` when it changed.
    func set(_ mode: GalleryViewMode) {
        gridAction?.isOn = mode == .grid
        apply(mode)
    }

    private func apply(_ mode: GalleryViewMode) {
        guard mode != listView.mode else { return }
        listView.setMode(mode)
        onChange?(mode)
    }
}
