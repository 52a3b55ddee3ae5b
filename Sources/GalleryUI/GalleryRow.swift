import GObjectBindings
import GtkBindings
import GalleryCore

/// One recycled row of the gallery list: thumbnail area, title, detail line, spinner. The list binds it to
/// one download model at a time and rebinds it as the view moves; it shows the model's state and keeps none
/// of its own, so a row rebound mid-download can never show the previous item's image.
@MainActor
public final class GalleryRow {
    public static let thumbnailSize = 96

    /// The item the row shows now; nil while it waits in the pool.
    public private(set) var download: ImageDownload?
    public let row = ListBoxRow()
    let thumbnailStack = Stack(transition: .none)
    let thumbnail = Image()
    let retryButton = Button()
    let revealButton = Button()
    let titleLabel = Label()
    let detailLabel = Label()
    let spinner = Spinner()
    let badge = Image()
    /// The badge the row shows now, so an unchanged one is not set again (a new tooltip makes GTK ask the X
    /// server where the pointer is).
    private(set) var shownBadge: ItemBadge?
    private let scale: Int

    public init(scale: Int) {
        self.scale = scale
        layOut()
    }

    /// Shows `download` (one of `total` items) and follows its changes until `unbind`.
    public func bind(_ download: ImageDownload, total: Int) {
        self.download = download
        download.bind { [weak self] changed in
            guard let self, self.download === changed else { return }
            self.update()
        }
        let item = download.item
        titleLabel.text = item.displayTitle
        row.accessibleName = item.displayTitle
        describePosition(total: total)
        update()
    }

    /// Back to the pool: the model hears nothing more from this row, and the row lets go of the pixels.
    public func unbind() {
        download?.unbind()
        download = nil
        thumbnail.clear()
        spinner.isSpinning = false
    }

    /// "Image 5,001 of 100,000": where the item sits in the whole gallery, which a screen reader cannot
    /// tell from a list box holding only the rows on screen.
    func describePosition(total: Int) {
        guard let download else { return }
        // TRANSLATORS: a row's place in the whole gallery, for screen readers.
        row.accessibleDescription = tr("Item {number} of {total}", ["number": download.index + 1, "total": total])
    }

    private func layOut() {
        let content = Box(.horizontal, spacing: 12)
        content.setMargins(top: 6, bottom: 6, start: 12, end: 12)
        row.addStyleClass("gallery-row")

        thumbnailStack.setSizeRequest(width: Self.thumbnailSize, height: Self.thumbnailSize)
        thumbnailStack.addStyleClass("thumbnail")
        thumbnailStack.add(thumbnail, name: "image")
        thumbnailStack.isHomogeneous = true

        retryButton.setChild(Image(iconName: "dialog-error-symbolic", pixelSize: 32))
        retryButton.isFlat = true
        retryButton.addStyleClass("retry-button")
        retryButton.onClicked { [weak self] in self?.download?.retry() }
        thumbnailStack.add(retryButton, name: "failed")

        revealButton.setChild(Image(iconName: "view-reveal-symbolic", pixelSize: 32))
        revealButton.isFlat = true
        revealButton.tooltip = tr("Sensitive content. Click to show it.")
        revealButton.accessibleName = tr("Show sensitive image")
        revealButton.onClicked { [weak self] in self?.download?.revealSensitive() }
        thumbnailStack.add(revealButton, name: "sensitive")
        content.append(thumbnailStack)

        let text = Box(.vertical, spacing: 4)
        text.valign = .center
        for label in [titleLabel, detailLabel] {
            label.xalign = 0
            label.ellipsize = .middle
            text.append(label)
        }
        titleLabel.addStyleClass("row-title")
        detailLabel.addStyleClass("dim-label")
        content.append(text, expand: true)

        badge.valign = .center
        content.append(badge)
        spinner.valign = .center
        spinner.setSizeRequest(width: 24, height: 24)
        content.append(spinner)

        row.setChild(content)
        content.showAll()
        spinner.hide()
        badge.hide()
    }

    /// Applies the model's state; runs on every change of the bound download.
    func update() {
        guard let download else { return }
        let item = download.item
        spinner.isSpinning = download.state == .loading
        showBadge(ItemBadge.of(download))
        removeErrorStyle()
        switch download.state {
        case .notStarted, .loading:
            showPlaceholder("image-x-generic-symbolic")
            detailLabel.text = detailText
            row.tooltip = item.altText
        case .loaded:
            if let image = download.thumbnail {
                thumbnail.setPixbuf(image.pixbuf, scale: scale)
                thumbnailStack.visibleChildName = "image"
            } else {
                showPlaceholder("image-x-generic-symbolic")
            }
            detailLabel.text = detailText
            row.tooltip = item.altText
        case .failed(let reason):
            thumbnailStack.visibleChildName = "failed"
            // TRANSLATORS: {reason} is why the image could not be shown, such as "HTTP 404 Not Found".
            retryButton.tooltip = tr("{reason}. Click to try again.", ["reason": reason])
            retryButton.accessibleName = tr("Retry: {reason}", ["reason": reason])
            detailLabel.text = reason
            row.addStyleClass("failed")
            row.tooltip = reason
        case .sensitiveHidden:
            thumbnailStack.visibleChildName = "sensitive"
            detailLabel.text = tr("Sensitive content hidden")
            row.tooltip = nil
        case .noPreview:
            showPlaceholder(item.kind == .audio ? "audio-x-generic-symbolic" : "text-x-generic-symbolic")
            detailLabel.text = detailText
            row.tooltip = item.altText
        }
    }

    private func showPlaceholder(_ icon: String) {
        thumbnail.setIcon(icon, pixelSize: 32)
        thumbnail.addStyleClass("dim-label")
        thumbnailStack.visibleChildName = "image"
    }

    private func removeErrorStyle() {
        row.removeStyleClass("failed")
        thumbnail.removeStyleClass("dim-label")
    }

    /// "quiet-harbour.jpg · 1600 × 1200"
    private var detailText: String {
        guard let download else { return "" }
        let item = download.item
        var parts = [item.fileName]
        if let width = item.width, let height = item.height, width > 0, height > 0 {
            parts.append("\(width) × \(height)")
        } else if let size = download.decodedImageSize, item.kind == .image {
            parts.append("\(size.width) × \(size.height)")
        }
        return parts.joined(separator: " · ")
    }

    private func showBadge(_ wanted: ItemBadge?) {
        guard wanted != shownBadge else { return }
        shownBadge = wanted
        guard let wanted else { return badge.hide() }
        badge.setIcon(wanted.iconName, pixelSize: 16)
        badge.tooltip = wanted.text
        badge.accessibleName = wanted.text
        badge.show()
    }
}
