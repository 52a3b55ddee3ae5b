import GObjectBindings
import GtkBindings
import GalleryCore

/// The gallery, of any length, as a list (a row per item) or a grid (square tiles, as many per line as the
/// width allows): the cells on screen only (plus a line above and below), recycled as the view moves
/// (`CellPool`), and a scrollbar on an adjustment of our own that spans the whole gallery (lines × line
/// height, plus the footer). Both views are the same machinery: items laid out in lines of `columns` items
/// (`LineGeometry`; the list is the one-column case), one pool per view, the same thumbnail demand, keys,
/// selection and context menu.
///
/// Why not a GtkScrolledWindow around all the cells: GTK 3 creates and lays out a widget tree per child
/// (tens of KB each, see ARCHITECTURE.md; it falls over past a few thousand) and stops drawing children
/// beyond 2^23 px of scroll offset (~77,000 rows). Here the box of cells sits in a GtkLayout, moved by less
/// than a line's height, so every widget coordinate stays small at item 100,000.
///
/// The footer follows the last line. The view binds what it shows (the gallery, or a find's `FoundItems`);
/// its collaborators own the rest: `GalleryScroller` the adjustment, scrollbar and viewport, `CellPool` the
/// cells, `GallerySelection` the keys and selection (a model: it survives rebinding and a switch of view),
/// `GalleryContextMenu` the menu, `ThumbnailDemand` what the models are asked to load.
@MainActor
public final class GalleryListView {
    /// How close (in lines) to the end the next page is requested.
    public static let prefetchRows = 6
    /// How many lines ahead of the view (in the scroll's direction) get their thumbnails before they show.
    public static var thumbnailPrefetchRows: Int { ThumbnailDemand.prefetchRows }
    /// Lines bound beyond each edge of the viewport: Tab and the arrow keys find a cell there.
    static let marginRows = 1
    /// New cell widgets per frame (`CellPool`): a row's first frame costs about 3–4 ms of main-thread time
    /// (perf, `thumbnails` benchmark); with Debian's GTK two a frame still made the first gallery's frames
    /// 13–19 ms, one makes them 7–14 ms, and the thumbnails arrive no later (they, not the rows, are what
    /// the first screenful waits for). A tile is about half a row.
    static let newRowsPerFrame = 1
    static let newTilesPerFrame = 4

    /// The list's rows; hidden while the grid shows.
    public let listBox = ListBox()
    /// The grid's tiles; hidden while the list shows.
    public let flowBox = FlowBox()
    private let scroller: GalleryScroller
    /// What the window shows: the viewport and its scrollbar.
    public var container: Box { scroller.container }
    /// Spans the whole gallery (lines × line height, plus the footer).
    public var adjustment: Adjustment { scroller.adjustment }
    var viewport: Layout { scroller.viewport }
    var kinetic: KineticScroll { scroller.kinetic }
    var footerLabel: Label { scroller.footer.label }
    let listPool: CellPool
    let gridPool: CellPool
    private var demand: ThumbnailDemand!
    /// Passes every frame while cells on screen are still to be made.
    private let cellTicker: FrameTicker
    public private(set) var gallery: Gallery?
    /// Only these of the gallery's items show, in its order (what a find matched); nil: all of them.
    private var found: FoundItems?
    public var foundItems: [ItemViewModel]? { found?.items }
    private weak var selectedBeforeFind: ItemViewModel?
    /// The items shown: positions in the view are indices into this.
    private var items: [ItemViewModel] { found?.items ?? gallery?.downloads ?? [] }

    private lazy var selection = GallerySelection(view: self)
    private lazy var contextMenu = GalleryContextMenu(view: self)
    /// The item selected (and, while the view has the focus, the keyboard cursor); survives rebinding and a
    /// switch between list and grid.
    public var selectedIndex: Int? { selection.index }
    /// The selected item's model.
    public var selectedDownload: ItemViewModel? { selectedIndex.flatMap { download(at: $0) } }
    /// Every item selected (Ctrl/Shift+click, Ctrl+A), in the order they show.
    public var selectedDownloads: [ItemViewModel] { selection.positions.compactMap { download(at: $0) } }
    /// The selection changed.
    public var onSelectionChange: (@MainActor () -> Void)? {
        get { selection.onChange }
        set { selection.onChange = newValue }
    }

    private var layout = LineLayout()
    /// The list or the grid.
    public var mode: GalleryViewMode { layout.mode }
    /// Items per line: 1 in the list, as many tiles as the width allows in the grid.
    public var columns: Int { layout.columns }
    /// A list row's height, or a line of tiles' (tile and spacing).
    public var lineHeight: Int { layout.lineHeight }
    private var viewportWidth: Int { scroller.width }
    private var viewportHeight: Int { scroller.height }

    /// A cell was double-clicked or Enter was pressed: the item it shows.
    public var onActivate: (@MainActor (ItemViewModel) -> Void)?
    /// A page arrived while only found items show (the find runs again to include it).
    public var onAppendedWhileFound: (@MainActor () -> Void)?
    /// A cell's context menu was asked for: the item it shows, and the click (nil: the Menu key or Shift+F10).
    public var onContextMenu: (@MainActor (ItemViewModel, ButtonPress?) -> Void)? {
        get { contextMenu.onOpen }
        set { contextMenu.onOpen = newValue }
    }

    public init() {
        scroller = GalleryScroller(boxes: [listBox, flowBox])
        listPool = CellPool(box: listBox, newCellsPerFrame: Self.newRowsPerFrame) { [listBox] in
            GalleryRow(scale: max(1, listBox.scaleFactor))
        }
        gridPool = CellPool(box: flowBox, newCellsPerFrame: Self.newTilesPerFrame, slides: false) { [flowBox] in
            GalleryTile(scale: max(1, flowBox.scaleFactor))
        }
        cellTicker = FrameTicker(widget: scroller.viewport)
        demand = ThumbnailDemand { [weak self] index in self?.download(at: index) }

        // MULTIPLE, for Ctrl/Shift+click (`GallerySelection` decides; the box shows it). Not BROWSE: a browse-mode
        // box cannot unselect, and a cell whose item scrolled away must not stay selected.
        listBox.selectionMode = .multiple
        listBox.activatesOnSingleClick = false
        listBox.canFocus = true
        listBox.addStyleClass("gallery-list")
        flowBox.selectionMode = .multiple
        flowBox.activatesOnSingleClick = false
        flowBox.canFocus = true
        flowBox.isHomogeneous = true
        flowBox.columnSpacing = LineLayout.tileSpacing
        flowBox.rowSpacing = LineLayout.tileSpacing
        flowBox.halign = .center
        flowBox.valign = .start
        flowBox.setMargins(top: LineLayout.tileSpacing)
        flowBox.addStyleClass("gallery-grid")
        for box in [listBox.boxWidget, flowBox.boxWidget] { box.accessibleName = tr("Gallery") }
        flowBox.hide()

        scroller.onMoved = { [weak self] in self?.positionChanged() }
        scroller.onResized = { [weak self] widthChanged in self?.viewportResized(widthChanged: widthChanged) }
        scroller.onFooterResized = { [weak self] in self?.configureAdjustment(value: self?.adjustment.value ?? 0) }
        listBox.onSizeAllocate { [weak self] _, _ in self?.cellsAllocated() }
        flowBox.onSizeAllocate { [weak self] _, _ in self?.cellsAllocated() }
        selection.connect([listPool.box, gridPool.box])
        contextMenu.connect([listPool.box, gridPool.box])
    }

    /// Shows `gallery` (or nothing), replacing the previous one. Work is proportional to the cells on
    /// screen: the old gallery's models are not touched.
    public func show(_ gallery: Gallery?) {
        self.gallery?.onDownloadsAppended = nil
        demand.reset()
        kinetic.stop()
        pool.clear(items)
        selection.clear()
        found = nil
        self.gallery = gallery
        gallery?.thumbnailPixelSize = thumbnailPixelSize
        gallery?.onDownloadsAppended = { [weak self] _ in self?.appended() }
        // TRANSLATORS: the list's or grid's name for screen readers; {name} is the username.
        let name = gallery.map { $0.isKnownItems ? tr("New Images") : tr("Gallery of {name}", ["name": $0.source.username]) }
            ?? tr("Gallery")
        for box in [listBox.boxWidget, flowBox.boxWidget] { box.accessibleName = name }
        configureAdjustment(value: 0)
        positionChanged()
        updateFooter()
    }

    /// Shows `gallery` in place of the one shown, which holds some of the same items (a saved first page
    /// replaced by the service's answer): the item at the top stays where it is on screen, and the selected
    /// item stays selected, both found again by their identity.
    public func replace(with gallery: Gallery) {
        let anchor = geometry.anchor(at: adjustment.value)
        let top = download(at: anchor.index)?.item.id
        let selected = selectedDownload?.item.id
        show(gallery)
        // Searched in place: a New view of ten thousand items is neither copied nor unpacked for it.
        let downloads = gallery.downloads
        if let top, let position = downloads.firstIndex(where: { $0.hasItemID(top) }) {
            configureAdjustment(value: geometry.value(for: (position, anchor.fraction)))
            positionChanged()
        }
        // Selected again where it is now, the view staying where it was (the selection may be scrolled away).
        if let selected, let position = downloads.firstIndex(where: { $0.hasItemID(selected) }) {
            selection.select(position, focus: false, scrolling: false)
        }
    }

    /// Lets go of the gallery and the cells without touching the widgets, which GTK is destroying.
    public func detach() {
        cellTicker.stop()
        demand.reset()
        kinetic.stop()
        gallery?.onDownloadsAppended = nil
        gallery = nil
    }

    /// The number of items shown (rows of the list, tiles of the grid).
    public var rowCount: Int { items.count }

    /// The item shown at `position`.
    public func download(at position: Int) -> ItemViewModel? {
        let items = items
        return items.indices.contains(position) ? items[position] : nil
    }

    /// Where `download` shows (its index in the gallery unless only found items show); nil when it does not.
    public func position(of download: ItemViewModel) -> Int? {
        if let found { return found.position(of: download) }
        return self.download(at: download.index) === download ? download.index : nil
    }

    /// Shows only `found` (items of the gallery, in its order), or all of them again (nil). The view starts
    /// at the top, with the selected item still selected if it shows. `adding`: the same find again, over a
    /// page that arrived: when `found` starts with what shows, the view stays where it is.
    public func showOnly(_ matches: [ItemViewModel]?, adding: Bool = false) {
        guard matches != nil || found != nil else { return }
        if adding, let matches, found?.isBeginning(of: matches) == true {
            found = FoundItems(items: matches)
            return grew()
        }
        // The item selected before the find stays chosen while it does not show, and is selected again where
        // it shows again.
        let selected = selectedDownload ?? selectedBeforeFind
        selectedBeforeFind = matches == nil ? nil : selected
        demand.reset()
        kinetic.stop()
        pool.clear(items)
        selection.clear()
        found = matches.map(FoundItems.init)
        configureAdjustment(value: 0)
        positionChanged()
        if let selected, let position = position(of: selected) { selection.select(position, focus: false) }
        updateFooter()
    }

    /// The pool of the view shown.
    var pool: CellPool { mode == .grid ? gridPool : listPool }
    /// The box of the view shown: the list box or the flow box.
    var cellBox: any CellBox { pool.box }

    /// Items on the lines intersecting the viewport; none while the view is not on screen.
    public var visibleRange: Range<Int> {
        guard viewport.isMapped, viewportHeight > 0 else { return 0..<0 }
        return geometry.items(in: adjustment.value, height: Double(viewportHeight))
    }

    /// Scrolls so that the line of item `index` is at the top of the viewport (as far as the view allows).
    public func scroll(toItem index: Int) {
        adjustment.value = geometry.top(ofLine: geometry.line(of: index))
    }

    // MARK: Geometry

    var geometry: LineGeometry {
        LineGeometry(count: rowCount, columns: columns, lineHeight: lineHeight, footerHeight: scroller.footerHeight)
    }

    private func configureAdjustment(value: Double) {
        scroller.configure(value: value, contentHeight: geometry.contentHeight, lineHeight: lineHeight)
    }

    /// The item at the top stays at the top (GTK clamps the value when the page grows past the end); in the
    /// grid, also when the tiles reflow into more or fewer columns.
    private func viewportResized(widthChanged: Bool) {
        let value = adjustment.value
        let anchor = geometry.anchor(at: value)
        let oldColumns = columns
        if widthChanged { updateColumns() }
        configureAdjustment(value: columns == oldColumns ? value : geometry.value(for: anchor))
        positionChanged()
    }

    // MARK: Binding cells to the view

    private var isPositioning = false
    private var needsAnotherPass = false

    /// The view moved, was resized, or the gallery changed: rebind the cells, move them, and tell the
    /// models which thumbnails are wanted. Work is proportional to the cells on screen. A change made while
    /// one pass runs (measuring a cell may rescale the adjustment) gets a pass of its own afterwards.
    private func positionChanged() {
        guard !isPositioning else { return needsAnotherPass = true }
        isPositioning = true
        defer { isPositioning = false }
        pool.startPass(frame: cellTicker.frameCounter, makesAllWanted: makesNextScreenAtOnce)
        repeat {
            needsAnotherPass = false
            placeCells()
        } while needsAnotherPass
    }

    private func placeCells() {
        let downloads = items
        let value = adjustment.value
        let geometry = self.geometry
        let shown = geometry.lines(in: value, height: Double(viewportHeight))
        let boundLines = max(0, shown.lowerBound - Self.marginRows)..<min(geometry.lineCount, shown.upperBound + Self.marginRows)
        let bound = geometry.items(onLines: boundLines)
        let hadFocus = viewport.containsFocus
        pool.bind(bound, of: downloads)
        isAddingCells = pool.range != bound
        if isAddingCells, !cellTicker.isRunning { passEveryFrameWhileAddingCells() }
        if !layout.isMeasured, !bound.isEmpty {
            measureLine()
            if needsAnotherPass { return }
        }
        if makesNextScreenAtOnce, !bound.isEmpty, !isAddingCells, layout.isMeasured { makesNextScreenAtOnce = false }
        scroller.showFooter(pool.range.upperBound == downloads.count)
        scroller.placeContent(at: (bound.isEmpty ? 0 : boundLines.lowerBound * lineHeight) - Int(value))
        selection.sync(focus: hadFocus)

        let visible = visibleRange
        demand.viewChanged(visible: visible, count: downloads.count, value: value, pageSize: Double(viewportHeight)) {
            [weak self] in
            guard let self else { return (0..<0, 0, 0) }
            return (self.visibleRange, self.rowCount, self.adjustment.value)
        }
        // A find searches what is loaded: its end asks for no more.
        if let gallery, found == nil, gallery.canLoadMore, !visible.isEmpty,
           visible.upperBound >= downloads.count - Self.prefetchRows * columns {
            gallery.loadMore()
        }
    }

    /// The next screenful of cells is made at once, not a few per frame: a launch's saved first screen, whose
    /// thumbnails were kept (no download to wait for; a row a frame took seven frames more to show them).
    /// Cleared once a whole screen was bound, then `onScreenMadeAtOnce` runs.
    var makesNextScreenAtOnce = false {
        didSet { if makesNextScreenAtOnce != oldValue, !makesNextScreenAtOnce { onScreenMadeAtOnce?() } }
    }
    var onScreenMadeAtOnce: (@MainActor () -> Void)?

    /// Some cells wanted on screen are still to be made or shown again (see `CellPool`).
    public private(set) var isAddingCells = false

    /// The pool bound only part of the cells wanted: the rest come in the next frames, at the start of each
    /// (the frame clock's update), so that GTK lays out and paints each frame's new cells in that frame.
    /// Without a frame clock (not realized) nothing is painted: mapping places the cells again.
    private func passEveryFrameWhileAddingCells() {
        cellTicker.start { [weak self] _ in
            guard let self else { return false }
            positionChanged()
            return isAddingCells
        }
    }

    /// A page arrived: the range grows below, the view stays where it is.
    private func appended() {
        if found != nil { onAppendedWhileFound?() }
        grew()
    }

    /// More items show: the range grows below, the view stays where it is.
    private func grew() {
        configureAdjustment(value: adjustment.value)
        pool.totalChanged(rowCount)
        positionChanged()
    }

    // MARK: Footer

    /// "Loading more…", "End of gallery · 60 images"…
    public var footerText: String { footerLabel.text }

    public func updateFooter() { scroller.footer.update(for: gallery) }

    // MARK: Cells

    /// The cell showing `download` now, if it is bound (on screen or next to it).
    func cell(for download: ItemViewModel) -> (any GalleryCell)? {
        position(of: download).flatMap { pool.cell(forIndex: $0) }.flatMap { $0.download === download ? $0 : nil }
    }

    /// The list row showing `download` now (nil in the grid).
    public func row(for download: ItemViewModel) -> GalleryRow? { cell(for: download) as? GalleryRow }
    /// The grid tile showing `download` now (nil in the list).
    public func tile(for download: ItemViewModel) -> GalleryTile? { cell(for: download) as? GalleryTile }
    /// The cell under (`x`, `y`) pixels of the viewport.
    func cell(atViewportX x: Int, y: Int) -> (any GalleryCell)? { contextMenu.cell(atViewportX: x, y: y) }

    /// The cells bound to items now, in order.
    public var boundRows: [GalleryRow] { pool.cells.compactMap { $0 as? GalleryRow } }
    public var boundTiles: [GalleryTile] { pool.cells.compactMap { $0 as? GalleryTile } }

    /// The widget a context menu opened by key hangs from: the selected item's cell.
    public func menuAnchor(for download: ItemViewModel) -> Widget? { cell(for: download)?.cellWidget }

    /// The Menu key or Shift+F10 (from the view's key handler).
    func openContextMenuForSelection() -> Bool { contextMenu.openForSelection() }

    // MARK: Selection

    /// Selects item `index` and scrolls as little as needed to show its line whole; with `focus`, the
    /// keyboard focus goes to its cell.
    public func select(_ index: Int, focus: Bool = false) { selection.select(index, focus: focus) }

    /// Ctrl+A: every item shown.
    public func selectAll() { selection.selectAll() }

    /// Ctrl+click (`toggle`) or Shift+click (`extend`) on the item at `position`.
    public func select(_ position: Int, toggle: Bool) {
        if toggle { selection.toggle(position) } else { selection.extend(to: position) }
    }

    /// Opens item `index`, as a double-click on its cell or Enter would.
    public func activate(_ index: Int) { selection.activate(index) }

    // MARK: List and grid

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
        pool.clear(items)
        cellBox.boxWidget.hide()
        layout.switchTo(newMode)
        cellBox.boxWidget.show()
        gallery?.thumbnailPixelSize = thumbnailPixelSize
        updateColumns()
        configureAdjustment(value: geometry.value(for: anchor))
        positionChanged()
        if selectionWasVisible, let selectedIndex { selection.scrollIntoView(selectedIndex) }
        if hadFocus { selection.sync(focus: true) }
    }

    /// Tiles per line for the viewport's width; 1 in the list. The flow box is given exactly that many tiles'
    /// width, centred, so that its lines are the gallery's lines.
    private func updateColumns() {
        layout.fit(width: viewportWidth)
        demand.aheadCount = ThumbnailDemand.prefetchRows * columns
        guard mode == .grid else { return }
        gridPool.revivedCellsPerFrame = columns
        flowBox.setChildrenPerLine(minimum: columns, maximum: columns)
        flowBox.setSizeRequest(width: layout.gridWidth, height: -1)
    }

    /// Cells are of equal size (a row: a 96 px thumbnail beside two ellipsized lines; a tile: its square and
    /// one line of title); one bound cell tells it, first from its size request, then from what its box
    /// really gave it (theme and font included).
    private func measureLine() {
        guard !layout.isMeasured, viewportWidth > 0, let cell = pool.cells.first else { return }
        layout.startMeasuring()
        let widget = cell.cellWidget
        if mode == .grid {
            let anchor = geometry.anchor(at: adjustment.value)
            if layout.setTileWidth(widget.minimumWidth) {
                updateColumns()
                configureAdjustment(value: geometry.value(for: anchor))
                needsAnotherPass = true
            }
            setLineHeight(widget.minimumHeight(forWidth: layout.tileWidth) + LineLayout.tileSpacing)
        } else {
            setLineHeight(widget.minimumHeight(forWidth: viewportWidth))
        }
    }

    private func cellsAllocated() {
        guard let cell = pool.cells.first, cell.cellWidget.allocatedHeight > 1 else { return }
        setLineHeight(cell.cellWidget.allocatedHeight + (mode == .grid ? LineLayout.tileSpacing : 0))
    }

    /// Keeps the item at the top of the view there, as far into its line as before.
    private func setLineHeight(_ height: Int) {
        let anchor = geometry.anchor(at: adjustment.value)
        guard layout.setLineHeight(height) else { return }
        configureAdjustment(value: geometry.value(for: anchor))
        positionChanged()
    }
}
