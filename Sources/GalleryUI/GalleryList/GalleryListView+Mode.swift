import GObjectBindings
import GtkBindings
import GalleryCore

/// The two views of the gallery and their lines: the list (a row per line) and the grid (as many tiles per
/// line as the width allows), the switch between them, and the measuring of a line.
extension GalleryListView {
    /// Longer side of the thumbnails the cells show, in device pixels: a row's 96 px, a tile's 160 px.
    public var thumbnailPixelSize: Int {
        (mode == .grid ? GalleryTile.thumbnailSize : GalleryRow.thumbnailSize) * max(1, viewport.scaleFactor)
    }

    /// Shows the gallery as a list or as a grid. The selected item stays selected (and in view, if it was),
    /// the item at the top of the view stays at the top, and the keyboard focus stays in the view; the cells
    /// of the new view ask for thumbnails of their size.
    public func setMode(_ newMode: GalleryViewMode) {
        guard newMode != mode else { return }
        let anchor = geometry.anchor(at: adjustment.value)
        let selectionWasVisible = selectedIndex.map { visibleRange.contains($0) } ?? false
        let hadFocus = viewport.containsFocus
        demand.reset()
        kinetic.stop()
        pool.clear(gallery?.downloads ?? [])
        cellBox.boxWidget.hide()
        mode = newMode
        cellBox.boxWidget.show()
        if let measured = measuredLineHeights[newMode] {
            lineHeight = measured
            isLineHeightMeasured = true
        } else {
            lineHeight = newMode == .grid ? Self.estimatedTileLineHeight : Self.estimatedRowHeight
            isLineHeightMeasured = false
        }
        gallery?.thumbnailPixelSize = thumbnailPixelSize
        updateColumns()
        configureAdjustment(value: geometry.value(for: anchor))
        positionChanged()
        if selectionWasVisible, let selectedIndex { scrollIntoView(selectedIndex) }
        if hadFocus { syncSelection(focus: true) }
    }

    /// Tiles per line for the viewport's width; 1 in the list. The flow box is given exactly that many tiles'
    /// width, centred, so that its lines are the gallery's lines.
    func updateColumns() {
        let spacing = Self.tileSpacing
        let available = viewportWidth - 2 * Self.gridMargin + spacing
        columns = mode == .grid ? max(1, available / (tileWidth + spacing)) : 1
        demand.aheadCount = ThumbnailDemand.prefetchRows * columns
        guard mode == .grid else { return }
        gridPool.revivedCellsPerFrame = columns
        flowBox.setChildrenPerLine(minimum: columns, maximum: columns)
        flowBox.setSizeRequest(width: columns * tileWidth + (columns - 1) * spacing, height: -1)
    }

    /// Cells are of equal size (a row: a 96 px thumbnail beside two ellipsized lines; a tile: its square and
    /// one line of title); one bound cell tells it, first from its size request, then from what its box
    /// really gave it (theme and font included).
    func measureLine() {
        guard !isLineHeightMeasured, viewportWidth > 0, let cell = pool.cells.first else { return }
        isLineHeightMeasured = true
        let widget = cell.cellWidget
        if mode == .grid {
            let width = widget.minimumWidth
            if width > 0, width != tileWidth {
                tileWidth = width
                let anchor = geometry.anchor(at: adjustment.value)
                updateColumns()
                configureAdjustment(value: geometry.value(for: anchor))
                needsAnotherPass = true
            }
            setLineHeight(widget.minimumHeight(forWidth: tileWidth) + Self.tileSpacing)
        } else {
            setLineHeight(widget.minimumHeight(forWidth: viewportWidth))
        }
    }

    func cellsAllocated() {
        guard let cell = pool.cells.first, cell.cellWidget.allocatedHeight > 1 else { return }
        setLineHeight(cell.cellWidget.allocatedHeight + (mode == .grid ? Self.tileSpacing : 0))
    }

    /// Keeps the item at the top of the view there, as far into its line as before.
    private func setLineHeight(_ height: Int) {
        guard height > 0 else { return }
        measuredLineHeights[mode] = height
        guard height != lineHeight else { return }
        let anchor = geometry.anchor(at: adjustment.value)
        lineHeight = height
        configureAdjustment(value: geometry.value(for: anchor))
        positionChanged()
    }
}
