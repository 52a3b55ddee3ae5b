import GObjectBindings
import GtkBindings
import GalleryCore

/// The large view's actions (keys, header bar menu, right-click): back, neighbours, zoom, pan, full screen,
/// details, and the item actions on the item shown. All are enabled only while the view is open, so that
/// their keys (arrows, +, -, 1, Ctrl+C) reach the entry and the list as usual.
@MainActor
final class ViewerActions {
    private let largeView: LargeImageView
    private var actions: [SimpleAction] = []
    private var itemActions: [ItemAction: SimpleAction] = [:]
    private var rotations: [SimpleAction] = []
    private var menu: PopupMenu?
    /// Escape: the window leaves full screen first, then the large view.
    var onBack: (@MainActor () -> Void)?
    /// The previous (-1) or next (+1) item.
    var onShowNeighbour: (@MainActor (Int) -> Void)?
    var onToggleFullscreen: (@MainActor () -> Void)?
    /// Space: the video, sound or animation; in a slideshow, the show.
    var onPlayPause: (@MainActor () -> Void)?
    /// An item action on the item shown.
    var onRun: (@MainActor (ItemAction, ItemViewModel) -> Void)?

    init(window: ApplicationWindow, largeView: LargeImageView) {
        self.largeView = largeView
        let add = { [unowned self] (name: String, run: @escaping @MainActor (ViewerActions) -> Void) in
            self.actions.append(SimpleAction.add(to: window, name: name) { [weak self] in if let self { run(self) } })
        }
        add("back") { $0.onBack?() }
        add("previous") { $0.onShowNeighbour?(-1) }
        add("next") { $0.onShowNeighbour?(1) }
        add("zoom-in") { $0.largeView.zoom.zoomIn() }
        add("zoom-out") { $0.largeView.zoom.zoomOut() }
        add("zoom-real-size") { $0.largeView.zoom.zoomToRealSize() }
        add("zoom-fit") { $0.largeView.zoom.zoomToFit() }
        add("fullscreen") { $0.onToggleFullscreen?() }
        add("play-pause") { $0.onPlayPause?() }
        add("mute") { $0.largeView.toggleMute() }
        actions.append(SimpleAction.add(to: window, name: "pan", stringParameter: { [weak self] direction in
            self?.pan(direction)
        }))
        // Pictures only: a video or sound plays as it is.
        for (name, turns) in [("rotate-clockwise", 1), ("rotate-counterclockwise", -1)] {
            rotations.append(SimpleAction.add(to: window, name: name) { [weak self] in self?.largeView.rotate(by: turns) })
        }
        for action in ItemAction.allCases {
            itemActions[action] = SimpleAction.add(to: window, name: action.rawValue) { [weak self] in
                guard let self, let download = self.largeView.download else { return }
                self.onRun?(action, download)
            }
        }
        // `win.show-details` (Alt+Return, the header bar's Image Details toggle): a state of the window, not of
        // one image: it stays as it is from image to image and when the view is left and opened again.
        actions.append(SimpleAction.addToggle(to: window, name: "show-details", initial: false) { [weak self] shown in
            self?.largeView.setDetailsShown(shown)
        })
        disable()
    }

    /// The view opened on `download`: every action on, the item actions as they apply to it.
    func enable(for download: ItemViewModel) {
        actions.forEach { $0.isEnabled = true }
        rotations.forEach { $0.isEnabled = download.item.media == nil }
        for (action, gAction) in itemActions { gAction.isEnabled = action.applies(to: download) }
    }

    /// The view closed.
    func disable() {
        actions.forEach { $0.isEnabled = false }
        rotations.forEach { $0.isEnabled = false }
        itemActions.values.forEach { $0.isEnabled = false }
    }

    /// The large view's menu at the pointer (right-click on the picture).
    func openMenu(at press: ButtonPress) {
        if menu == nil { menu = PopupMenu(model: ItemMenus.largeView(), attachedTo: largeView.container) }
        menu?.popUpAtPointer(for: press)
    }

    /// The arrow keys: pan a zoomed-in image; when it fits, ← and → show the previous and next image.
    private func pan(_ direction: String) {
        let (dx, dy) = switch direction {
        case "left": (-1, 0)
        case "right": (1, 0)
        case "up": (0, -1)
        default: (0, 1)
        }
        guard !largeView.zoom.pan(dx: dx, dy: dy), dx != 0 else { return }
        onShowNeighbour?(dx)
    }
}
