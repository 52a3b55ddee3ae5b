import GObjectBindings
import GtkBindings
import GalleryCore

/// The list of a gallery, of any length: a GtkListBox holding only the rows on screen (plus one above and
/// one below), recycled as the view moves (`RowPool`), and a scrollbar on an adjustment of our own that
/// spans the whole gallery (row count × row height, plus the footer).
///
/// Why not a GtkScrolledWindow around all the rows: GTK 3 creates and lays out a widget tree per row
/// (tens of KB each, see ARCHITECTURE.md; it falls over past a few thousand) and stops drawing children beyond 2^23 px of scroll
/// offset (~77,000 rows). Here the list box sits in a GtkLayout, moved by less than a row's height, so every
/// widget coordinate stays small at row 100,000.
///
/// The footer ("Loading more…", "End of gallery · 60 images") follows the last row. Selection is a model
/// (`selectedIndex`), not a widget, so it survives rebinding; so do keyboard focus and the models' state.
@MainActor
public final class GalleryListView {
    /// How close (in rows) to the end the next page is requested.
    public static let prefetchRows = 6
    /// How many rows ahead of the view (in the scroll's direction) get their thumbnails before they show.
    public static var thumbnailPrefetchRows: Int { ThumbnailDemand.prefetchRows }
    /// Rows bound beyond each edge of the viewport: Tab and the arrow keys find a row there.
    static let marginRows = 1
    /// Before a row was measured.
    static let estimatedRowHeight = 110

    /// What the window shows: the viewport and its scrollbar.
    public let container = Box(.horizontal)
    public let adjustment = Adjustment()
    public let listBox = ListBox()
    let viewport = Layout()
    let scrollbar: Scrollbar
    /// The list box and the footer, moved together inside the viewport.
    private let content = Box(.vertical)
    private let footer = Box(.horizontal, spacing: 8)
    let footerSpinner = Spinner()
    let footerLabel = Label()
    let pool: RowPool
    private var demand: ThumbnailDemand!
    var kinetic: KineticScroll!
    private var scrollController: EventControllerScroll!
    public private(set) var gallery: Gallery?

    /// The item selected (and, while the list has the focus, the keyboard cursor); survives rebinding.
    public internal(set) var selectedIndex: Int?
    /// True while the list changes the list box's selection itself, so its `row-selected` is not taken
    /// for a click.
    var isSyncingSelection = false

    public private(set) var rowHeight = GalleryListView.estimatedRowHeight
    private var isRowHeightMeasured = false
    private var footerHeight = 52
    private var viewportWidth = 0
    private var viewportHeight = 0
    /// Where the content (list box and footer) sits in the viewport: at or less than two rows above its top.
    private var contentY = 0

    /// A row was double-clicked or Enter was pressed: the item it shows.
    public var onActivate: (@MainActor (ImageDownload) -> Void)?
    /// A row's context menu was asked for: the item it shows, and the click (nil: the Menu key or Shift+F10).
    public var onContextMenu: (@MainActor (ImageDownload, ButtonPress?) -> Void)?

    public init() {
        scrollbar = Scrollbar(.vertical, adjustment: adjustment)
        pool = RowPool(listBox: listBox, scale: { [listBox] in max(1, listBox.scaleFactor) })
        demand = ThumbnailDemand { [weak self] index in self?.download(at: index) }
        kinetic = KineticScroll(widget: viewport, adjustment: adjustment)

        // Not BROWSE: a browse-mode list box cannot unselect, and when the selected item scrolls away, the
        // row that showed it (now showing another item) must not stay selected.
        listBox.selectionMode = .single
        listBox.activatesOnSingleClick = false
        listBox.canFocus = true
        listBox.addStyleClass("gallery-list")
        listBox.accessibleName = tr("Gallery")

        footer.halign = .center
        footer.setMargins(top: 12, bottom: 18)
        footer.append(footerSpinner)
        footerLabel.addStyleClass("dim-label")
        footer.append(footerLabel)
        content.append(listBox)
        content.append(footer)
        content.addStyleClass("gallery-content")
        viewport.put(content, x: 0, y: 0)
        viewport.hexpand = true
        viewport.vexpand = true
        viewport.addStyleClass("gallery-viewport")
        container.append(viewport, expand: true)
        container.append(scrollbar)
        container.showAll()
        footerSpinner.isSpinning = false

        connectSignals()
    }

    private func connectSignals() {
        adjustment.onValueChanged { [weak self] in self?.positionChanged() }
        listBox.onSizeAllocate { [weak self] _, _ in self?.rowsAllocated() }
        footer.onSizeAllocate { [weak self] _, height in self?.footerAllocated(height: height) }
        viewport.onSizeAllocate { [weak self] width, height in self?.viewportAllocated(width: width, height: height) }
        viewport.onMap { [weak self] in self?.positionChanged() }
        scrollController = EventControllerScroll(on: viewport, flags: [.vertical, .kinetic])
        scrollController.onScroll { [weak self] _, dy in self?.kinetic.scroll(by: dy) }
        scrollController.onScrollBegin { [weak self] in self?.kinetic.stop() }
        scrollController.onDecelerate { [weak self] _, velocity in self?.kinetic.decelerate(velocity: velocity) }
        scrollbar.onButtonPress { [weak self] _ in
            self?.kinetic.stop()
            return false
        }
        connectInput()
        connectContextMenu()
    }

    /// Shows `gallery` (or nothing), replacing the previous one. Work is proportional to the rows on
    /// screen: the old gallery's models are not touched.
    public func show(_ gallery: Gallery?) {
        self.gallery?.onDownloadsAppended = nil
        demand.reset()
        kinetic.stop()
        pool.clear(self.gallery?.downloads ?? [])
        selectedIndex = nil
        self.gallery = gallery
        gallery?.onDownloadsAppended = { [weak self] _ in self?.appended() }
        // TRANSLATORS: the list's name for screen readers; {name} is the username.
        listBox.accessibleName = gallery.map { tr("Gallery of {name}", ["name": $0.source.username]) } ?? tr("Gallery")
        configureAdjustment(value: 0)
        positionChanged()
        updateFooter()
    }

    /// Lets go of the gallery and the rows without touching the widgets, which GTK is destroying.
    public func detach() {
        demand.reset()
        kinetic.stop()
        gallery?.onDownloadsAppended = nil
        gallery = nil
    }

    public var rowCount: Int { gallery?.downloads.count ?? 0 }

    public func download(at index: Int) -> ImageDownload? {
        guard let downloads = gallery?.downloads, downloads.indices.contains(index) else { return nil }
        return downloads[index]
    }

    /// The row showing `download` now, if it is bound (on screen or next to it).
    public func row(for download: ImageDownload) -> GalleryRow? {
        pool.row(forIndex: download.index).flatMap { $0.download === download ? $0 : nil }
    }

    /// The row at `y` pixels from the top of the viewport, and so the item under the pointer (for a
    /// context menu: `row(atViewportY:)?.download`).
    public func row(atViewportY y: Int) -> GalleryRow? {
        let index = (Int(adjustment.value) + y) / rowHeight
        return pool.row(forIndex: index)
    }

    /// The rows bound to items now, in order (what a test or a context menu may look at).
    public var boundRows: [GalleryRow] { pool.rows }

    /// Rows intersecting the viewport; none while the list is not on screen.
    public var visibleRange: Range<Int> {
        guard viewport.isMapped, viewportHeight > 0 else { return 0..<0 }
        return rows(in: adjustment.value, height: Double(viewportHeight))
    }

    /// Scrolls so that row `index` is at the top of the viewport (as far as the list allows).
    public func scroll(toRow index: Int) {
        adjustment.value = Double(index * rowHeight)
    }

    // MARK: Geometry

    private func rows(in top: Double, height: Double) -> Range<Int> {
        let count = rowCount
        guard count > 0, height > 0 else { return 0..<0 }
        let first = min(count, Int(top) / rowHeight)
        let last = min(count, (Int((top + height).rounded(.up)) + rowHeight - 1) / rowHeight)
        return first..<max(first, last)
    }

    /// Total height of the gallery: every row, then the footer.
    private var contentHeight: Int { rowCount * rowHeight + footerHeight }

    private func configureAdjustment(value: Double) {
        let page = Double(max(viewportHeight, 1))
        adjustment.configure(value: value, upper: Double(max(contentHeight, 1)), stepIncrement: Double(rowHeight),
                             pageIncrement: max(Double(rowHeight), page - Double(rowHeight)), pageSize: page)
    }

    /// GtkLayout gives its children their requested size at their position, but only when it is itself
    /// allocated anew: a child growing inside it (rows added to the list box) is not laid out again. So the
    /// content is placed here, after the layout's own pass, every time.
    private func viewportAllocated(width: Int, height: Int) {
        viewportResized(width: width, height: height)
        content.allocate(x: 0, y: contentY, width: viewportWidth, height: content.minimumHeight(forWidth: viewportWidth))
    }

    private func viewportResized(width: Int, height: Int) {
        guard width != viewportWidth || height != viewportHeight else { return }
        let value = adjustment.value
        if width != viewportWidth {
            viewportWidth = width
            content.setSizeRequest(width: width, height: -1)
        }
        viewportHeight = height
        // The row at the top stays at the top (GTK clamps the value when the page grows past the end).
        configureAdjustment(value: value)
        positionChanged()
    }

    /// Rows are of equal height (a 96 px thumbnail beside two ellipsized lines); one bound row tells it,
    /// first from its size request, then from what the list box really gave it (theme and font included).
    private func measureRowHeight() {
        guard !isRowHeightMeasured, viewportWidth > 0, let row = pool.rows.first else { return }
        isRowHeightMeasured = true
        setRowHeight(row.row.minimumHeight(forWidth: viewportWidth))
    }

    private func rowsAllocated() {
        guard let row = pool.rows.first, row.row.allocatedHeight > 1 else { return }
        setRowHeight(row.row.allocatedHeight)
    }

    private func footerAllocated(height: Int) {
        guard height > 1, height != footerHeight else { return }
        footerHeight = height
        configureAdjustment(value: adjustment.value)
    }

    /// Keeps the item at the top of the view there, as far into it as before.
    private func setRowHeight(_ height: Int) {
        guard height > 0, height != rowHeight else { return }
        let top = adjustment.value / Double(rowHeight)
        rowHeight = height
        configureAdjustment(value: top * Double(rowHeight))
        positionChanged()
    }

    // MARK: Binding rows to the view

    private var isPositioning = false
    private var needsAnotherPass = false

    /// The view moved, was resized, or the gallery changed: rebind the rows, move them, and tell the
    /// models which thumbnails are wanted. Work is proportional to the rows on screen. A change made while
    /// one pass runs (measuring a row may rescale the adjustment) gets a pass of its own afterwards.
    func positionChanged() {
        guard !isPositioning else { return needsAnotherPass = true }
        isPositioning = true
        defer { isPositioning = false }
        repeat {
            needsAnotherPass = false
            placeRows()
        } while needsAnotherPass
    }

    private func placeRows() {
        let downloads = gallery?.downloads ?? []
        let value = adjustment.value
        let shown = rows(in: value, height: Double(viewportHeight))
        let bound = max(0, shown.lowerBound - Self.marginRows)..<min(downloads.count, shown.upperBound + Self.marginRows)
        let hadFocus = listBox.containsFocus
        pool.bind(bound, of: downloads)
        if !isRowHeightMeasured, !bound.isEmpty {
            measureRowHeight()
            if needsAnotherPass { return }
        }
        // The footer follows the last row, so it is in the list box's company only when that row is.
        footer.isVisible = bound.upperBound == downloads.count
        contentY = bound.lowerBound * rowHeight - Int(value)
        viewport.move(content, x: 0, y: contentY)
        viewport.queueAllocate()
        syncSelection(focus: hadFocus)

        let visible = visibleRange
        demand.viewChanged(visible: visible, count: downloads.count, value: value, pageSize: Double(viewportHeight)) {
            [weak self] in
            guard let self else { return (0..<0, 0, 0) }
            return (self.visibleRange, self.rowCount, self.adjustment.value)
        }
        if let gallery, gallery.canLoadMore, !visible.isEmpty, visible.upperBound >= downloads.count - Self.prefetchRows {
            gallery.loadMore()
        }
    }

    /// A page arrived: the range grows below, the view stays where it is.
    private func appended() {
        configureAdjustment(value: adjustment.value)
        pool.totalChanged(rowCount)
        positionChanged()
    }

    // MARK: Footer

    /// "Loading more…", "End of gallery · 60 images"…
    public var footerText: String { footerLabel.text }

    public func updateFooter() {
        guard let gallery else {
            footerSpinner.isSpinning = false
            footerLabel.text = ""
            return
        }
        switch gallery.feed.state {
        case .loading:
            footerSpinner.isSpinning = !gallery.downloads.isEmpty
            footerLabel.text = gallery.downloads.isEmpty ? "" : tr("Loading more…")
        case .waiting(_, let seconds):
            footerSpinner.isSpinning = true
            footerLabel.text = trn("Waiting {count} s before loading more…", "Waiting {count} s before loading more…", seconds)
        case .finished:
            footerSpinner.isSpinning = false
            footerLabel.text = trn("End of gallery · {count} image", "End of gallery · {count} images", gallery.downloads.count)
        case .failed(let error) where !gallery.downloads.isEmpty:
            footerSpinner.isSpinning = false
            // TRANSLATORS: {reason} is why the next page did not come, such as "Offline" or "Could not connect".
            footerLabel.text = tr("Could not load more: {reason}", ["reason": error.title])
        case .idle, .failed:
            footerSpinner.isSpinning = false
            footerLabel.text = ""
        }
    }
}
