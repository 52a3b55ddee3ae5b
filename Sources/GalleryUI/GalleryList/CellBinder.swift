import GObjectBindings
import GtkBindings
import GalleryCore

/// What a list row and a grid tile do alike to show one model: hold it, follow its changes until unbound,
/// and show its state in the parts both have (the picture, the spinner, the badge, the "failed" style, the
/// accessible name and position). The cell lays those parts out and adds what only it shows (`onUpdate`).
@MainActor
final class CellBinder {
    /// The item the cell shows now; nil while it waits in the pool.
    private(set) var download: ItemViewModel?
    private let widget: Widget
    private let slot: ThumbnailSlot
    private let spinner: Spinner
    private let badgeView: ItemBadgeView
    /// After the shared parts were updated, on every change of the bound model: the cell's own parts.
    var onUpdate: (@MainActor (ItemViewModel) -> Void)?

    /// `widget`: what the box holds (it carries the accessible name and the "failed" style).
    init(widget: Widget, slot: ThumbnailSlot, spinner: Spinner, badgeView: ItemBadgeView) {
        self.widget = widget
        self.slot = slot
        self.spinner = spinner
        self.badgeView = badgeView
    }

    /// Where the item shows (from 0), for "Item N of M".
    private var position = 0

    /// Shows `download`, at `position` of `total` items shown, and follows its changes until `unbind`.
    func bind(_ download: ItemViewModel, position: Int, total: Int) {
        self.download = download
        self.position = position
        download.bind { [weak self] changed in
            guard let self, self.download === changed else { return }
            self.update()
        }
        widget.accessibleName = download.item.displayTitle
        describePosition(total: total)
        update()
    }

    /// Back to the pool: the model hears nothing more from this cell, and the cell lets go of the pixels.
    func unbind() {
        download?.unbind()
        download = nil
        slot.clear()
        spinner.isSpinning = false
    }

    /// "Item 5,001 of 100,000": where the item sits among all shown (the gallery, or what a find matched),
    /// which a screen reader cannot tell from a box holding only the cells on screen.
    func describePosition(total: Int) {
        guard download != nil else { return }
        widget.accessibleDescription = Self.positionText(position, total: total)
    }

    static func positionText(_ position: Int, total: Int) -> String {
        // TRANSLATORS: a row's or tile's place among the items shown (the gallery's, or those a find matched),
        // for screen readers.
        tr("Item {number} of {total}", ["number": position + 1, "total": total])
    }

    /// Applies the model's state; runs on every change of the bound download.
    private func update() {
        guard let download else { return }
        spinner.isSpinning = download.state == .loading
        widget.setStyleClass("failed", download.state.isFailed)
        slot.show(download)
        badgeView.show(ItemBadge.of(download))
        onUpdate?(download)
    }
}
