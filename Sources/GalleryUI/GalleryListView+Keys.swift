import GObjectBindings
import GtkBindings
import GalleryCore

/// Keyboard, selection, focus and activation on the recycled list. The list box holds only the rows on
/// screen, so its own key navigation would stop at the last of them: the keys move the selection through
/// the whole gallery here instead, and the rows follow.
extension GalleryListView {
    func connectInput() {
        listBox.onKeyPress { [weak self] key, modifiers in
            self?.keyPressed(key, modifiers) ?? false
        }
        listBox.onRowSelected { [weak self] position in
            guard let self, !self.isSyncingSelection, let position, let index = self.pool.index(atPosition: position) else { return }
            self.selectedIndex = index
        }
        listBox.onRowActivated { [weak self] position in
            guard let self, let index = self.pool.index(atPosition: position) else { return }
            self.activate(index)
        }
    }

    /// The selected item's model.
    public var selectedDownload: ImageDownload? { selectedIndex.flatMap { download(at: $0) } }

    /// Selects item `index` and scrolls as little as needed to show it whole; with `focus`, the keyboard
    /// focus goes to its row.
    public func select(_ index: Int, focus: Bool = false) {
        guard index >= 0, index < rowCount else { return }
        selectedIndex = index
        scrollIntoView(index)
        syncSelection(focus: focus || listBox.containsFocus)
    }

    /// Opens item `index`, as a double-click on its row or Enter would.
    public func activate(_ index: Int) {
        guard let download = download(at: index) else { return }
        selectedIndex = index
        syncSelection(focus: listBox.containsFocus)
        onActivate?(download)
    }

    /// Selects, in the list box, the row bound to the selected item (or none); with `focus`, gives that row
    /// the keyboard focus, or the list box itself while the item is scrolled away.
    func syncSelection(focus: Bool) {
        isSyncingSelection = true
        defer { isSyncingSelection = false }
        let position = selectedIndex.flatMap { pool.position(ofIndex: $0) }
        listBox.selectRow(at: position)
        guard focus else { return }
        if let index = selectedIndex, let bound = pool.row(forIndex: index) {
            if !bound.row.isFocus { bound.row.grabFocus() }
        } else if !listBox.isFocus {
            listBox.grabFocus()
        }
    }

    private func scrollIntoView(_ index: Int) {
        let top = Double(index * rowHeight)
        let bottom = top + Double(rowHeight)
        if top < adjustment.value {
            adjustment.value = top
        } else if bottom > adjustment.value + adjustment.pageSize {
            adjustment.value = bottom - adjustment.pageSize
        }
    }

    /// Rows a Page Up/Down moves: a screenful less one, so one row stays in view.
    private var rowsPerPage: Int { max(1, Int(adjustment.pageSize) / max(1, rowHeight) - 1) }

    private func keyPressed(_ key: Key, _ modifiers: KeyModifiers) -> Bool {
        let count = rowCount
        guard count > 0 else { return false }
        let cursor = selectedIndex ?? visibleRange.first
        switch key {
        case .up, .keypadUp: move(to: (cursor ?? 0) - 1)
        case .down, .keypadDown: move(to: selectedIndex.map { $0 + 1 } ?? cursor ?? 0)
        case .pageUp, .keypadPageUp: move(to: (cursor ?? 0) - rowsPerPage)
        case .pageDown, .keypadPageDown: move(to: (cursor ?? 0) + rowsPerPage)
        case .home, .keypadHome: move(to: 0)
        case .end, .keypadEnd: moveToEnd()
        case .enter, .keypadEnter, .isoEnter, .space, .keypadSpace:
            guard let selectedIndex else { return false }
            activate(selectedIndex)
        case .menu:
            return openContextMenuForSelection()
        case .f10 where modifiers.contains(.shift):
            return openContextMenuForSelection()
        default:
            return false
        }
        return true
    }

    private func move(to index: Int) {
        kinetic.stop()
        select(min(max(0, index), rowCount - 1), focus: true)
    }

    /// End: the last item loaded, the view at the very bottom (the footer says whether more is coming), and
    /// the next page asked for.
    private func moveToEnd() {
        kinetic.stop()
        selectedIndex = rowCount - 1
        adjustment.value = adjustment.maximumValue
        syncSelection(focus: true)
        if let gallery, gallery.canLoadMore { gallery.loadMore() }
    }
}
