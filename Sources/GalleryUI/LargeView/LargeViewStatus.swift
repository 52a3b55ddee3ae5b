import GObjectBindings
import GtkBindings
import GalleryCore

/// What the large view says over its picture while the picture alone does not tell: a spinner and a thin
/// progress bar while the image downloads, a message (why it failed, why it is hidden) with Retry, or Open in
/// Browser for an item that is a page.
@MainActor
final class LargeViewStatus {
    static let spinnerSize = 48

    let spinner = Spinner()
    let progressBar = ProgressBar()
    /// Spinner, message and buttons over the middle of the picture; hidden when empty, because an overlay
    /// child takes the pointer events over its area (a scroll or double-click there would go nowhere).
    private let box = Box(.vertical, spacing: 12)
    let messageLabel = Label()
    let retryButton = Button(label: tr("_Retry"))
    let openInBrowserButton = Button(label: tr("Open in _Browser"))

    /// Adds the progress bar (along the top) and the box (in the middle) as overlays of `picture`.
    init(over picture: Overlay) {
        progressBar.valign = .start
        progressBar.addStyleClass("osd")
        progressBar.accessibleName = tr("Download progress")
        picture.addOverlay(progressBar)

        box.halign = .center
        box.valign = .center
        spinner.setSizeRequest(width: Self.spinnerSize, height: Self.spinnerSize)
        box.append(spinner)
        messageLabel.addStyleClass("large-view-message")
        messageLabel.wraps = true
        messageLabel.justify = .center
        box.append(messageLabel)
        for button in [retryButton, openInBrowserButton] {
            button.halign = .center
            box.append(button)
        }
        openInBrowserButton.addStyleClass("suggested-action")
        picture.addOverlay(box)
    }

    /// After the overlay's `showAll`: only what has something to say stays visible.
    func hideAll() {
        [progressBar, messageLabel, retryButton, openInBrowserButton].forEach { $0.hide() }
        setLoading(false)
    }

    /// The spinner and the progress bar, on or off.
    func setLoading(_ loading: Bool) {
        spinner.isSpinning = loading
        spinner.isVisible = loading
        progressBar.isVisible = loading
        if loading { progressBar.fraction = 0 }
        updateBox()
    }

    /// The spinner alone: for a loader that knows no fraction of what it needs (the media player).
    func hideProgressBar() { progressBar.hide() }

    func showProgress(_ progress: LoadProgress) {
        if let fraction = progress.fraction { progressBar.fraction = fraction } else { progressBar.pulse() }
    }

    /// Shows `text`, with Retry when trying again can help.
    func showMessage(_ text: String, retry: Bool = false) {
        messageLabel.text = text
        messageLabel.show()
        if retry { retryButton.show() }
        updateBox()
    }

    func hideMessage() {
        [messageLabel, retryButton].forEach { $0.hide() }
        updateBox()
    }

    func offerOpenInBrowser(_ offered: Bool) {
        openInBrowserButton.isVisible = offered
        updateBox()
    }

    private func updateBox() {
        box.isVisible = [spinner, messageLabel, retryButton, openInBrowserButton].contains { $0.isVisible }
    }
}
