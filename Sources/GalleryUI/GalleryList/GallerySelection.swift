import GObjectBindings
import GtkBindings
import GalleryCore

/// Keyboard, selection, focus and activation on the recycled cells. The box holds only the cells on screen,
/// so its own key navigation would stop at the last of them: the keys move the selection through the whole
/// gallery here instead, and the cells follow. In the grid ↑ and ↓ move a line (`columns` items), ← and →
/// an item; in the list every line is one item. The selection is a model (`index`, `chosen`), not a widget,
/// so it survives rebinding and a switch between list and grid.
///
/// Several items are selected as GTK's own boxes do it (`gtk_flow_box_update_selection`): Ctrl+click adds or
/// removes one, Shift+click or Shift with a move key selects from the anchor (the last plain or Ctrl click) to
/// the item, Ctrl+A selects every item shown; a plain click, a move without Shift or Escape goes back to one.
@MainActor
final class GallerySelection {
    /// The keyboard cursor, and the item selected when only one is.
    private(set) var index: Int?
    /// Every item selected, by position (`index` among them unless Ctrl+click took it out).
    private(set) var chosen: Set<Int> = []
    /// Where a Shift+click's range starts.
    private var anchor: Int?
    /// The selection changed (the window enables what applies to it).
    var onChange: (@MainActor () -> Void)?
    private unowned let view: GalleryListView

    init(view: GalleryListView) {
        self.view = view
    }

    /// Follows clicks, double-clicks, Enter and the keys in the list's and the grid's box.
    func connect(_ boxes: [any CellBox]) {
        for box in boxes {
            box.boxWidget.onKeyPress { [weak self] key, modifiers in
                self?.keyPressed(key, modifiers) ?? false
            }
            // Clicks are read here, before the box's own handling: the model decides, the box shows it. The box
            // also changes its selection when the pool removes or hides a cell, which says nothing of the
            // user's, so its selection signals are not listened to.
            box.boxWidget.onButtonPress { [weak self, weak box] press in
                guard let self, let box, box === self.view.cellBox, press.isPrimaryButton,
                      let point = self.view.viewport.point(fromRootX: press.rootX, y: press.rootY),
                      let cell = self.view.cell(atViewportX: Int(point.x), y: Int(point.y)),
                      let download = cell.download, let position = self.view.position(of: download) else { return false }
                if press.modifiers.contains(.shift) {
                    self.extend(to: position)
                } else if press.modifiers.contains(.control) {
                    self.toggle(position)
                } else {
                    // A plain click: that item alone; the box then selects and focuses its cell itself (and a
                    // double-click activates it).
                    if !press.isDoubleClick { self.setSingle(position) }
                    self.sync(focus: false)
                    return false
                }
                return true
            }
            box.onCellActivated { [weak self, weak box] position in
                guard let self, box === self.view.cellBox,
                      let index = self.view.pool.index(atPosition: position) else { return }
                self.activate(index)
            }
        }
    }

    /// Nothing selected (a new gallery, or none).
    func clear() {
        index = nil
        chosen = []
        anchor = nil
        onChange?()
    }

    /// `index` alone, which becomes the anchor.
    private func setSingle(_ index: Int) {
        self.index = index
        chosen = [index]
        anchor = index
        onChange?()
    }

    /// Ctrl+click: the item joins the selection or leaves it; the cursor and the anchor move to it.
    func toggle(_ position: Int) {
        guard position >= 0, position < view.rowCount else { return }
        if chosen.contains(position) { chosen.remove(position) } else { chosen.insert(position) }
        index = position
        anchor = position
        sync(focus: true)
        onChange?()
    }

    /// Shift+click: from the anchor to the item, nothing else; the anchor stays.
    func extend(to position: Int) {
        guard position >= 0, position < view.rowCount else { return }
        let start = anchor ?? index ?? position
        chosen = Set(min(start, position)...max(start, position))
        anchor = start
        index = position
        sync(focus: true)
        onChange?()
    }

    /// Ctrl+A: every item shown (loaded, or found).
    func selectAll() {
        guard view.rowCount > 0 else { return }
        chosen = Set(0..<view.rowCount)
        if index == nil { index = 0 }
        anchor = anchor ?? index
        sync(focus: true)
        onChange?()
    }

    /// The selected positions, in order.
    var positions: [Int] { chosen.sorted() }

    /// Selects item `index` and (with `scrolling`) scrolls as little as needed to show its line whole; with
    /// `focus`, the keyboard focus goes to its cell.
    func select(_ index: Int, focus: Bool, scrolling: Bool = true) {
        guard index >= 0, index < view.rowCount else { return }
        setSingle(index)
        if scrolling { scrollIntoView(index) }
        sync(focus: focus || view.viewport.containsFocus)
    }

    /// Opens item `index`, as a double-click on its cell or Enter would.
    func activate(_ index: Int) {
        guard let download = view.download(at: index) else { return }
        setSingle(index)
        sync(focus: view.viewport.containsFocus)
        view.onActivate?(download)
    }

    /// Selects, in the box, the cell bound to the selected item (or none); with `focus`, gives that cell the
    /// keyboard focus, or the box itself while the item is scrolled away.
    func sync(focus: Bool) {
        let pool = view.pool
        let box = view.cellBox
        box.selectCells(at: Set(chosen.compactMap { pool.position(ofIndex: $0) }))
        guard focus else { return }
        if let index, let bound = pool.cell(forIndex: index) {
            if !bound.cellWidget.isFocus { bound.cellWidget.grabFocus() }
        } else if !box.boxWidget.isFocus {
            box.boxWidget.grabFocus()
        }
    }

    func scrollIntoView(_ index: Int) {
        let geometry = view.geometry
        let adjustment = view.adjustment
        let top = geometry.top(ofLine: geometry.line(of: index))
        let bottom = top + Double(view.lineHeight)
        if top < adjustment.value {
            adjustment.value = top
        } else if bottom > adjustment.value + adjustment.pageSize {
            adjustment.value = bottom - adjustment.pageSize
        }
    }

    /// Lines a Page Up/Down moves: a screenful less one, so one line stays in view.
    private var linesPerPage: Int { max(1, Int(view.adjustment.pageSize) / max(1, view.lineHeight) - 1) }

    /// Shift is held with the key being handled: a move extends the selection from the anchor.
    private var extendsByKey = false

    private func keyPressed(_ key: Key, _ modifiers: KeyModifiers) -> Bool {
        guard view.rowCount > 0 else { return false }
        extendsByKey = modifiers.contains(.shift)
        defer { extendsByKey = false }
        switch key {
        case .up, .keypadUp: moveLines(-1)
        case .down, .keypadDown: moveLines(1)
        case .left, .keypadLeft, .right, .keypadRight:
            // The list's rows have nothing beside them: GTK moves the focus inside the row (its retry button).
            guard view.columns > 1 else { return false }
            let forward = (key == .right || key == .keypadRight) != view.cellBox.boxWidget.isRightToLeft
            move(to: (index ?? view.visibleRange.first ?? 0) + (index == nil ? 0 : forward ? 1 : -1))
        case .pageUp, .keypadPageUp: moveLines(-linesPerPage)
        case .pageDown, .keypadPageDown: moveLines(linesPerPage)
        case .home, .keypadHome: move(to: 0)
        case .end, .keypadEnd: moveToEnd()
        case .enter, .keypadEnter, .isoEnter, .space, .keypadSpace:
            guard let index else { return false }
            activate(index)
        case .letterA where modifiers == .control, .capitalA where modifiers == .control:
            selectAll()
        case .escape where chosen.count > 1:
            guard let index else { return false }
            setSingle(index)
            sync(focus: true)
        case .menu:
            return view.openContextMenuForSelection()
        case .f10 where modifiers.contains(.shift):
            return view.openContextMenuForSelection()
        default:
            return false
        }
        return true
    }

    /// Up (negative) or down by `lines` lines, in the same column. Past the first line: that column of the
    /// first line; past the last: the last item, unless the cursor is on the last line already. With nothing
    /// selected, ↓ selects the first item on screen and the others move from it.
    private func moveLines(_ lines: Int) {
        let cursor = index ?? view.visibleRange.first ?? 0
        if index == nil, lines == 1 { return move(to: cursor) }
        let geometry = view.geometry
        let count = view.rowCount
        let target = cursor + lines * view.columns
        if target < 0 {
            move(to: geometry.column(of: cursor))
        } else if target >= count {
            move(to: geometry.line(of: cursor) < geometry.lineCount - 1 ? count - 1 : cursor)
        } else {
            move(to: target)
        }
    }

    /// The cursor to `index`: that item alone, or with Shift, everything from the anchor to it.
    private func move(to index: Int) {
        view.kinetic.stop()
        let target = min(max(0, index), view.rowCount - 1)
        guard extendsByKey else { return select(target, focus: true) }
        scrollIntoView(target)
        extend(to: target)
    }

    /// End: the last item loaded, the view at the very bottom (the footer says whether more is coming), and
    /// the next page asked for.
    private func moveToEnd() {
        view.kinetic.stop()
        setSingle(view.rowCount - 1)
        view.adjustment.value = view.adjustment.maximumValue
        sync(focus: true)
        // A find searches what is loaded: its end asks for no more.
        if view.foundItems == nil, let gallery = view.gallery, gallery.canLoadMore { gallery.loadMore() }
    }
}
