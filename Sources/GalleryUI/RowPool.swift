import GtkBindings
import GalleryCore

/// The recycled rows of the gallery list: a handful of `GalleryRow`s bound to a contiguous range of the
/// gallery's items, in order, as the rows of the list box — what GTK 4's GtkListView does with its
/// factory's bind and unbind. The list box never holds more rows than the screen shows plus a margin,
/// however long the gallery.
///
/// Rebinding is stable: when the range moves by a few items, the rows of items still in range keep their
/// widget (and so their focus and their painted thumbnail); only the rows that left are unbound, moved to
/// the other end and bound to the items that entered. A jump rebinds every row in place.
@MainActor
final class RowPool {
    let listBox: ListBox
    /// Bound rows in list order: `rows[k]` shows item `range.lowerBound + k`.
    private(set) var rows: [GalleryRow] = []
    private(set) var range: Range<Int> = 0..<0
    /// Rows waiting to be bound, outside the list box.
    private var spare: [GalleryRow] = []
    private let scale: () -> Int

    init(listBox: ListBox, scale: @escaping () -> Int) {
        self.listBox = listBox
        self.scale = scale
    }

    func row(forIndex index: Int) -> GalleryRow? {
        range.contains(index) ? rows[index - range.lowerBound] : nil
    }

    /// The item shown by the list box's row at `position`.
    func index(atPosition position: Int) -> Int? {
        (0..<rows.count).contains(position) ? range.lowerBound + position : nil
    }

    func position(ofIndex index: Int) -> Int? {
        range.contains(index) ? index - range.lowerBound : nil
    }

    /// Binds the rows to `newRange` of `downloads` (whose count goes into the rows' accessible descriptions).
    /// Work is proportional to the rows that change, never to the gallery.
    func bind(_ newRange: Range<Int>, of downloads: [ImageDownload]) {
        guard newRange != range else { return }
        let overlap = newRange.clamped(to: range)
        if overlap.isEmpty {
            rebindInPlace(newRange, downloads)
        } else {
            slide(to: newRange, keeping: overlap, downloads)
        }
        range = newRange
    }

    /// Unbinds every row (a new gallery, or none).
    func clear(_ downloads: [ImageDownload]) {
        bind(0..<0, of: downloads)
    }

    /// The gallery grew: the rows' "Item 12 of N" descriptions follow.
    func totalChanged(_ total: Int) {
        for row in rows { row.describePosition(total: total) }
    }

    private func rebindInPlace(_ newRange: Range<Int>, _ downloads: [ImageDownload]) {
        for row in rows { row.unbind() }
        while rows.count > newRange.count { retire(rows.removeLast()) }
        while rows.count < newRange.count {
            let row = takeRow()
            listBox.insert(row.row, at: rows.count)
            rows.append(row)
        }
        for (offset, row) in rows.enumerated() {
            row.bind(downloads[newRange.lowerBound + offset], total: downloads.count)
        }
    }

    private func slide(to newRange: Range<Int>, keeping overlap: Range<Int>, _ downloads: [ImageDownload]) {
        let keptFrom = overlap.lowerBound - range.lowerBound
        let keptTo = overlap.upperBound - range.lowerBound
        for row in rows[..<keptFrom] + rows[keptTo...] {
            row.unbind()
            retire(row)
        }
        let kept = rows[keptFrom..<keptTo]
        var above: [GalleryRow] = []
        for (position, index) in (newRange.lowerBound..<overlap.lowerBound).enumerated() {
            let row = takeRow()
            listBox.insert(row.row, at: position)
            row.bind(downloads[index], total: downloads.count)
            above.append(row)
        }
        var below: [GalleryRow] = []
        for index in overlap.upperBound..<newRange.upperBound {
            let row = takeRow()
            listBox.insert(row.row, at: -1)
            row.bind(downloads[index], total: downloads.count)
            below.append(row)
        }
        rows = above + kept + below
    }

    private func retire(_ row: GalleryRow) {
        listBox.remove(row.row)
        spare.append(row)
    }

    private func takeRow() -> GalleryRow {
        if let row = spare.popLast() { return row }
        let row = GalleryRow(scale: scale())
        row.row.show()
        return row
    }
}
