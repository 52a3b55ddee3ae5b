import GObjectBindings
import GtkBindings
import GalleryCore

/// One recycled row of the gallery list: thumbnail area, title, detail line, spinner. The list binds it to
/// one download model at a time and rebinds it as the view moves; it shows the model's state and keeps none
/// of its own, so a row rebound mid-download can never show the previous item's image.
@MainActor
public final class GalleryRow: GalleryCell {
    public static let thumbnailSize = 96

    /// The item the row shows now; nil while it waits in the pool.
    public var download: ItemViewModel? { binder.download }
    public let row = ListBoxRow()
    let slot: ThumbnailSlot
    /// The title and the detail line, cut short in the middle to the row's width. `TextLine`s, not labels: new
    /// text repaints them without measuring them again, and every row is rebound as End is held, where measuring
    /// the labels again made the longest frames (`end10k`).
    let titleLabel = TextLine(ellipsize: .middle, alignment: .start)
    let detailLabel = TextLine(ellipsize: .middle, alignment: .start)
    let spinner = Spinner()
    static let spinnerSize = 24
    let badgeView = ItemBadgeView()
    var badge: Image { badgeView.image }
    private lazy var binder = CellBinder(widget: row, slot: slot, spinner: spinner, badgeView: badgeView)

    var thumbnailStack: Stack { slot.stack }
    var thumbnail: Image { slot.shownImage }
    var retryButton: Button { slot.retryButton }
    var revealButton: Button { slot.revealButton }
    var cellWidget: Widget { row }
    /// The badge the row shows now.
    var shownBadge: ItemBadge? { badgeView.shown }

    public init(scale: Int) {
        slot = ThumbnailSlot(size: Self.thumbnailSize, scale: scale)
        layOut()
        binder.onUpdate = { [weak self] download in self?.update(download) }
    }

    /// Shows `download`, at `position` of `total` items shown, and follows its changes until `unbind`.
    public func bind(_ download: ItemViewModel, position: Int, total: Int) {
        titleLabel.text = download.item.displayTitle
        binder.bind(download, position: position, total: total)
    }

    /// Back to the pool: the model hears nothing more from this row, and the row lets go of the pixels.
    public func unbind() { binder.unbind() }

    func describePosition(total: Int) { binder.describePosition(total: total) }

    private func layOut() {
        let content = Box(.horizontal, spacing: 12)
        content.setMargins(top: 6, bottom: 6, start: 12, end: 12)
        row.addStyleClass("gallery-row")
        row.setTooltipProvider { [weak self] in self?.tooltipText }
        content.append(slot.stack)

        let text = Box(.vertical, spacing: 4)
        text.valign = .center
        for label in [titleLabel, detailLabel] {
            // Read by assistive technologies as the row's lines, as its labels were.
            label.namesItselfAfterText = true
            text.append(label)
        }
        titleLabel.addStyleClass("row-title")
        detailLabel.addStyleClass("dim-label")
        content.append(text, expand: true)

        badge.valign = .center
        content.append(badge)
        spinner.valign = .center
        spinner.setSizeRequest(width: Self.spinnerSize, height: Self.spinnerSize)
        content.append(spinner)

        row.setChild(content)
        content.showAll()
        spinner.hide()
        badge.hide()
    }

    /// The row's own parts, after the binder updated the shared ones.
    private func update(_ download: ItemViewModel) {
        let detail = switch download.state {
        case .failed(let reason): reason
        case .sensitiveHidden: tr("Sensitive content hidden")
        case .notStarted, .loading, .loaded, .noPreview: Self.detailText(download)
        }
        detailLabel.text = detail
    }

    /// The failure, or the item's alt text. Made when the pointer rests on the row, not at every rebind: a tooltip
    /// set on a shown widget makes GTK ask the X server where the pointer is, synchronously, which waits for the
    /// X server's turn on a busy machine (`end10k-p99-gap`).
    var tooltipText: String? {
        guard let download else { return nil }
        switch download.state {
        case .failed(let reason): return reason
        case .sensitiveHidden: return nil
        case .notStarted, .loading, .loaded, .noPreview: return download.item.altText
        }
    }

    /// "quiet-harbour.jpg · 1600 × 1200", "clip.mp4 · 1280 × 720 · 1:28" (a video's length, as the service
    /// states it); in the New view, whose it is first: "aurora on Demo · quiet-harbour.jpg · …".
    static func detailText(_ download: ItemViewModel) -> String {
        let item = download.item
        var parts = [item.fileName]
        if let origin = download.origin { parts.insert(origin, at: 0) }
        if let width = item.width, let height = item.height, width > 0, height > 0 {
            parts.append("\(width) × \(height)")
        } else if let size = download.decodedImageSize, item.kind == .image {
            parts.append("\(size.width) × \(size.height)")
        }
        if let duration = DurationText.stated(item.media) { parts.append(duration) }
        return parts.joined(separator: " · ")
    }
}
