import GObjectBindings
import GtkBindings
import GalleryCore

/// Drags of an item out of the app, from the large view (when the picture fits: zoomed in, a drag pans) and
/// from a row or tile: the original file for file managers (`DraggedOriginals`, fetched from the drag's start),
/// the item's link as text for the others, the thumbnail as the drag's picture. Until the original is saved,
/// a drop gets the link only: a file manager then takes nothing rather than a web address it would store as a
/// bookmark, and a mail or chat gets what it would have got anyway.
@MainActor
final class ItemDrags {
    private let originals: DraggedOriginals
    private let largeViewSource: DragSource
    private let cellSources: [DragSource]
    /// The item of the cell the primary button last went down on: cells are recycled as the view scrolls, so a
    /// drag carries the item its cell showed when it started, never the one it shows later.
    private var pressedItem: ItemViewModel?

    init(listView: GalleryListView, largeView: LargeImageView, pipeline: ImagePipeline) {
        originals = DraggedOriginals(pipeline: pipeline)
        largeViewSource = DragSource(on: largeView.canvas.area)
        cellSources = [listView.listBox, listView.flowBox].map { DragSource(on: $0) }
        largeView.zoom.onDragOut = { [weak self] gesture, x, y in
            self?.largeViewSource.begin(from: gesture, x: x, y: y)
        }
        largeViewSource.onBegin { [weak self, weak largeView] in self?.begin(largeView?.download) ?? Self.nothing }
        for (source, box) in zip(cellSources, [listView.listBox, listView.flowBox] as [Widget]) {
            source.startsOnPrimaryDrag()
            source.onBegin { [weak self] in self?.begin(self?.pressedItem) ?? Self.nothing }
            box.onButtonPress { [weak self, weak listView] press in
                guard press.isPrimaryButton, let listView,
                      let point = listView.viewport.point(fromRootX: press.rootX, y: press.rootY) else { return false }
                self?.pressedItem = listView.cell(atViewportX: Int(point.x), y: Int(point.y))?.download
                return false
            }
        }
    }

    private static let nothing: (content: @MainActor () -> DragSource.Content, icon: Pixbuf?) = ({ DragSource.Content() }, nil)

    /// A drag of `download`'s item began: its original starts on its way; what the drop gets is read when it
    /// happens. A sensitive item still hidden gives neither its file nor its picture.
    private func begin(_ download: ItemViewModel?) -> (content: @MainActor () -> DragSource.Content, icon: Pixbuf?) {
        guard let download else { return Self.nothing }
        let item = download.item
        let hidden = download.state == .sensitiveHidden
        if !hidden { originals.prepare(item) }
        let content: @MainActor () -> DragSource.Content = { [weak self] in
            DragSource.Content(filePath: hidden ? nil : self?.originals.file(for: item), text: item.link)
        }
        return (content, hidden ? nil : download.cachedThumbnail?.pixbuf)
    }

    /// A drag from the large view is under way (tests).
    var isDraggingFromLargeView: Bool { largeViewSource.isDragging }

    /// The drag from the large view or a cell, for tests: what GTK's `drag-data-get` fills from.
    var sources: (largeView: DragSource, list: DragSource, grid: DragSource) {
        (largeViewSource, cellSources[0], cellSources[1])
    }

    func cancelAll() { originals.cancelAll() }
}
