import GObjectBindings
import GtkBindings
import GalleryCore

/// The full-resolution decode that zooming in needs past what the large view's screen-sized decode holds. Only
/// one is kept, the one shown; it goes when the view moves on (`cancel`).
@MainActor
final class FullResolutionDetail {
    /// Originals are decoded at most this large on their longer side when zooming in (cairo's surfaces end at
    /// 32767 px; the pipeline's pixel and memory limits apply first).
    static let maxPixelSize = 16384

    private enum State {
        case none
        /// Decoding (from the original the view holds, else downloading it again).
        case loading(ImageTask)
        case loaded(Pixbuf)
        case failed(String)
    }

    private let pipeline: ImagePipeline
    private var state = State.none
    /// Bumped whenever the view moves on: completions of older work find it changed and do nothing.
    private var generation = 0

    /// Download progress of the original, when it is downloaded again.
    var onProgress: (@MainActor (LoadProgress) -> Void)?
    /// The decode ended (its download too), whatever came of it.
    var onSettled: (@MainActor () -> Void)?
    /// The decoded image, ready to paint: its surface and how many surface pixels it has per image pixel.
    var onDecoded: (@MainActor (ImageSurface, Double) -> Void)?
    /// The decode failed (`failure` says why).
    var onFailed: (@MainActor () -> Void)?

    init(pipeline: ImagePipeline) {
        self.pipeline = pipeline
    }

    /// The full-resolution pixbuf, once decoded (the clipboard's copy comes from it).
    var pixbuf: Pixbuf? {
        if case .loaded(let pixbuf) = state { return pixbuf }
        return nil
    }

    /// Why the full-resolution decode failed (the view goes on showing the screen-sized one, enlarged).
    var failure: String? {
        if case .failed(let reason) = state { return reason }
        return nil
    }

    /// Nothing decoded, decoding or failed for the image shown: a zoom may start a decode.
    var isIdle: Bool {
        if case .none = state { return true }
        return false
    }

    /// The screen-sized decode already holds every pixel of the original: it is the full resolution.
    func useScreenDecode(_ pixbuf: Pixbuf) {
        state = .loaded(pixbuf)
    }

    /// Decodes `url` (an image of `imageSize` pixels) at full resolution, or at `maxPixelSize` when larger.
    /// Served from the original the view holds, if it does; else (shown from the memory cache) downloaded again,
    /// never written to the memory cache, where it would push out hundreds of thumbnails. False when there was
    /// nothing to wait for (the answer came at once).
    func load(_ url: String, imageSize: (width: Int, height: Int)) -> Bool {
        let longSide = max(imageSize.width, imageSize.height)
        let maxPixelSize = longSide <= Self.maxPixelSize ? nil : Self.maxPixelSize
        let generation = self.generation
        let request = ImageRequest(url: url, size: maxPixelSize.map { .fitting($0) } ?? .original,
                                   cachePolicy: [.readMemory, .disk], priority: .interactive)
        let task = pipeline.loadImage(request, progress: { [weak self] progress in self?.onProgress?(progress) }) {
            [weak self] result in
            guard let self, self.generation == generation else { return }
            self.decoded(result.map(\.image))
        }
        guard task.isPending else { return false }
        state = .loading(task)
        return true
    }

    /// The view moved on: the decode in flight stops, the decoded image goes.
    func cancel() {
        generation += 1
        if case .loading(let task) = state { task.cancel() }
        state = .none
    }

    private func decoded(_ result: Result<DecodedPixbuf, ImageLoadError>) {
        onSettled?()
        switch result {
        case .success(let image):
            let generation = self.generation
            ImageSurface.make(from: image.pixbuf) { [weak self] surface in
                guard let self, self.generation == generation else { return }
                guard surface.isValid else { return self.failed(tr("Not enough memory to zoom in")) }
                self.state = .loaded(image.pixbuf)
                self.onDecoded?(surface, Double(surface.pixelWidth) / Double(max(1, image.originalWidth)))
            }
        case .failure(let error) where error.isCancelled:
            state = .none
        case .failure(let error):
            // The screen-sized image stays, enlarged: zooming still works, only less sharply.
            failed(error.message)
        }
    }

    private func failed(_ reason: String) {
        state = .failed(reason)
        onFailed?()
    }
}
