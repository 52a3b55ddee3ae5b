import GObjectBindings
import GtkBindings
import GalleryCore

/// The picture of a row or a tile: the thumbnail or a placeholder icon, the failure icon that retries, or the
/// button that shows a hidden sensitive item — whichever the shown model's state calls for. It keeps no
/// state of its own beyond the model it shows, so a recycled cell never shows another item's picture.
@MainActor
final class ThumbnailSlot {
    let stack = Stack(transition: .none)
    /// The thumbnail.
    let image = Image()
    /// The placeholder icon, dimmed for good. It was the thumbnail's image with `dim-label` switched on at
    /// every rebind and off when the thumbnail came, and each switch restyled the image and the buttons
    /// beside it in the stack ("a sibling's class changed"); a page switch restyles nothing.
    let placeholder = Image()
    let retryButton = Button()
    let revealButton = Button()
    private let scale: Int
    private let placeholderPixelSize: Int
    /// The model shown; the buttons act on it.
    private(set) var download: ItemViewModel?

    /// A square of `size` logical pixels; `scale`: device pixels per logical pixel of the decoded thumbnails.
    init(size: Int, scale: Int) {
        self.scale = scale
        placeholderPixelSize = size >= 128 ? 48 : 32
        stack.setSizeRequest(width: size, height: size)
        stack.addStyleClass("thumbnail")
        stack.isHomogeneous = true
        stack.add(image, name: "image")
        placeholder.addStyleClass("dim-label")
        stack.add(placeholder, name: "placeholder")

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
    func show(_ download: ItemViewModel) {
        self.download = download
        switch download.state {
        case .notStarted, .loading:
            showPlaceholder("image-x-generic-symbolic")
        case .loaded:
            if let thumbnail = download.thumbnail {
                image.setPixbuf(thumbnail.pixbuf, scale: scale)
                showPage("image")
            } else {
                showPlaceholder("image-x-generic-symbolic")
            }
        case .failed(let reason):
            showPage("failed")
            releasePixels()
            // TRANSLATORS: {reason} is why the image could not be shown, such as "HTTP 404 Not Found".
            retryButton.tooltip = tr("{reason}. Click to try again.", ["reason": reason])
            retryButton.accessibleName = tr("Retry: {reason}", ["reason": reason])
        case .sensitiveHidden:
            showPage("sensitive")
            releasePixels()
        case .noPreview:
            showPlaceholder(download.kind == .audio ? "audio-x-generic-symbolic" : "text-x-generic-symbolic")
        }
    }

    /// The page's image shown: the thumbnail or the placeholder.
    var shownImage: Image { stack.visibleChildName == "placeholder" ? placeholder : image }

    /// Lets go of the model and the pixels.
    func clear() {
        download = nil
        releasePixels()
    }

    private func releasePixels() {
        if image.content != .empty { image.clear() }
    }

    private func showPage(_ name: String) {
        guard stack.visibleChildName != name else { return }
        let button = name == "failed" ? retryButton : name == "sensitive" ? revealButton : nil
        button?.show()
        stack.visibleChildName = name
        for other in [retryButton, revealButton] where other !== button { other.hide() }
    }

    private func showPlaceholder(_ icon: String) {
        if placeholder.iconName != icon { placeholder.setIcon(icon, pixelSize: placeholderPixelSize) }
        showPage("placeholder")
        releasePixels()
    }
}
