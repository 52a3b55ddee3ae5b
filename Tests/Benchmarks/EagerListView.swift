import CGLib
import CGtk
import GObjectBindings
import GtkBindings
import GalleryCore
import GalleryUI

/// Baseline (c): the gallery list as it was before issue 7 — a GtkListBox with one row per item, every row
/// made when its page arrives and kept for good, in a GtkScrolledWindow. Kept here, and only here, to be
/// measured against the recycled list.
@MainActor
final class EagerListView {
    let scrolledWindow = ScrolledWindow()
    let listBox = ListBox()
    private var rows: [GalleryRow] = []
    private var visible: Range<Int> = 0..<0
    private var update: MainLoopSource?
    private(set) var gallery: Gallery?

    init() {
        listBox.selectionMode = .browse
        let content = GtkBindings.Box(.vertical)
        content.append(listBox)
        scrolledWindow.setChild(content)
        scrolledWindow.vexpand = true
        content.showAll()
        let adjustment = scrolledWindow.verticalAdjustment
        adjustment.onValueChanged { [weak self] in self?.scheduleUpdate() }
        adjustment.onChanged { [weak self] in self?.scheduleUpdate() }
        listBox.onSizeAllocate { [weak self] _, _ in self?.scheduleUpdate() }
    }

    var rowCount: Int { rows.count }
    var visibleRange: Range<Int> { visible }

    func show(_ gallery: Gallery) {
        self.gallery = gallery
        gallery.onDownloadsAppended = { [weak self] downloads in self?.append(downloads) }
    }

    private func append(_ downloads: [ItemViewModel]) {
        let total = (gallery?.downloads.count ?? 0)
        for download in downloads {
            let row = GalleryRow(scale: 1)
            row.bind(download, position: download.index, total: total)
            row.row.show()
            listBox.insert(row.row, at: -1)
            rows.append(row)
        }
        scheduleUpdate()
    }

    /// As the old list did: scrolling, resizing and new rows merged into one idle pass that tells the rows
    /// in the viewport they are visible (and so start downloading), and pages near the end.
    private func scheduleUpdate() {
        guard update?.isActive != true else { return }
        update = MainLoopSource.idle { [weak self] in self?.updateVisibility() }
    }

    private func updateVisibility() {
        update = nil
        let range = computeVisibleRange()
        for index in visible where !range.contains(index) { rows[index].download?.setVisible(false) }
        for index in range { rows[index].download?.setVisible(true) }
        visible = range
        if let gallery, gallery.canLoadMore, range.upperBound >= rows.count - GalleryListView.prefetchRows {
            gallery.loadMore()
        }
    }

    private func computeVisibleRange() -> Range<Int> {
        guard listBox.isMapped, !rows.isEmpty, let origin = listBox.translate(x: 0, y: 0, to: scrolledWindow) else {
            return 0..<0
        }
        let top = max(0, -origin.y)
        let bottom = min(listBox.allocatedHeight, -origin.y + scrolledWindow.allocatedHeight) - 1
        guard bottom >= top, let first = listBox.rowIndex(atY: top) else { return 0..<0 }
        let last = listBox.rowIndex(atY: bottom) ?? (rows.count - 1)
        return first..<(max(first, last) + 1)
    }
}
