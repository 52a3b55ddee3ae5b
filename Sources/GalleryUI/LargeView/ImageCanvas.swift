import Glibc
import GObjectBindings
import GtkBindings

/// The large view's picture: an image at any zoom, panned by dragging, the wheel (with Ctrl: zoomed around
/// the pointer) and the keys, double-click between fit and 100 %.
///
/// Each resolution of the image is one cairo surface (`ImageSurface`), painted through a pattern matrix, so a
/// frame only samples the pixels that land in the view. While the view moves (a zoom easing to its target, a
/// drag, keys held) frames use bilinear filtering, cheap at any zoom; once it rests for `restMilliseconds`
/// with the surface shrunk more than twice, the visible region is filtered well (cairo GOOD) once and that
/// copy is painted 1:1 until the next move.
/// A higher resolution arriving replaces the lower one in the same place: the geometry is in image pixels.
@MainActor
final class ImageCanvas {
    static let zoomMilliseconds = 200.0
    static let restMilliseconds: UInt32 = 150
    /// Shrinking a surface by more than this, the picture at rest is filtered with cairo's GOOD filter.
    static let goodFilterShrink = 2.0

    let area = DrawingArea()
    private(set) var viewport: ImageViewport?
    /// The image's surfaces, by resolution (surface pixels per image pixel).
    private var pictures: [(surface: ImageSurface, resolution: Double)] = []
    /// The view's pixels of the image, redrawn when the view changed; `restRender` says it holds a
    /// GOOD-filtered rest frame for that key, kept until the next move.
    private var buffer: ImageSurface?
    private var restRender: RestKey?
    private let ticker: FrameTicker
    private var zoomAnimation: ZoomAnimation?
    private var dragOrigin: (x: Double, y: Double)?
    private var drag: DragGesture!
    private var restTimer: MainLoopSource?
    private(set) var pointer: (x: Double, y: Double)?
    /// Moving: animating, dragged, or within `restMilliseconds` of the last step.
    private(set) var isMoving = false

    /// The view came to rest (the title shows the zoom).
    var onZoomSettled: (@MainActor () -> Void)?
    /// A zoom was asked for: a sharper decode may be needed for it.
    var onZoomRequested: (@MainActor () -> Void)?
    /// A right-click on the picture.
    var onContextMenu: (@MainActor (ButtonPress) -> Void)?

    /// A zoom easing from `from` to `to`, with `imagePoint` held at `anchor` throughout.
    private struct ZoomAnimation {
        var start: Int?
        let from: Double
        let to: Double
        let anchor: (x: Double, y: Double)
        let imagePoint: (x: Double, y: Double)
    }

    private struct RestKey: Equatable {
        let surface: ObjectIdentifier
        let viewport: ImageViewport
    }

    init() {
        ticker = FrameTicker(widget: area)
        area.hexpand = true
        area.vexpand = true
        area.canFocus = false
        area.onDraw { [weak self] context in
            self?.draw(context)
            return true
        }
        area.onSizeAllocate { [weak self] width, height in self?.resized(width: width, height: height) }
        area.onPointerMoved { [weak self] point in self?.pointer = point }
        area.onScrollInput { [weak self] input in self?.scrolled(input) ?? false }
        area.onButtonPress { [weak self] press in self?.pressed(press) ?? false }
        drag = DragGesture(on: area)
        drag.onBegin { [weak self] _, _ in self?.dragBegan() }
        drag.onUpdate { [weak self] dx, dy in self?.dragged(dx: dx, dy: dy) }
        drag.onEnd { [weak self] _, _ in self?.dragEnded() }
    }

    // MARK: Pictures

    /// Shows a new image of `width` × `height` pixels, fitted, through `surface` (`resolution` surface pixels
    /// per image pixel). A placeholder (the thumbnail) is stretched to fit; a real image stops at 100 %.
    func show(_ surface: ImageSurface, imageWidth: Int, imageHeight: Int, resolution: Double, isPlaceholder: Bool) {
        stopMoving()
        var viewport = ImageViewport(imageWidth: Double(imageWidth), imageHeight: Double(imageHeight))
        viewport.capsFitAtRealSize = !isPlaceholder
        viewport.resize(width: Double(area.allocatedWidth), height: Double(area.allocatedHeight),
                        deviceScale: Double(max(1, area.scaleFactor)))
        self.viewport = viewport
        pictures = [(surface, resolution)]
        restRender = nil
        updateCursor()
        area.queueDraw()
    }

    /// Adds a sharper surface of the image shown (the full-resolution decode), drawn from the next frame on.
    func addDetail(_ surface: ImageSurface, resolution: Double) {
        pictures.append((surface, resolution))
        pictures.sort { $0.resolution < $1.resolution }
        restRender = nil
        area.queueDraw()
    }

    /// Replaces the picture by another of the same image (an animation's next frame) where it is: same zoom,
    /// same place, whatever the view is doing.
    func replacePicture(_ surface: ImageSurface, resolution: Double) {
        pictures = [(surface, resolution)]
        restRender = nil
        area.queueDraw()
    }

    /// Lets go of every surface (the view closed).
    func clear() {
        stopMoving()
        viewport = nil
        pictures = []
        restRender = nil
        buffer = nil
        area.queueDraw()
    }

    var hasPicture: Bool { !pictures.isEmpty }
    /// The best resolution held, in surface pixels per image pixel (1: full resolution).
    var bestResolution: Double { pictures.last?.resolution ?? 0 }

    /// True when the zoom shows more detail than the sharpest surface holds.
    var needsSharperPicture: Bool {
        guard let viewport, viewport.capsFitAtRealSize else { return false }
        return targetZoom > bestResolution * 1.01
    }

    /// The zoom being shown, or the one an animation is heading for.
    var targetZoom: Double { zoomAnimation?.to ?? viewport?.zoom ?? 1 }

    // MARK: Zooming and panning (keys, menu, wheel, double-click)

    /// Zooms by `steps` (+1 in, -1 out) around the pointer when it is over the picture, else the centre.
    func zoom(steps: Double, around anchor: (x: Double, y: Double)? = nil, animated: Bool = true) {
        zoom(to: ImageViewport.stepped(targetZoom, by: steps), around: anchor ?? pointer, animated: animated)
    }

    /// 100 %: one image pixel on one screen pixel.
    func zoomToRealSize(around anchor: (x: Double, y: Double)? = nil) { zoom(to: 1, around: anchor ?? pointer) }

    func zoomToFit() {
        guard let viewport else { return }
        zoom(to: viewport.fitZoom, around: pointer)
    }

    /// Double-click: fit ↔ 100 %.
    func toggleRealSize(around anchor: (x: Double, y: Double)?) {
        guard let viewport else { return }
        if viewport.isFit { zoom(to: 1, around: anchor) } else { zoom(to: viewport.fitZoom, around: anchor) }
    }

    func zoom(to target: Double, around anchor: (x: Double, y: Double)?, animated: Bool = true) {
        guard let viewport, viewport.capsFitAtRealSize else { return }
        let clampedTarget = min(max(target, viewport.fitZoom), viewport.maxZoom)
        defer { onZoomRequested?() }
        guard animated, ticker.start({ [weak self] time in self?.animationFrame(time) ?? false }) else {
            zoomAnimation = nil
            self.viewport?.setZoom(clampedTarget, around: anchor)
            return moved()
        }
        let point = anchor ?? viewport.centre
        zoomAnimation = ZoomAnimation(start: nil, from: viewport.zoom, to: clampedTarget, anchor: point,
                                      imagePoint: viewport.imagePoint(at: point))
        markMoving()
    }

    /// One frame of a zoom easing (cubic ease-out) to its target, the anchor's image point staying put. Zoom
    /// is interpolated geometrically, so each frame changes the size by the same ratio.
    private func animationFrame(_ time: Int) -> Bool {
        guard let animation = zoomAnimation else { return false }
        let start = animation.start ?? time
        if animation.start == nil { zoomAnimation?.start = time }
        let progress = min(1, Double(time - start) / 1000 / Self.zoomMilliseconds)
        let eased = 1 - pow(1 - progress, 3)
        let zoom = animation.from * pow(animation.to / animation.from, eased)
        viewport?.setZoom(zoom, placing: animation.imagePoint, at: animation.anchor)
        if progress >= 1 { zoomAnimation = nil }
        moved()
        return zoomAnimation != nil
    }

    /// Pans one arrow-key step; false (nothing done) when the image fits, so the key can change the image.
    func panStep(dx: Int, dy: Int) -> Bool {
        guard let viewport, viewport.isZoomedIn else { return false }
        let step = (max(48, viewport.viewWidth / 10), max(48, viewport.viewHeight / 10))
        // The image moves the other way: → shows what is to the right.
        self.viewport?.pan(dx: -Double(dx) * step.0, dy: -Double(dy) * step.1)
        moved()
        return true
    }

    var isZoomedIn: Bool { viewport?.isZoomedIn ?? false }

    private func scrolled(_ input: ScrollInput) -> Bool {
        guard let viewport else { return false }
        if input.withControl {
            // Wheel clicks (whole steps, also when XInput2 reports them as smooth deltas) ease to their zoom;
            // a touchpad's fractions follow the fingers at once.
            zoom(steps: -input.dy, around: (input.x, input.y), animated: abs(input.dy) >= 1)
            return true
        }
        guard viewport.isZoomedIn else { return false }
        let step = KineticScroll.wheelStep(pageSize: viewport.viewHeight)
        self.viewport?.pan(dx: -input.dx * step, dy: -input.dy * step)
        moved()
        return true
    }

    private func pressed(_ press: ButtonPress) -> Bool {
        if press.triggersContextMenu {
            onContextMenu?(press)
            return true
        }
        guard press.isDoubleClick, press.isPrimaryButton else { return false }
        toggleRealSize(around: (press.x, press.y))
        return true
    }

    private func dragBegan() {
        guard let viewport, viewport.isZoomedIn else { return }
        dragOrigin = (viewport.offsetX, viewport.offsetY)
        area.setCursor("grabbing")
    }

    private func dragged(dx: Double, dy: Double) {
        guard let dragOrigin else { return }
        viewport?.move(toX: dragOrigin.x + dx, y: dragOrigin.y + dy)
        moved()
    }

    private func dragEnded() {
        guard dragOrigin != nil else { return }
        dragOrigin = nil
        updateCursor()
        markMoving()
    }

    // MARK: Motion and rest

    private func moved() {
        markMoving()
        area.queueDraw()
    }

    /// Frames are filtered cheaply until nothing moved for `restMilliseconds`.
    private func markMoving() {
        isMoving = true
        restTimer?.cancel()
        restTimer = MainLoopSource.after(milliseconds: Self.restMilliseconds) { [weak self] in
            guard let self else { return }
            self.restTimer = nil
            guard self.zoomAnimation == nil, self.dragOrigin == nil else { return self.markMoving() }
            self.isMoving = false
            self.updateCursor()
            self.area.queueDraw()
            self.onZoomSettled?()
        }
    }

    private func stopMoving() {
        ticker.stop()
        zoomAnimation = nil
        dragOrigin = nil
        restTimer?.cancel()
        restTimer = nil
        isMoving = false
    }

    private func updateCursor() {
        area.setCursor(dragOrigin != nil ? "grabbing" : isZoomedIn ? "grab" : nil)
    }

    private func resized(width: Int, height: Int) {
        guard var viewport else { return }
        viewport.resize(width: Double(width), height: Double(height), deviceScale: Double(max(1, area.scaleFactor)))
        self.viewport = viewport
    }

    // MARK: Drawing

    /// Renders the part of the image in view into a buffer of the view's size (on the CPU, touching only the
    /// pixels shown) and paints that 1:1. Moving, or shrinking the surface at most twice: bilinear, redrawn
    /// each frame into the same buffer; at rest beyond that: GOOD, drawn once and kept until the next move.
    private func draw(_ context: DrawingContext) {
        area.renderBackground(context)
        guard let viewport, let picture = picture(for: viewport.zoom) else { return }
        let device = viewport.deviceScale
        let left = max(0, viewport.offsetX)
        let top = max(0, viewport.offsetY)
        let width = Int(((min(viewport.viewWidth, viewport.offsetX + viewport.shownWidth) - left) * device).rounded(.up))
        let height = Int(((min(viewport.viewHeight, viewport.offsetY + viewport.shownHeight) - top) * device).rounded(.up))
        guard width > 0, height > 0 else { return }
        // In the buffer's pixels: where the image's corner is, and how wide one surface pixel is.
        let x = (viewport.offsetX - left) * device
        let y = (viewport.offsetY - top) * device
        let scale = viewport.zoom / picture.resolution
        let good = !isMoving && 1 / scale > Self.goodFilterShrink
        let key = RestKey(surface: ObjectIdentifier(picture.surface), viewport: viewport)
        if !good || restRender != key {
            if buffer?.pixelWidth != width || buffer?.pixelHeight != height {
                buffer = nil  // the old buffer goes before the new one is made
                buffer = ImageSurface(width: width, height: height)
            }
            buffer?.draw(picture.surface, x: x, y: y, scale: scale, filter: good ? .good : .fast)
            restRender = good ? key : nil
        }
        buffer?.paintUnscaled(on: context, x: left, y: top, deviceScale: device)
    }

    /// The least detailed surface that still has a pixel for every screen pixel at `zoom`, else the sharpest.
    private func picture(for zoom: Double) -> (surface: ImageSurface, resolution: Double)? {
        pictures.first { $0.resolution >= zoom * 0.99 } ?? pictures.last
    }
}
