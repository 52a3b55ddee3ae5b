import GObjectBindings
import GtkBindings
import GalleryCore

/// A page opened in the user's browser (Open in Browser, the details panel's links).
@MainActor
enum BrowserLink {
    /// Only absolute http(s) URLs leave the app — checked here again, whatever a source let through: a
    /// `file:`, `smb:` or `javascript:` URL would open a local file, a network share or a handler.
    static func open(_ url: String, from window: ApplicationWindow) {
        guard URLText.isWebAddress(url) else {
            return window.showMessage(tr("Not a web address"), secondary: tr("The app opens only http and https links."))
        }
        do {
            try window.openURI(url)
        } catch {
            window.showMessage(tr("Could not open the browser"), secondary: error.message)
        }
    }
}
