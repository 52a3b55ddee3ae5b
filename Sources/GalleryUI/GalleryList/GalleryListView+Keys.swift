import GObjectBindings
import GtkBindings
import GalleryCore

/// Keyboard, selection, focus and activation on the recycled cells. The box holds only the cells on screen,
/// so its own key navigation would stop at the last of them: the keys move the selection through the whole
/// gallery here instead, and the cells follow. In the grid ↑ and ↓ move a line (`columns` items), ← and →
/// an item; in the list every line is one item.
extension GalleryListView {
    func connectInput() {
        for box in [listPool.box, gridPool.box] {
            box.boxWidget.onKeyPress { [weak self] key, modifiers in
                self?.keyPressed(key, modifiers) ?? false
            }
            box.onCellSelected { [weak self, weak box] position in
                guard let self, box === self.cellBox, !self.isSyncingSelection, let position,
                      let index = self.pool.index(atPosition: position) else { return }
                self.selectedIndex = index
            }
            box.onCellActivated { [weak self, weak box] position in
                guard let self, box === self.cellBox, let index = self.pool.index(atPosition: position) else { return }
                self.activate(index)
            }
        }
    }

    /// The selected item's model.
    public var selectedDownload: ImageDownload? { selectedIndex.flatMap { download(at: $0) } }

    /// Selects item `index` and scrolls as little as needed to show its line whole; with `focus`, the
    /// keyboard focus goes to its cell.
    public func select(_ index: Int, focus: Bool = false) {
        guard index >= 0, index < rowCount else { return }
        selectedIndex = index
        scrollIntoView(index)
        syncSelection(focus: focus || viewport.containsFocus)
    }

    /// Opens item `index`, as a double-click on its cell or Enter would.
    public func activate(_ index: Int) {
        guard let download = download(at: index) else { return }
        selectedIndex = index
        syncSelection(focus: viewport.containsFocus)
        onActivate?(download)
    }

    /// Selects, in the box, the cell bound to the selected item (or none); with `focus`, gives that cell the
    /// keyboard focus, or the box itself while the item is scrolled away.
    func syncSelection(focus: Bool) {
        isSyncingSelection = true
        defer { isSyncingSelection = false }
        let position = selectedIndex.flatMap { pool.position(ofIndex: $0) }
        cellBox.selectCell(at: position)
        guard focus else { return }
        if let index = selectedIndex, let bound = pool.cell(forIndex: index) {
            if !bound.cellWidget.isFocus { bound.cellWidget.grabFocus() }
        } else if !cellBox.boxWidget.isFocus {
            cellBox.boxWidget.grabFocus()
        }
    }

    func scrollIntoView(_ index: Int) {
        let top = geometry.top(ofLine: geometry.line(of: index))
        let bottom = top + Double(lineHeight)
        if top < adjustment.value {
            adjustment.value = top
        } else if bottom > adjustment.value + adjustment.pageSize {
            adjustment.value = bottom - adjustment.pageSize
        }
    }

    /// Lines a Page Up/Down moves: a screenful less one, so one line stays in view.
    private var linesPerPage: Int { max(1, Int(adjustment.pageSize) / max(1, lineHeight) - 1) }

    private func keyPressed(_ key: Key, _ modifiers: KeyModifiers) -> Bool {
        guard rowCount > 0 else { return false }
        switch key {
        case .up, .keypadUp: moveLines(-1)
        case .down, .keypadDown: moveLines(1)
        case .left, .keypadLeft, .right, .keypadRight:
            // The list's rows have nothing beside them: GTK moves the focus inside the row (its retry button).
            guard columns > 1 else { return false }
            let forward = (key == .right || key == .keypadRight) != cellBox.boxWidget.isRightToLeft
            move(to: (selectedIndex ?? visibleRange.first ?? 0) + (selectedIndex == nil ? 0 : forward ? 1 : -1))
        case .pageUp, .keypadPageUp: moveLines(-linesPerPage)
        case .pageDown, .keypadPageDown: moveLines(linesPerPage)
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

    /// Up (negative) or down by `lines` lines, in the same column. Past the first line: that column of the
    /// first line; past the last: the last item, unless the cursor is on the last line already. With nothing
    /// selected, ↓ selects the first item on screen and the others move from it.
    private func moveLines(_ lines: Int) {
        let cursor = selectedIndex ?? visibleRange.first ?? 0
        if selectedIndex == nil, lines == 1 { return move(to: cursor) }
        let geometry = self.geometry
        let target = cursor + lines * columns
        if target < 0 {
            move(to: geometry.column(of: cursor))
        } else if target >= rowCount {
            move(to: geometry.line(of: cursor) < geometry.lineCount - 1 ? rowCount - 1 : cursor)
        } else {
            move(to: target)
        }
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
