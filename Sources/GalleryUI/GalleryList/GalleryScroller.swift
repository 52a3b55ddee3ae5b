import GObjectBindings
import GtkBindings
import GalleryCore

/// The gallery view's scrolling: an adjustment of our own that spans the whole gallery (its height is the
/// caller's: lines × line height, plus the footer), a scrollbar on it, wheel and touchpad scrolling
/// (`KineticScroll`), and the viewport, a GtkLayout in which the box of cells and the footer sit together
/// (`content`), moved so that the first bound line is at most two lines above the viewport's top. Widget
/// coordinates stay small whatever the scroll offset: GTK 3 draws no child past 2^23 px.
@MainActor
final class GalleryScroller {
    /// What the window shows: the viewport and its scrollbar.
    let container = Box(.horizontal)
    let adjustment = Adjustment()
    let viewport = Layout()
    let scrollbar: Scrollbar
    let kinetic: KineticScroll
    let footer = GalleryFooter()
    /// The box of cells and the footer, moved together inside the viewport.
    private let content = Box(.vertical)
    private var scrollController: EventControllerScroll!
    private(set) var width = 0
    private(set) var height = 0
    /// The footer's height as last allocated (an estimate until then).
    private(set) var footerHeight = 52
    /// Where the content sits in the viewport.
    private var contentY = 0

    /// The view moved (the adjustment's value changed) or came on screen.
    var onMoved: (@MainActor () -> Void)?
    /// The viewport took a new size, already stored (`widthChanged`: the content's width follows it).
    var onResized: (@MainActor (_ widthChanged: Bool) -> Void)?
    /// The footer's height changed: the adjustment's upper bound follows.
    var onFooterResized: (@MainActor () -> Void)?

    /// `boxes`: the cells' boxes, above the footer, in the content.
    init(boxes: [Widget]) {
        scrollbar = Scrollbar(.vertical, adjustment: adjustment)
        kinetic = KineticScroll(widget: viewport, adjustment: adjustment)
        for box in boxes { content.append(box) }
        content.append(footer.box)
        content.addStyleClass("gallery-content")
        viewport.put(content, x: 0, y: 0)
        viewport.hexpand = true
        viewport.vexpand = true
        viewport.addStyleClass("gallery-viewport")
        container.append(viewport, expand: true)
        container.append(scrollbar)
        container.showAll()
        footer.spinner.isSpinning = false
        connectSignals()
    }

    private func connectSignals() {
        adjustment.onValueChanged { [weak self] in self?.onMoved?() }
        viewport.onMap { [weak self] in self?.onMoved?() }
        footer.box.onSizeAllocate { [weak self] _, height in self?.footerAllocated(height: height) }
        viewport.onSizeAllocate { [weak self] width, height in self?.viewportAllocated(width: width, height: height) }
        scrollController = EventControllerScroll(on: viewport, flags: [.vertical, .kinetic])
        scrollController.onScroll { [weak self] _, dy in self?.kinetic.scroll(by: dy) }
        scrollController.onScrollBegin { [weak self] in self?.kinetic.stop() }
        scrollController.onDecelerate { [weak self] _, velocity in self?.kinetic.decelerate(velocity: velocity) }
        scrollbar.onButtonPress { [weak self] _ in
            self?.kinetic.stop()
            return false
        }
    }

    /// The adjustment spans `contentHeight` pixels, a page is the viewport, a step a line.
    func configure(value: Double, contentHeight: Int, lineHeight: Int) {
        let page = Double(max(height, 1))
        adjustment.configure(value: value, upper: Double(max(contentHeight, 1)), stepIncrement: Double(lineHeight),
                             pageIncrement: max(Double(lineHeight), page - Double(lineHeight)), pageSize: page)
    }

    /// Moves the content so that its top is `y` pixels below the viewport's top (zero or less).
    func placeContent(at y: Int) {
        contentY = y
        viewport.move(content, x: 0, y: y)
        viewport.queueAllocate()
    }

    /// The footer follows the last line, so it is in the content only while that line is bound.
    func showFooter(_ shown: Bool) {
        footer.box.isVisible = shown
    }

    /// GtkLayout gives its children their requested size at their position, but only when it is itself
    /// allocated anew: a child growing inside it (cells added to their box) is not laid out again. So the
    /// content is placed here, after the layout's own pass, every time.
    private func viewportAllocated(width: Int, height: Int) {
        if width != self.width || height != self.height {
            let widthChanged = width != self.width
            self.width = width
            self.height = height
            if widthChanged { content.setSizeRequest(width: width, height: -1) }
            onResized?(widthChanged)
        }
        content.allocate(x: 0, y: contentY, width: self.width, height: content.minimumHeight(forWidth: self.width))
    }

    private func footerAllocated(height: Int) {
        guard height > 1, height != footerHeight else { return }
        footerHeight = height
        onFooterResized?()
    }
}
