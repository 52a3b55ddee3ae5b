import GObjectBindings
import GtkBindings
import GalleryCore

/// The large view's actions (keys, header bar menu, right-click): back, neighbours, zoom, pan, full screen,
/// and the item actions on the item shown. All are enabled only while the view is open.
extension MainWindow {
    func installViewerActions() {
        let map = window
        let add = { [unowned self] (name: String, run: @escaping @MainActor (MainWindow) -> Void) in
            self.viewerActions.append(SimpleAction.add(to: map, name: name) { [weak self] in if let self { run(self) } })
        }
        add("back") { $0.leaveFullscreenOrView() }
        add("previous") { $0.showNeighbour(-1) }
        add("next") { $0.showNeighbour(1) }
        add("zoom-in") { $0.largeView.zoomIn() }
        add("zoom-out") { $0.largeView.zoomOut() }
        add("zoom-real-size") { $0.largeView.zoomToRealSize() }
        add("zoom-fit") { $0.largeView.zoomToFit() }
        add("fullscreen") { $0.setFullscreen(!$0.isFullscreen) }
        add("play-pause") { $0.largeView.togglePlayback() }
        viewerActions.append(SimpleAction.add(to: map, name: "pan", stringParameter: { [weak self] direction in
            self?.pan(direction)
        }))
        for action in ItemAction.allCases {
            viewerItemActions[action] = SimpleAction.add(to: map, name: action.rawValue) { [weak self] in
                guard let self, let download = self.largeView.download else { return }
                self.itemActions.run(action, on: download, largeView: self.largeView)
            }
        }
        viewerActions.append(installDetailsAction())
        viewerActions.forEach { $0.isEnabled = false }
        viewerItemActions.values.forEach { $0.isEnabled = false }
        window.onFullscreenChanged { [weak self] fullscreen in self?.isFullscreen = fullscreen }
        window.onMinimizedChanged { [weak self] minimized in self?.largeView.setWindowMinimized(minimized) }
    }

    /// The arrow keys: pan a zoomed-in image; when it fits, ← and → show the previous and next image.
    private func pan(_ direction: String) {
        let (dx, dy) = switch direction {
        case "left": (-1, 0)
        case "right": (1, 0)
        case "up": (0, -1)
        default: (0, 1)
        }
        guard !largeView.pan(dx: dx, dy: dy), dx != 0 else { return }
        showNeighbour(dx)
    }

    /// Escape: out of full screen first, then out of the large view.
    func leaveFullscreenOrView() {
        if isFullscreen { setFullscreen(false) } else { closeLargeView() }
    }

    public func setFullscreen(_ fullscreen: Bool) {
        guard fullscreen != isFullscreen else { return }
        isFullscreen = fullscreen
        window.setFullscreen(fullscreen)
    }

    /// The large view's menu at the pointer (right-click on the picture).
    func openViewerMenu(at press: ButtonPress) {
        if viewerMenu == nil { viewerMenu = PopupMenu(model: ItemMenus.largeView(), attachedTo: largeView.container) }
        viewerMenu?.popUpAtPointer(for: press)
    }
}
