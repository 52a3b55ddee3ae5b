import CGtk
import GObjectBindings
import GtkBindings
import GalleryCore

/// One row of the gallery list, bound to its download model: thumbnail area, title, detail line, spinner.
/// It observes the model and updates in place; nothing else in the list is touched.
@MainActor
public final class GalleryRow {
    public static let thumbnailSize = 96

    public let download: ImageDownload
    public let row = ListBoxRow()
    let thumbnailStack = Stack(transition: GTK_STACK_TRANSITION_TYPE_NONE)
    let thumbnail = Image()
    let retryButton = Button()
    let revealButton = Button()
    let titleLabel = Label()
    let detailLabel = Label()
    let spinner = Spinner()
    private let badge = Image()
    private let scale: Int

    public init(download: ImageDownload, scale: Int) {
        self.download = download
        self.scale = scale
        layOut()
        download.observe(owner: self) { [weak self] _ in self?.update() }
        update()
    }

    private func layOut() {
        let content = Box(GTK_ORIENTATION_HORIZONTAL, spacing: 12)
        content.setMargins(top: 6, bottom: 6, start: 12, end: 12)
        row.addStyleClass("gallery-row")

        thumbnailStack.setSizeRequest(width: Self.thumbnailSize, height: Self.thumbnailSize)
        thumbnailStack.addStyleClass("thumbnail")
        thumbnailStack.add(thumbnail, name: "image")
        thumbnailStack.isHomogeneous = true

        retryButton.setChild(Image(iconName: "dialog-error-symbolic", pixelSize: 32))
        retryButton.isFlat = true
        retryButton.addStyleClass("retry-button")
        retryButton.onClicked { [weak self] in self?.download.retry() }
        thumbnailStack.add(retryButton, name: "failed")

        revealButton.setChild(Image(iconName: "view-reveal-symbolic", pixelSize: 32))
        revealButton.isFlat = true
        revealButton.tooltip = "Sensitive content. Click to show it."
        revealButton.accessibleName = "Show sensitive image"
        revealButton.onClicked { [weak self] in self?.download.revealSensitive() }
        thumbnailStack.add(revealButton, name: "sensitive")
        content.append(thumbnailStack)

        let text = Box(GTK_ORIENTATION_VERTICAL, spacing: 4)
        text.valign = GTK_ALIGN_CENTER
        for label in [titleLabel, detailLabel] {
            label.xalign = 0
            label.ellipsize = PANGO_ELLIPSIZE_MIDDLE
            text.append(label)
        }
        titleLabel.addStyleClass("row-title")
        detailLabel.addStyleClass("dim-label")
        content.append(text, expand: true)

        badge.valign = GTK_ALIGN_CENTER
        content.append(badge)
        spinner.valign = GTK_ALIGN_CENTER
        spinner.setSizeRequest(width: 24, height: 24)
        content.append(spinner)

        row.setChild(content)
        content.showAll()
        spinner.hide()
        badge.hide()

        let item = download.item
        titleLabel.text = item.displayTitle
        if let badgeIcon = Self.badgeIcon(for: item.kind) {
            badge.setIcon(badgeIcon, pixelSize: 16)
            badge.tooltip = item.kind == .audio ? "Audio" : item.kind == .video ? "Video" : "Opens in the browser"
            badge.show()
        }
        row.accessibleName = item.displayTitle
    }

    /// Applies the model's state; runs on every change of this row's download.
    func update() {
        let item = download.item
        spinner.isSpinning = download.state == .loading
        removeErrorStyle()
        switch download.state {
        case .notStarted, .loading:
            showPlaceholder("image-x-generic-symbolic")
            detailLabel.text = detailText
            row.tooltip = item.altText
        case .loaded:
            if let image = download.thumbnail { thumbnail.setPixbuf(image.pixbuf, scale: scale) }
            thumbnailStack.visibleChildName = "image"
            detailLabel.text = detailText
            row.tooltip = item.altText
        case .failed(let reason):
            thumbnailStack.visibleChildName = "failed"
            retryButton.tooltip = "\(reason). Click to try again."
            retryButton.accessibleName = "Retry: \(reason)"
            detailLabel.text = reason
            row.addStyleClass("failed")
            row.tooltip = reason
        case .sensitiveHidden:
            thumbnailStack.visibleChildName = "sensitive"
            detailLabel.text = "Sensitive content hidden"
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
        let item = download.item
        var parts = [item.fileName]
        if let width = item.width, let height = item.height, width > 0, height > 0 {
            parts.append("\(width) × \(height)")
        } else if let image = download.thumbnail, item.kind == .image {
            parts.append("\(image.originalWidth) × \(image.originalHeight)")
        }
        return parts.joined(separator: " · ")
    }

    private static func badgeIcon(for kind: GalleryItem.Kind) -> String? {
        switch kind {
        case .image: nil
        case .video: "media-playback-start-symbolic"
        case .audio: "audio-x-generic-symbolic"
        case .other: "web-browser-symbolic"
        }
    }
}
