import GObjectBindings
import GtkBindings
import GalleryCore

/// `win.show-details` (Alt+Return, the header bar's Image Details toggle): the large view's details panel, open
/// or closed. A state of the window, not of one image: it stays as it is from image to image and when the view
/// is left and opened again.
extension MainWindow {
    func installDetailsAction() -> SimpleAction {
        SimpleAction.addToggle(to: window, name: "show-details", initial: false) { [weak self] shown in
            self?.largeView.setDetailsShown(shown)
        }
    }
}
