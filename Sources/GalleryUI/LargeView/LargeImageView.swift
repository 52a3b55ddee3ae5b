import GObjectBindings
import GtkBindings
import GalleryCore

/// The large view of one gallery item, as an image viewer shows it: the row's thumbnail at once (stretched,
/// with a spinner and a thin progress bar of the download), replaced by the image decoded to the screen's
/// size once it arrives, fitted to the window. Zooming past what that decode holds decodes the original at
/// full resolution (`ImageCanvas` keeps both and paints the one the zoom needs). A failed download says why,
/// with a Retry button. Leaving the view, or moving to another item, cancels all of it; nothing arrives late.
///
/// The picture shown stays until the next one is ready to be painted: no blank frame between two images,
/// none between the fitted and the full-resolution decode.
@MainActor
public final class LargeImageView {
    /// The whole view: the picture (`container`) and, beside it, the details panel.
    public let root = Box(.horizontal, spacing: 0)
    public let container = Overlay()
    let details = DetailsPanel()
    let canvas = ImageCanvas()
    /// The spinner, progress bar, message and buttons over the picture.
    let status: LargeViewStatus
    private let pipeline: ImagePipeline
    private var task: ImageTask?
    /// The URL being loaded: the original, or a rendition the service offers when the original is too large.
    public private(set) var requestedURL: String?
    private var maxPixelSize = 0
    public private(set) var download: ItemViewModel?
    /// The pixbuf behind the picture shown: the thumbnail until the full image arrives.
    public private(set) var shownPixbuf: Pixbuf?
    /// The canvas shows this item (its thumbnail or image), not the previous one kept until it could be replaced.
    private var showsCurrentItem = false
    public private(set) var isShowingFullImage = false
    public private(set) var fullImageSize: (width: Int, height: Int)?
    public private(set) var failure: String?
    /// The format and size of the file shown, once the pipeline has read it.
    public private(set) var file: ImageFileInfo?
    /// The downloaded original, held while the item is shown: while it is, the pipeline serves the
    /// full-resolution decode, Copy Image and Save Image As of this URL from it instead of downloading it again.
    /// Nil when the image came from the memory cache.
    private var original: ImageOriginal?
    /// Bumped whenever the view moves on: completions of older work find it changed and do nothing.
    private var generation = 0
    private let detail: FullResolutionDetail
    let animation: LargeViewAnimation
    /// A video, gifv or sound of the item shown, played over its still.
    let media: LargeMediaView

    /// The title or the size line changed (the header bar shows both).
    public var onChange: (@MainActor () -> Void)?
    /// Asks the window to open a page in the browser.
    public var onOpenInBrowser: (@MainActor (String) -> Void)?
    /// A right-click on the picture: the window opens the image menu there.
    public var onContextMenu: (@MainActor (ButtonPress) -> Void)?
    /// A touchpad's two-finger swipe over the fitted picture: the previous (-1) or next (+1) item.
    public var onSwipe: (@MainActor (Int) -> Void)?

    public init(pipeline: ImagePipeline) {
        self.pipeline = pipeline
        detail = FullResolutionDetail(pipeline: pipeline)
        animation = LargeViewAnimation(picture: canvas.area)
        media = LargeMediaView(client: pipeline.client)
        canvas.area.addStyleClass("large-view")
        container.setChild(canvas.area)
        // First of the overlays: the spinner, the message and Retry (`status`) stay above the frames.
        container.addOverlay(media.slot)
        status = LargeViewStatus(over: container)
        root.append(container, expand: true)
        root.append(details.revealer)
        root.show()
        details.onOpenLink = { [weak self] url in self?.onOpenInBrowser?(url) }
        details.current = { [weak self] in self?.itemDetails }

        status.retryButton.onClicked { [weak self] in self?.retry() }
        status.openInBrowserButton.onClicked { [weak self] in
            if let url = self?.download?.item.pageURL { self?.onOpenInBrowser?(url) }
        }
        container.showAll()
        status.hideAll()

        canvas.onZoomSettled = { [weak self] in self?.onChange?() }
        canvas.zoom.onZoomRequested = { [weak self] in self?.loadDetailIfNeeded() }
        canvas.onContextMenu = { [weak self] press in self?.onContextMenu?(press) }
        canvas.zoom.onSwipe = { [weak self] step in self?.onSwipe?(step) }
        container.addOverlay(animation.bar)
        animation.onFrame = { [weak self] frame in self?.animationFrame(frame) }
        detail.onProgress = { [weak self] progress in self?.status.showProgress(progress) }
        detail.onSettled = { [weak self] in self?.status.setLoading(false) }
        detail.onDecoded = { [weak self] surface, resolution in self?.canvas.addDetail(surface, resolution: resolution) }
        detail.onFailed = { [weak self] in self?.changed() }
        media.onChange = { [weak self] in self?.mediaChanged() }
    }

    public var title: String { download?.item.displayTitle ?? "" }

    /// The zoom and pan of the picture (the window's zoom actions, the arrow keys' panning).
    public var zoom: ImageZoom { canvas.zoom }

    /// R and Shift+R: the picture turned a quarter clockwise (+1) or counterclockwise (-1), fitted again; the
    /// view only, never the file. Not a video's or sound's (GStreamer plays them as they are).
    public func rotate(by turns: Int) {
        guard download?.item.media == nil else { return }
        canvas.rotate(by: turns)
        changed()
    }

    /// Quarter turns clockwise the picture is shown at (0 for each new item).
    public var quarterTurns: Int { canvas.quarterTurns }

    /// "4000 × 3000 pixels", with the zoom when it is not "fit" ("… · 100 %"), or why the image is missing.
    public var sizeLine: String {
        guard let item = download?.item else { return "" }
        if let size = fullImageSize {
            let pixels = Self.pixels(size.width, size.height)
            guard !zoom.isFit, isShowingFullImage else { return pixels }
            let zoom = Int((zoom.level * 100).rounded())
            if let reason = detailFailure {
                // TRANSLATORS: the large view's subtitle when zoomed but the full-resolution image could not be
                // decoded: {size} is "4000 × 3000 pixels", {zoom} is 100, {reason} says why ("Not enough memory to zoom in").
                return tr("{size} · {zoom} % · not sharper: {reason}", ["size": pixels, "zoom": zoom, "reason": reason])
            }
            // TRANSLATORS: the large view's subtitle when zoomed: {size} is "4000 × 3000 pixels", {zoom} is 100.
            return tr("{size} · {zoom} %", ["size": pixels, "zoom": zoom])
        }
        if let failure { return failure }
        if media.isActive { return mediaLine }
        if item.kind != .image {
            return item.kind == .audio ? tr("Audio") : item.kind == .video ? tr("Video") : tr("Web page")
        }
        if let width = item.width, let height = item.height, width > 0, height > 0 { return Self.pixels(width, height) }
        return tr("Loading…")
    }

    /// Shows `download`'s item: its thumbnail now, the full image when it arrives (decoded to fit
    /// `maxPixelSize` on the longer side, e.g. the monitor's size).
    /// `playsThrough`: a video, gifv or sound starts by itself and plays once to its end (the slideshow).
    public func show(_ download: ItemViewModel, maxPixelSize: Int, playsThrough: Bool = false) {
        stop()
        self.download = download
        isShowingFullImage = false
        fullImageSize = nil
        failure = nil
        file = nil
        requestedURL = nil  // Retry must never load the previous item's image
        canvas.resetRotation()
        status.hideMessage()
        status.offerOpenInBrowser(download.item.pageURL != nil && download.item.fullImageURL == nil)
        // TRANSLATORS: the picture's name for screen readers; {title} is the image's title.
        canvas.area.accessibleName = tr("Large view: {title}", ["title": download.item.displayTitle])
        self.maxPixelSize = maxPixelSize

        let item = download.item
        let hidden = download.state == .sensitiveHidden
        showsCurrentItem = false
        if let thumbnail = download.cachedThumbnail?.pixbuf, !hidden {
            shownPixbuf = thumbnail
            showsCurrentItem = true
            canvas.show(ImageSurface(thumbnail), imageWidth: thumbnail.width, imageHeight: thumbnail.height,
                        resolution: 1, isPlaceholder: true)
        }
        if let itemMedia = item.media, !hidden {
            if !showsCurrentItem { clearPicture() }
            status.offerOpenInBrowser(false)
            media.show(itemMedia, isSound: item.kind == .audio, hasStill: showsCurrentItem, playsThrough: playsThrough)
        } else if let request = pictureRequest(for: download) {
            // Without a thumbnail the previous image stays until this one can be painted.
            load(request.url)
        } else {
            clearPicture()
            if item.mediaURLRejected && !hidden {
                failure = HTTPError.notAWebAddress.message
                status.showMessage(Self.notLoaded(HTTPError.notAWebAddress.message))
            } else if hidden {
                // TRANSLATORS: “Show Sensitive Content” is the main menu's item of that name.
                status.showMessage(tr("Sensitive content is hidden. Turn on “Show Sensitive Content” in the menu to see it."))
            } else if item.kind != .image {
                status.showMessage(tr("This item is not an image."))
            }
        }
        changed()
    }

    /// Cancels the downloads and decodes in flight; called when the view closes or moves to another item.
    public func stop() {
        generation += 1
        task?.cancel()
        task = nil
        detail.cancel()
        animation.stop()
        media.stop()
        original = nil
        status.setLoading(false)
    }

    /// The view closed: stop, and let go of every picture (a full-resolution one is tens of megabytes).
    public func close() {
        stop()
        clearPicture()
    }

    private func clearPicture() {
        shownPixbuf = nil
        canvas.clear()
    }

    /// The picture `show` loads for `download` at the size the view last showed one: nil for a video, a
    /// sound, a hidden sensitive item or one without an image. The slideshow loads the next one ahead with it,
    /// so that `show` finds it decoded (or joins its decode).
    public func pictureRequest(for download: ItemViewModel) -> ImageRequest? {
        guard download.item.media == nil, download.state != .sensitiveHidden, maxPixelSize > 0,
              let url = download.item.largeImageURL(fitting: maxPixelSize, maxPixels: pipeline.limits.decode.maxPixels)
        else { return nil }
        return request(url)
    }

    private func request(_ url: String) -> ImageRequest {
        ImageRequest(url: url, size: .fitting(maxPixelSize), keepsOriginal: true, playsAnimation: true, priority: .interactive)
    }

    private func load(_ url: String) {
        requestedURL = url
        status.setLoading(true)
        let generation = self.generation
        let request = request(url)
        let task = pipeline.loadImage(request, progress: { [weak self] progress in self?.status.showProgress(progress) }) {
            [weak self] result in
            guard let self, self.generation == generation else { return }
            self.fullImageArrived(result)
        }
        if task.isPending { self.task = task }  // else a cached image completed at once
    }

    /// Tries the download that failed again (the Retry button).
    public func retry() {
        if media.isActive { return media.player.retry() }
        guard let url = requestedURL, failure != nil, task == nil else { return }
        failure = nil
        status.hideMessage()
        load(url)
        changed()
    }

    private func fullImageArrived(_ result: Result<ImageResponse, ImageLoadError>) {
        task = nil
        status.setLoading(false)
        // An original too large to decode, which its size in the feed did not give away: the service's own
        // scaled copy shows the same picture.
        if case .failure(.tooLarge) = result, let rendition = download?.item.rendition(covering: maxPixelSize),
           rendition != requestedURL {
            return load(rendition)
        }
        switch result {
        case .success(let response):
            original = response.original
            file = response.file
            let image = response.image
            fullImageSize = (image.originalWidth, image.originalHeight)
            let generation = self.generation
            ImageSurface.make(from: image.pixbuf) { [weak self] surface in
                guard let self, self.generation == generation else { return }
                self.fullImagePainted(image, surface: surface)
                self.animation.arrived(response.animation, image: image)
            }
        case .failure(let error) where error.isCancelled:
            return
        case .failure(let error):
            // Nothing of this item to show: the previous item's picture must not stand in for it.
            if !showsCurrentItem { clearPicture() }
            failure = error.message
            status.showMessage(Self.notLoaded(error.message), retry: error != .http(.notAWebAddress))
            changed()
        }
    }

    /// The decoded image is ready to be painted: it replaces the thumbnail (or the previous item) in one frame.
    private func fullImagePainted(_ image: DecodedPixbuf, surface: ImageSurface) {
        shownPixbuf = image.pixbuf
        showsCurrentItem = true
        isShowingFullImage = true
        canvas.show(surface, imageWidth: image.originalWidth, imageHeight: image.originalHeight,
                    resolution: Double(surface.pixelWidth) / Double(max(1, image.originalWidth)), isPlaceholder: false)
        if image.pixbuf.width >= image.originalWidth { detail.useScreenDecode(image.pixbuf) }
        changed()
    }

    private func animationFrame(_ frame: AnimationPlayer.Frame) {
        guard let size = fullImageSize else { return }
        shownPixbuf = frame.pixbuf
        canvas.replacePicture(frame.surface, resolution: Double(frame.surface.pixelWidth) / Double(max(1, size.width)))
    }

    /// "4000 × 3000 pixels"
    private static func pixels(_ width: Int, _ height: Int) -> String {
        tr("{width} × {height} pixels", ["width": width, "height": height])
    }

    private static func notLoaded(_ reason: String) -> String {
        // TRANSLATORS: {reason} is why, such as "HTTP 404 Not Found" or "Timed out (no data for 15 s)".
        tr("The full image could not be loaded: {reason}", ["reason": reason])
    }

    /// Something about the item shown changed: the picture's accessible description and the details panel
    /// follow, then the window (title, size line).
    private func changed() {
        if let download {
            // A hidden sensitive picture's alt text would describe what is hidden (as its title does not).
            let description = download.state == .sensitiveHidden ? "" : download.item.altText ?? ""
            // Set only when it changes: each set is an event to every screen reader listening.
            if canvas.area.accessibleDescription != description { canvas.area.accessibleDescription = description }
        }
        details.follow()
        onChange?()
    }

    // MARK: Details

    /// The details panel is open (or opening).
    public var isShowingDetails: Bool { details.isOpen }

    /// Opens or closes the details panel (`win.show-details`: Alt+Return, the header bar's toggle).
    public func setDetailsShown(_ shown: Bool) { details.setOpen(shown) }

    /// What the details panel shows of the item: what its player found of a video or sound, else what fetching
    /// and decoding the image found.
    private var itemDetails: ItemDetails? {
        guard let download else { return nil }
        let hidden = download.state == .sensitiveHidden
        if media.isActive { return ItemDetails(item: download.item, hidden: hidden, playing: media.player) }
        return ItemDetails(item: download.item, hidden: hidden, requestedURL: requestedURL, decodedSize: fullImageSize,
                           file: file, failure: failure)
    }

    // MARK: Video and sound

    /// "Video · 0:07 / 0:30", "Sound · …, no sound output".
    private var mediaLine: String {
        let kind = download?.item.kind == .audio ? tr("Sound") : tr("Video")
        guard let duration = media.player.duration else { return kind }
        let line = kind + " · " + DurationText.clock(duration)
        // TRANSLATORS: appended to the large view's subtitle when a video plays without sound.
        return media.player.hasNoSoundOutput ? line + " · " + tr("no sound output") : line
    }

    /// The player's status changed: the spinner while it loads, the reason and Retry when it failed.
    private func mediaChanged() {
        guard media.isActive else { return }
        let status = media.player.status
        self.status.setLoading(status == .loading)
        // The spinner alone: the player knows no fraction of what it needs before the first frame.
        self.status.hideProgressBar()
        if case .failed(let reason) = status {
            failure = reason
            self.status.showMessage(reason, retry: true)
        } else if failure != nil {
            failure = nil
            self.status.hideMessage()
        }
        changed()
    }

    // MARK: Animation

    /// The player of the animation shown, if it is one that plays.
    var animationPlayer: AnimationPlayer? { animation.player }

    /// Play or pause the video, sound or animation shown (the button, Space); nothing for a still image.
    public func togglePlayback() {
        if media.isActive { return media.togglePlayback() }
        animation.togglePlayback()
    }

    /// Mute or unmute the video or sound shown (M).
    public func toggleMute() { media.toggleMute() }

    /// The window was minimized or brought back: an animation or a video holds still meanwhile.
    public func setWindowMinimized(_ minimized: Bool) {
        animation.setWindowMinimized(minimized)
        media.setWindowMinimized(minimized)
    }

    /// The full-resolution pixbuf, once decoded (the clipboard's copy comes from it).
    public var fullResolutionPixbuf: Pixbuf? { detail.pixbuf }

    /// Why the full-resolution decode failed (the view goes on showing the screen-sized one, enlarged; the
    /// subtitle says why it is not sharper).
    public var detailFailure: String? { detail.failure }

    /// Starts the full-resolution decode when the zoom asks for more detail than the screen-sized decode has.
    /// An animation's frames are enlarged instead: the next frame would replace a sharper one at once.
    private func loadDetailIfNeeded() {
        guard isShowingFullImage, canvas.needsSharperPicture, detail.isIdle, animationPlayer == nil,
              let size = fullImageSize, let url = requestedURL else { return }
        if detail.load(url, imageSize: size), original == nil { status.setLoading(true) }
    }
}
