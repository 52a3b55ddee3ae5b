import CGtk
import GObjectBindings
import GtkBindings
import GalleryCore

/// The large view of one gallery item: the row's thumbnail at once (scaled up, with a spinner), replaced by
/// the full image once it is downloaded and decoded, always scaled to fit. Leaving the view cancels the
/// download; nothing arrives late into a view that moved on to another item.
@MainActor
public final class LargeImageView {
    public let container = Overlay()
    let canvas = DrawingArea()
    let spinner = Spinner()
    let messageLabel = Label()
    let openInBrowserButton = Button(label: "Open in _Browser")
    private let fitted = FittedImage()
    private let loader: ImageLoader
    private var ticket: ImageTicket?
    /// The URL being loaded: the original, or a rendition the service offers when the original is too large.
    public private(set) var requestedURL: String?
    private var maxPixelSize = 0
    public private(set) var download: ImageDownload?
    /// What is drawn now: the thumbnail until the full image arrives.
    public private(set) var shownPixbuf: Pixbuf?
    public private(set) var isShowingFullImage = false
    public private(set) var fullImageSize: (width: Int, height: Int)?
    public private(set) var failure: String?

    /// The title or the size line changed (the header bar shows both).
    public var onChange: (@MainActor () -> Void)?
    /// Asks the window to open a page in the browser.
    public var onOpenInBrowser: (@MainActor (String) -> Void)?

    public init(loader: ImageLoader) {
        self.loader = loader
        canvas.hexpand = true
        canvas.vexpand = true
        canvas.addStyleClass("large-view")
        canvas.onDraw { [weak self] cairo in
            self?.draw(cairo)
            return true
        }
        container.setChild(canvas)

        let overlay = Box(GTK_ORIENTATION_VERTICAL, spacing: 12)
        overlay.halign = GTK_ALIGN_CENTER
        overlay.valign = GTK_ALIGN_CENTER
        spinner.setSizeRequest(width: 48, height: 48)
        overlay.append(spinner)
        messageLabel.addStyleClass("large-view-message")
        messageLabel.wraps = true
        messageLabel.justify = GTK_JUSTIFY_CENTER
        overlay.append(messageLabel)
        openInBrowserButton.halign = GTK_ALIGN_CENTER
        openInBrowserButton.addStyleClass("suggested-action")
        openInBrowserButton.onClicked { [weak self] in
            if let url = self?.download?.item.pageURL { self?.onOpenInBrowser?(url) }
        }
        overlay.append(openInBrowserButton)
        container.addOverlay(overlay)
        container.showAll()
        spinner.isSpinning = false
        messageLabel.hide()
        openInBrowserButton.hide()
    }

    public var title: String { download?.item.displayTitle ?? "" }

    /// "4000 × 3000 pixels", or why the image is missing.
    public var sizeLine: String {
        guard let item = download?.item else { return "" }
        if let size = fullImageSize { return "\(size.width) × \(size.height) pixels" }
        if let failure { return failure }
        if item.kind != .image { return item.kind == .audio ? "Audio" : item.kind == .video ? "Video" : "Web page" }
        if let width = item.width, let height = item.height, width > 0, height > 0 {
            return "\(width) × \(height) pixels"
        }
        return "Loading…"
    }

    /// Shows `download`'s item: its thumbnail now, the full image when it arrives (decoded to fit
    /// `maxPixelSize` on the longer side, e.g. the monitor's size).
    public func show(_ download: ImageDownload, maxPixelSize: Int) {
        stop()
        self.download = download
        shownPixbuf = download.cachedThumbnail?.pixbuf
        isShowingFullImage = false
        fullImageSize = nil
        failure = nil
        messageLabel.hide()
        openInBrowserButton.isVisible = download.item.pageURL != nil && download.item.fullImageURL == nil
        canvas.accessibleName = "Large view: \(download.item.displayTitle)"

        self.maxPixelSize = maxPixelSize
        let item = download.item
        if let url = item.largeImageURL(fitting: maxPixelSize, maxPixels: loader.limits.decode.maxPixels),
           download.state != .sensitiveHidden {
            load(url)
        } else if item.mediaURLRejected && download.state != .sensitiveHidden {
            failure = HTTPError.notAWebAddress.message
            showMessage("The full image could not be loaded: \(HTTPError.notAWebAddress.message)")
        } else if download.state == .sensitiveHidden {
            showMessage("Sensitive content is hidden. Turn on “Show Sensitive Content” in the menu to see it.")
        } else if download.item.kind != .image {
            showMessage("This item is not an image.")
        }
        canvas.queueDraw()
        onChange?()
    }

    /// Cancels the full-image download; called when the view closes or moves to another item.
    public func stop() {
        ticket?.cancel()
        ticket = nil
        spinner.isSpinning = false
    }

    private func load(_ url: String) {
        requestedURL = url
        spinner.isSpinning = true
        ticket = loader.load(url, maxPixelSize: maxPixelSize, priority: .interactive) { [weak self] result in
            self?.fullImageArrived(result)
        }
    }

    private func fullImageArrived(_ result: Result<DecodedPixbuf, ImageLoadError>) {
        ticket = nil
        spinner.isSpinning = false
        // An original too large to decode, which its size in the feed did not give away: the service's own
        // scaled copy shows the same picture.
        if case .failure(.tooLarge) = result, let rendition = download?.item.rendition(covering: maxPixelSize),
           rendition != requestedURL {
            return load(rendition)
        }
        switch result {
        case .success(let image):
            shownPixbuf = image.pixbuf
            isShowingFullImage = true
            fullImageSize = (image.originalWidth, image.originalHeight)
        case .failure(let error) where error.isCancelled:
            return
        case .failure(let error):
            failure = error.message
            showMessage("The full image could not be loaded: \(error.message)")
        }
        canvas.queueDraw()
        onChange?()
    }

    private func showMessage(_ text: String) {
        messageLabel.text = text
        messageLabel.show()
    }

    /// Fits the image in the view, centred: the full image never beyond its real size, the thumbnail blown
    /// up (blurred) until the full image replaces it.
    private func draw(_ cairo: OpaquePointer) {
        canvas.renderBackground(cairo)
        guard let pixbuf = shownPixbuf else { return }
        let width = Double(canvas.allocatedWidth)
        let height = Double(canvas.allocatedHeight)
        let margin = 12.0
        let deviceScale = max(1, canvas.scaleFactor)
        let naturalWidth = Double(pixbuf.width) / Double(isShowingFullImage ? deviceScale : 1)
        let naturalHeight = Double(pixbuf.height) / Double(isShowingFullImage ? deviceScale : 1)
        var scale = min((width - 2 * margin) / naturalWidth, (height - 2 * margin) / naturalHeight)
        if isShowingFullImage { scale = min(scale, 1) }
        guard scale > 0 else { return }
        let drawnWidth = naturalWidth * scale
        let drawnHeight = naturalHeight * scale
        fitted.paint(pixbuf, in: cairo, x: (width - drawnWidth) / 2, y: (height - drawnHeight) / 2,
                     width: drawnWidth, height: drawnHeight, deviceScale: deviceScale)
    }
}
