import GObjectBindings
import GtkBindings
import GalleryCore

/// The picture of a row or a tile: the thumbnail or a placeholder icon, the failure icon that retries, or the
/// button that shows a hidden sensitive item — whichever the shown model's state calls for. It keeps no
/// state of its own beyond the model it shows, so a recycled cell never shows another item's picture.
@MainActor
final class ThumbnailSlot {
    let stack = Stack(transition: .none)
    let image = Image()
    let retryButton = Button()
    let revealButton = Button()
    private let scale: Int
    private let placeholderPixelSize: Int
    /// The model shown; the buttons act on it.
    private(set) var download: ImageDownload?

    /// A square of `size` logical pixels; `scale`: device pixels per logical pixel of the decoded thumbnails.
    init(size: Int, scale: Int) {
        self.scale = scale
        placeholderPixelSize = size >= 128 ? 48 : 32
        stack.setSizeRequest(width: size, height: size)
        stack.addStyleClass("thumbnail")
        stack.isHomogeneous = true
        stack.add(image, name: "image")

        retryButton.setChild(Image(iconName: "dialog-error-symbolic", pixelSize: placeholderPixelSize))
        retryButton.isFlat = true
        retryButton.addStyleClass("retry-button")
        retryButton.onClicked { [weak self] in self?.download?.retry() }
        stack.add(retryButton, name: "failed")

        revealButton.setChild(Image(iconName: "view-reveal-symbolic", pixelSize: placeholderPixelSize))
        revealButton.isFlat = true
        revealButton.tooltip = tr("Sensitive content. Click to show it.")
        revealButton.accessibleName = tr("Show sensitive image")
        revealButton.onClicked { [weak self] in self?.download?.revealSensitive() }
        stack.add(revealButton, name: "sensitive")
        stack.showAll()
        // Only the page shown is a shown widget: GTK restyles every shown widget of every cell whenever a
        // cell enters or leaves the box (Adwaita has selectors on buttons under a last child), and a hidden
        // one costs nothing there.
        retryButton.hide()
        revealButton.hide()
    }

    /// Shows `download`'s picture as its state says. Only what changes is set: a recycled cell is rebound
    /// on every move of the view, and each style class or icon set anew costs GTK a restyle or a relayout.
    func show(_ download: ImageDownload) {
        self.download = download
        switch download.state {
        case .notStarted, .loading:
            showPlaceholder("image-x-generic-symbolic")
        case .loaded:
            if let thumbnail = download.thumbnail {
                image.setPixbuf(thumbnail.pixbuf, scale: scale)
                setDimmed(false)
                showPage("image")
            } else {
                showPlaceholder("image-x-generic-symbolic")
            }
        case .failed(let reason):
            showPage("failed")
            // TRANSLATORS: {reason} is why the image could not be shown, such as "HTTP 404 Not Found".
            retryButton.tooltip = tr("{reason}. Click to try again.", ["reason": reason])
            retryButton.accessibleName = tr("Retry: {reason}", ["reason": reason])
        case .sensitiveHidden:
            showPage("sensitive")
        case .noPreview:
            showPlaceholder(download.item.kind == .audio ? "audio-x-generic-symbolic" : "text-x-generic-symbolic")
        }
    }

    /// Lets go of the model and the pixels.
    func clear() {
        download = nil
        if image.content != .iconName { image.clear() }
    }

    private var isDimmed = false

    private func setDimmed(_ dimmed: Bool) {
        guard dimmed != isDimmed else { return }
        isDimmed = dimmed
        if dimmed { image.addStyleClass("dim-label") } else { image.removeStyleClass("dim-label") }
    }

    private func showPage(_ name: String) {
        guard stack.visibleChildName != name else { return }
        let button = name == "failed" ? retryButton : name == "sensitive" ? revealButton : nil
        button?.show()
        stack.visibleChildName = name
        for other in [retryButton, revealButton] where other !== button { other.hide() }
    }

    private func showPlaceholder(_ icon: String) {
        if image.iconName != icon { image.setIcon(icon, pixelSize: placeholderPixelSize) }
        setDimmed(true)
        showPage("image")
    }
}
