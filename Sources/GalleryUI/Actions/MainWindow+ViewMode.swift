import GObjectBindings
import GtkBindings
import GalleryCore

/// The list/grid switch: `win.grid`, a toggle (the header bar's button), and `win.view-mode::list|grid`
/// (Ctrl+1 and Ctrl+2, as in Files).
extension MainWindow {
    func installViewModeActions() {
        gridAction = SimpleAction.addToggle(to: window, name: "grid", initial: false) { [weak self] grid in
            self?.applyViewMode(grid ? .grid : .list)
        }
        SimpleAction.add(to: window, name: "view-mode", stringParameter: { [weak self] name in
            guard let mode = GalleryViewMode(rawValue: name) else { return }
            self?.setViewMode(mode)
        })
    }

    /// How the gallery shows now.
    public var viewMode: GalleryViewMode { listView.mode }

    /// Shows the gallery as a list or as a grid; the toggle follows. Tells `onViewModeChange` when it changed.
    public func setViewMode(_ mode: GalleryViewMode) {
        gridAction.isOn = mode == .grid
        applyViewMode(mode)
    }

    private func applyViewMode(_ mode: GalleryViewMode) {
        guard mode != listView.mode else { return }
        listView.setMode(mode)
        onViewModeChange?(mode)
    }
}
