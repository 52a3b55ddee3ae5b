import CGtk
import GObjectBindings
import GtkBindings
import GalleryCore

/// The scrolled list of a gallery: a GtkListBox bound to a ListStore of download models, a footer that
/// says whether more is loading or the gallery ended, and the bookkeeping that makes rows lazy — only rows
/// that are actually on screen are told they are visible (and so start downloading), and nearing the end
/// asks the gallery for its next page.
@MainActor
public final class GalleryListView {
    /// How close (in rows) to the end the next page is requested.
    public static let prefetchRows = 6

    public let scrolledWindow = ScrolledWindow()
    public let listBox = ListBox()
    let footerSpinner = Spinner()
    let footerLabel = Label()
    private let store = ListStore()
    private var rows: [ObjectIdentifier: GalleryRow] = [:]
    private var visibleIndices: Range<Int> = 0..<0
    private var visibilityUpdate: MainLoopSource?
    public private(set) var gallery: Gallery?

    /// A row was double-clicked or Enter was pressed on it.
    public var onActivate: (@MainActor (ImageDownload) -> Void)?

    public init() {
        listBox.selectionMode = GTK_SELECTION_BROWSE
        listBox.activatesOnSingleClick = false
        listBox.addStyleClass("gallery-list")
        listBox.bind(to: store) { [weak self] value in
            guard let self, let download = value as? ImageDownload else { return Label() }
            return self.makeRow(for: download)
        }
        listBox.onRowActivated { [weak self] index in
            guard let self, let download = self.download(at: index) else { return }
            self.onActivate?(download)
        }

        let footer = Box(GTK_ORIENTATION_HORIZONTAL, spacing: 8)
        footer.halign = GTK_ALIGN_CENTER
        footer.setMargins(top: 12, bottom: 18)
        footer.append(footerSpinner)
        footerLabel.addStyleClass("dim-label")
        footer.append(footerLabel)

        let content = Box(GTK_ORIENTATION_VERTICAL)
        content.append(listBox)
        content.append(footer)
        scrolledWindow.setChild(content)
        scrolledWindow.vexpand = true
        content.showAll()
        footerSpinner.isSpinning = false

        let adjustment = scrolledWindow.verticalAdjustment
        adjustment.onValueChanged { [weak self] in self?.scheduleVisibilityUpdate() }
        adjustment.onChanged { [weak self] in self?.scheduleVisibilityUpdate() }
        listBox.ref.connect("size-allocate") { [weak self] (_: UnsafeMutableRawPointer?) in
            self?.scheduleVisibilityUpdate()
        }
        listBox.ref.connect("map") { [weak self] in self?.scheduleVisibilityUpdate() }
    }

    /// Shows `gallery` (or nothing), replacing the previous one's rows.
    public func show(_ gallery: Gallery?) {
        self.gallery?.onDownloadsAppended = nil
        visibilityUpdate?.cancel()
        visibleIndices = 0..<0
        store.removeAll()
        rows.removeAll()
        self.gallery = gallery
        scrolledWindow.verticalAdjustment.value = 0
        gallery?.onDownloadsAppended = { [weak self] downloads in self?.append(downloads) }
        if let gallery { append(gallery.downloads) }
        updateFooter()
    }

    /// Lets go of the gallery and the rows without touching the widgets, which GTK is destroying.
    public func detach() {
        visibilityUpdate?.cancel()
        gallery?.onDownloadsAppended = nil
        gallery = nil
        rows.removeAll()
    }

    public var rowCount: Int { store.count }

    public func download(at index: Int) -> ImageDownload? { store.value(at: index) as? ImageDownload }

    public func row(for download: ImageDownload) -> GalleryRow? { rows[ObjectIdentifier(download)] }

    /// Indices of the rows currently on screen.
    public var visibleRange: Range<Int> { visibleIndices }

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
            footerLabel.text = gallery.downloads.isEmpty ? "" : "Loading more…"
        case .waiting(_, let seconds):
            footerSpinner.isSpinning = true
            footerLabel.text = "Waiting \(seconds) s before loading more…"
        case .finished:
            footerSpinner.isSpinning = false
            footerLabel.text = "End of gallery · \(gallery.downloads.count == 1 ? "1 image" : "\(gallery.downloads.count) images")"
        case .failed(let error) where !gallery.downloads.isEmpty:
            footerSpinner.isSpinning = false
            footerLabel.text = "Could not load more: \(error.title)"
        case .idle, .failed:
            footerSpinner.isSpinning = false
            footerLabel.text = ""
        }
    }

    // MARK: Rows

    private func append(_ downloads: [ImageDownload]) {
        store.append(contentsOf: downloads)
        scheduleVisibilityUpdate()
    }

    private func makeRow(for download: ImageDownload) -> Widget {
        let row = GalleryRow(download: download, scale: max(1, listBox.scaleFactor))
        rows[ObjectIdentifier(download)] = row
        return row.row
    }

    // MARK: Visibility

    /// Scrolling, resizing and new rows each ask for an update; they are merged into one idle callback,
    /// after GTK has laid the rows out, as Eye of GNOME does for its thumbnails.
    private func scheduleVisibilityUpdate() {
        guard visibilityUpdate?.isActive != true else { return }
        visibilityUpdate = MainLoopSource.idle(priority: G_PRIORITY_DEFAULT_IDLE) { [weak self] in
            self?.updateVisibility()
        }
    }

    private func updateVisibility() {
        visibilityUpdate = nil
        let range = computeVisibleRange()
        let previous = visibleIndices
        visibleIndices = range
        for index in previous where !range.contains(index) { download(at: index)?.setVisible(false) }
        for index in range { download(at: index)?.setVisible(true) }
        if let gallery, gallery.canLoadMore, range.upperBound >= store.count - Self.prefetchRows {
            gallery.loadMore()
        }
    }

    /// Rows intersecting the viewport. Unmapped (hidden window, other stack page) means none.
    private func computeVisibleRange() -> Range<Int> {
        guard listBox.isMapped, store.count > 0,
              let origin = listBox.translate(x: 0, y: 0, to: scrolledWindow) else { return 0..<0 }
        // The list box's y at the viewport's top edge, and how much of it the viewport shows.
        let top = max(0, -origin.y)
        let bottom = min(listBox.allocatedHeight, -origin.y + scrolledWindow.allocatedHeight) - 1
        guard bottom >= top, let first = listBox.rowIndex(atY: top) else { return 0..<0 }
        let last = listBox.rowIndex(atY: bottom) ?? (store.count - 1)
        return first..<(max(first, last) + 1)
    }
}
