import Glibc

/// Where an image sits in the large view: its zoom and the position of its top-left corner, in the view's
/// logical pixels. Pure geometry (no widgets), so every rule is checked without a window.
///
/// Zoom is in device pixels per image pixel, so 1 is "100 %": one pixel of the image on one pixel of the
/// screen, also on a HiDPI screen (scale 2 draws it at half the logical size). "Fit" follows the view's size:
/// the whole image with a margin, never beyond 100 % for the real image (a small picture is not blown up);
/// a placeholder (the thumbnail while the image loads) is stretched to fit.
struct ImageViewport: Equatable {
    static let margin = 12.0
    static let maxZoom = 20.0
    /// Each zoom step multiplies or divides by this (five steps double the size, about).
    static let zoomStep = 1.25

    var imageWidth: Double
    var imageHeight: Double
    var viewWidth = 1.0
    var viewHeight = 1.0
    var deviceScale = 1.0
    /// False for a placeholder, which may be stretched past 100 % to fill the view.
    var capsFitAtRealSize = true
    /// Following the view's size (fit) or at a zoom of the user's choosing.
    private(set) var isFit = true
    private(set) var zoom = 1.0
    private(set) var offsetX = 0.0
    private(set) var offsetY = 0.0

    init(imageWidth: Double, imageHeight: Double) {
        self.imageWidth = max(1, imageWidth)
        self.imageHeight = max(1, imageHeight)
        fit()
    }

    /// Logical pixels per image pixel.
    var scale: Double { zoom / deviceScale }
    var shownWidth: Double { imageWidth * scale }
    var shownHeight: Double { imageHeight * scale }

    /// The zoom at which the whole image fits.
    var fitZoom: Double {
        let available = (max(1, viewWidth - 2 * Self.margin), max(1, viewHeight - 2 * Self.margin))
        let zoom = min(available.0 / imageWidth, available.1 / imageHeight) * deviceScale
        return capsFitAtRealSize ? min(zoom, 1) : zoom
    }

    var maxZoom: Double { max(Self.maxZoom, fitZoom) }

    /// The image is larger than the view in some direction: dragging and the arrow keys pan it.
    var isZoomedIn: Bool { shownWidth > viewWidth + 0.5 || shownHeight > viewHeight + 0.5 }

    mutating func resize(width: Double, height: Double, deviceScale: Double) {
        viewWidth = max(1, width)
        viewHeight = max(1, height)
        self.deviceScale = max(1, deviceScale)
        if isFit { fit() } else { setZoom(zoom, around: nil) }
    }

    /// Back to fit, centred.
    mutating func fit() {
        isFit = true
        zoom = fitZoom
        clamp()
    }

    /// Sets the zoom keeping the image point under `anchor` (view coordinates; nil: the view's centre) where it
    /// is, as far as the edges allow. The fit zoom or below is fit again (it follows the window from then on).
    mutating func setZoom(_ newZoom: Double, around anchor: (x: Double, y: Double)?) {
        let point = anchor ?? centre
        setZoom(newZoom, placing: imagePoint(at: point), at: point)
    }

    /// Sets the zoom with `imagePoint` (image pixels) at `anchor` (view coordinates), as far as the edges
    /// allow. An animation keeps both from its start, so where it ends does not depend on how many frames
    /// it had (an edge clamping an early frame would otherwise shift every later one).
    mutating func setZoom(_ newZoom: Double, placing imagePoint: (x: Double, y: Double), at anchor: (x: Double, y: Double)) {
        isFit = newZoom <= fitZoom * 1.0001
        zoom = isFit ? fitZoom : min(newZoom, maxZoom)
        offsetX = anchor.x - imagePoint.x * scale
        offsetY = anchor.y - imagePoint.y * scale
        clamp()
    }

    /// The image point (image pixels) under `point` (view coordinates).
    func imagePoint(at point: (x: Double, y: Double)) -> (x: Double, y: Double) {
        ((point.x - offsetX) / scale, (point.y - offsetY) / scale)
    }

    var centre: (x: Double, y: Double) { (viewWidth / 2, viewHeight / 2) }

    /// Moves the image by (dx, dy) logical pixels, as far as its edges allow.
    mutating func pan(dx: Double, dy: Double) {
        offsetX += dx
        offsetY += dy
        clamp()
    }

    /// Places the image's top-left corner (then clamps), e.g. from where a drag started.
    mutating func move(toX x: Double, y: Double) {
        offsetX = x
        offsetY = y
        clamp()
    }

    /// An image smaller than the view is centred; a larger one covers the view (no empty band at an edge).
    private mutating func clamp() {
        offsetX = Self.clamped(offsetX, shown: shownWidth, view: viewWidth)
        offsetY = Self.clamped(offsetY, shown: shownHeight, view: viewHeight)
    }

    private static func clamped(_ offset: Double, shown: Double, view: Double) -> Double {
        if shown <= view { return ((view - shown) / 2).rounded() }
        return min(0, max(view - shown, offset))
    }

    /// The zoom one step in (+1) or out (-1) from `zoom`.
    static func stepped(_ zoom: Double, by steps: Double) -> Double {
        zoom * pow(zoomStep, steps)
    }
}
