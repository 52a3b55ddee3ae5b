import GObjectBindings
import GtkBindings
import GalleryCore

/// One recycled tile of the gallery grid: a square picture (the thumbnail fitted inside, or a placeholder, a
/// failure icon, a hidden sensitive item), the title under it, a spinner and the item's badge in the
/// picture's lower corners. Like `GalleryRow`, it shows its bound model's state and keeps none of its own.
@MainActor
public final class GalleryTile: GalleryCell {
    /// The picture's side in logical pixels: four tiles across the window's default width, seven at 1280 px.
    public static let thumbnailSize = 160

    /// The item the tile shows now; nil while it waits in the pool.
    public var download: ItemViewModel? { binder.download }
    public let child = FlowBoxChild()
    let slot: ThumbnailSlot
    /// The title, cut short in the middle to the tile's width; new text only repaints it (`TextLine`).
    let titleLabel = TextLine(ellipsize: .middle)
    let spinner = Spinner()
    static let spinnerSize = 16
    let badgeView = ItemBadgeView(showsLength: true)
    var badge: Image { badgeView.image }
    private lazy var binder = CellBinder(widget: child, slot: slot, spinner: spinner, badgeView: badgeView)

    var thumbnail: Image { slot.shownImage }
    var cellWidget: Widget { child }

    public init(scale: Int) {
        slot = ThumbnailSlot(size: Self.thumbnailSize, scale: scale)
        layOut()
    }

    /// Shows `download`, at `position` of `total` items shown, and follows its changes until `unbind`.
    public func bind(_ download: ItemViewModel, position: Int, total: Int) {
        titleLabel.text = download.item.displayTitle
        binder.bind(download, position: position, total: total)
    }

    /// Back to the pool: the model hears nothing more from this tile, and the tile lets go of the pixels.
    public func unbind() { binder.unbind() }

    func describePosition(total: Int) { binder.describePosition(total: total) }

    private func layOut() {
        child.addStyleClass("gallery-tile")
        child.setTooltipProvider { [weak self] in self?.tooltipText }
        // Not named `overlay`: Adwaita's `colorswatch:last-child overlay` would have GTK restyle the picture of
        // every tile whenever a tile enters or leaves the grid.
        let picture = Overlay(cssName: "gallery-picture")
        picture.setChild(slot.stack)
        for corner in [badgeView.widget, spinner] {
            corner.valign = .end
            corner.setMargins(top: 6, bottom: 6, start: 6, end: 6)
            picture.addOverlay(corner, passThrough: true)
        }
        badgeView.widget.halign = .start
        spinner.halign = .end
        spinner.setSizeRequest(width: Self.spinnerSize, height: Self.spinnerSize)

        titleLabel.addStyleClass("tile-title")

        let content = Box(.vertical, spacing: 6)
        content.append(picture)
        content.append(titleLabel)
        child.setChild(content)
        content.showAll()
        spinner.hide()
        badge.hide()
        badgeView.widget.hide()
    }

    /// The title may be cut short under the tile: the tooltip has it whole, with what a row's detail line
    /// says. Made when the pointer rests on the tile, not at every rebind.
    var tooltipText: String? {
        guard let download else { return nil }
        let item = download.item
        var lines = [item.displayTitle]
        switch download.state {
        case .failed(let reason):
            lines.append(reason)
        case .sensitiveHidden:
            lines.append(tr("Sensitive content hidden"))
        case .notStarted, .loading, .loaded, .noPreview:
            lines.append(GalleryRow.detailText(download))
            if let altText = item.altText, altText != item.displayTitle { lines.append(altText) }
        }
        return lines.joined(separator: "\n")
    }
}
