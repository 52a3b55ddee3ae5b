import GObjectBindings
import GtkBindings
import GalleryCore

/// Zooming in the large view, and the full-resolution decode it needs past what the screen-sized decode
/// holds. Only one full-resolution image is kept, the one shown; it goes when the view moves on.
extension LargeImageView {
    enum DetailState {
        case none
        /// Decoding (from the original the view holds, else downloading it again).
        case loading(ImageTask)
        case loaded(Pixbuf)
        case failed(String)
    }

    /// The full-resolution pixbuf, once decoded (the clipboard's copy comes from it).
    public var fullResolutionPixbuf: Pixbuf? {
        if case .loaded(let pixbuf) = detail { return pixbuf }
        return nil
    }

    /// Why the full-resolution decode failed (the view goes on showing the screen-sized one, enlarged; the
    /// subtitle says why it is not sharper).
    public var detailFailure: String? {
        if case .failed(let reason) = detail { return reason }
        return nil
    }

    // MARK: Zoom commands (keys, menu)

    public func zoomIn() { canvas.zoom(steps: 1) }
    public func zoomOut() { canvas.zoom(steps: -1) }
    public func zoomToRealSize() { canvas.zoomToRealSize() }
    public func zoomToFit() { canvas.zoomToFit() }
    /// Pans by one arrow-key step; false when the image fits the view (←/→ then change the image).
    public func pan(dx: Int, dy: Int) -> Bool { canvas.panStep(dx: dx, dy: dy) }

    /// Zoom in device pixels per image pixel (1 = 100 %), and whether it follows the window (fit).
    public var zoom: Double { canvas.viewport?.zoom ?? 1 }
    public var isFit: Bool { canvas.viewport?.isFit ?? true }
    public var isZoomedIn: Bool { canvas.isZoomedIn }
    /// Where the image's top-left corner is in the view (logical pixels).
    public var imageOffset: (x: Double, y: Double) { (canvas.viewport?.offsetX ?? 0, canvas.viewport?.offsetY ?? 0) }
    /// An animation or a drag is under way, or the view moved a moment ago.
    public var isMoving: Bool { canvas.isMoving }

    // MARK: Full resolution

    /// Starts the full-resolution decode when the zoom asks for more detail than the screen-sized decode has.
    func loadDetailIfNeeded() {
        guard isShowingFullImage, canvas.needsSharperPicture, case .none = detail, animationPlayer == nil,
              let size = fullImageSize, let url = requestedURL else { return }
        let longSide = max(size.width, size.height)
        let maxPixelSize = longSide <= Self.maxDetailPixelSize ? nil : Self.maxDetailPixelSize
        let generation = self.generation
        // Served from `original` while the view holds it; else (shown from the memory cache) downloaded again.
        // Never written to the memory cache, where it would push out hundreds of thumbnails.
        let request = ImageRequest(url: url, size: maxPixelSize.map { .fitting($0) } ?? .original,
                                   cachePolicy: [.readMemory, .disk], priority: .interactive)
        let task = pipeline.loadImage(request, progress: { [weak self] progress in self?.showProgress(progress) }) {
            [weak self] result in
            guard let self, self.generation == generation else { return }
            self.detailDecoded(result.map(\.image))
        }
        guard task.isPending else { return }
        detail = .loading(task)
        if original == nil { setLoading(true) }
    }

    private func detailDecoded(_ result: Result<DecodedPixbuf, ImageLoadError>) {
        setLoading(false)
        switch result {
        case .success(let image):
            let generation = self.generation
            ImageSurface.make(from: image.pixbuf) { [weak self] surface in
                guard let self, self.generation == generation else { return }
                guard surface.isValid else { return self.detailFailed(tr("Not enough memory to zoom in")) }
                self.detail = .loaded(image.pixbuf)
                self.canvas.addDetail(surface, resolution: Double(surface.pixelWidth) / Double(max(1, image.originalWidth)))
            }
        case .failure(let error) where error.isCancelled:
            detail = .none
        case .failure(let error):
            // The screen-sized image stays, enlarged: zooming still works, only less sharply.
            detailFailed(error.message)
        }
    }

    private func detailFailed(_ reason: String) {
        detail = .failed(reason)
        changed()
    }

    func cancelDetail() {
        if case .loading(let task) = detail { task.cancel() }
        detail = .none
    }
}
