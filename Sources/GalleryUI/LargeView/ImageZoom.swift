import Glibc
import GObjectBindings
import GtkBindings

/// Where the large view's picture is and how it moves: the zoom and pan (`ImageViewport`), the zoom's easing,
/// dragging, the wheel (with Ctrl: zoomed around the pointer), a pinch (zoomed around the fingers, following
/// them) and the keys' steps, and whether it is moving or has come to rest. When the picture fits, a drag
/// carries the image out of the app (`onDragOut`) and a touchpad's two-finger swipe changes it (`onSwipe`). The window's zoom actions and the title's zoom read and command it here; `ImageCanvas`
/// paints what it says.
@MainActor
public final class ImageZoom {
    static let zoomMilliseconds = 200.0
    static let restMilliseconds: UInt32 = 150

    private let area: DrawingArea
    private(set) var viewport: ImageViewport?
    private let ticker: FrameTicker
    private var easing: ZoomEasing?
    private var dragOrigin: (x: Double, y: Double)?
    private var drag: DragGesture!
    private var pinch: ZoomGesture!
    /// A pinch under way: the zoom it started at, and the image point between the fingers then (kept between them).
    private var pinchStart: (zoom: Double, imagePoint: (x: Double, y: Double))?
    /// Where a drag that may become a drag out began (the picture fits).
    private var dragOutStart: (x: Double, y: Double)?
    private var swipe = TouchpadSwipe()
    private var restTimer: MainLoopSource?
    private var pointer: (x: Double, y: Double)?
    /// Moving: easing, dragged, or within `restMilliseconds` of the last step.
    public private(set) var isMoving = false

    /// The picture moved: it needs painting.
    var onMoved: (@MainActor () -> Void)?
    /// The view came to rest (the title shows the zoom; the picture is painted well once).
    var onRest: (@MainActor () -> Void)?
    /// A zoom was asked for: a sharper decode may be needed for it.
    var onZoomRequested: (@MainActor () -> Void)?
    /// A touchpad's two-finger swipe over the fitted picture: the next (+1) or previous (-1) image.
    var onSwipe: (@MainActor (Int) -> Void)?
    /// A drag over the fitted picture passed the drag threshold: start a drag and drop from `gesture`, which
    /// began at (`x`, `y`).
    var onDragOut: (@MainActor (_ gesture: DragGesture, _ x: Double, _ y: Double) -> Void)?

    /// A zoom easing from `from` to `to`, with `imagePoint` held at `anchor` throughout.
    private struct ZoomEasing {
        var start: Int?
        let from: Double
        let to: Double
        let anchor: (x: Double, y: Double)
        let imagePoint: (x: Double, y: Double)
    }

    init(area: DrawingArea) {
        self.area = area
        ticker = FrameTicker(widget: area)
        area.onPointerMoved { [weak self] point in self?.pointer = point }
        area.onScrollInput { [weak self] input in self?.scrolled(input) ?? false }
        drag = DragGesture(on: area)
        drag.onBegin { [weak self] x, y in self?.dragBegan(x: x, y: y) }
        drag.onUpdate { [weak self] dx, dy in self?.dragged(dx: dx, dy: dy) }
        drag.onEnd { [weak self] _, _ in self?.dragEnded() }
        pinch = ZoomGesture(on: area)
        pinch.onBegin { [weak self] x, y in self?.pinchBegan(x: x, y: y) }
        pinch.onUpdate { [weak self] scale, x, y in self?.pinchUpdated(scale: scale, x: x, y: y) }
        pinch.onEnd { [weak self] in self?.pinchEnded() }
    }

    // MARK: What the window reads

    /// Zoom in device pixels per image pixel (1 = 100 %).
    public var level: Double { viewport?.zoom ?? 1 }
    /// The zoom follows the window (fit).
    public var isFit: Bool { viewport?.isFit ?? true }
    /// The image is larger than the view: dragging and the arrow keys pan it.
    public var isZoomedIn: Bool { viewport?.isZoomedIn ?? false }
    /// Where the image's top-left corner is in the view (logical pixels).
    public var imageOffset: (x: Double, y: Double) { (viewport?.offsetX ?? 0, viewport?.offsetY ?? 0) }
    /// The zoom being shown, or the one an easing is heading for.
    var targetZoom: Double { easing?.to ?? viewport?.zoom ?? 1 }

    // MARK: Commands (keys, menu, wheel, double-click)

    public func zoomIn() { zoom(steps: 1) }
    public func zoomOut() { zoom(steps: -1) }

    /// 100 %: one image pixel on one screen pixel.
    public func zoomToRealSize() { zoom(to: 1, around: pointer) }

    public func zoomToFit() {
        guard let viewport else { return }
        zoom(to: viewport.fitZoom, around: pointer)
    }

    /// Pans one arrow-key step; false (nothing done) when the image fits, so the key can change the image.
    public func pan(dx: Int, dy: Int) -> Bool {
        guard let viewport, viewport.isZoomedIn else { return false }
        let step = (max(48, viewport.viewWidth / 10), max(48, viewport.viewHeight / 10))
        // The image moves the other way: → shows what is to the right.
        self.viewport?.pan(dx: -Double(dx) * step.0, dy: -Double(dy) * step.1)
        moved()
        return true
    }

    /// Zooms by `steps` (+1 in, -1 out) around the pointer when it is over the picture, else the centre.
    func zoom(steps: Double, around anchor: (x: Double, y: Double)? = nil, animated: Bool = true) {
        zoom(to: ImageViewport.stepped(targetZoom, by: steps), around: anchor ?? pointer, animated: animated)
    }

    /// Double-click: fit ↔ 100 %.
    func toggleRealSize(around anchor: (x: Double, y: Double)?) {
        guard let viewport else { return }
        zoom(to: viewport.isFit ? 1 : viewport.fitZoom, around: anchor)
    }

    func zoom(to target: Double, around anchor: (x: Double, y: Double)?, animated: Bool = true) {
        guard let viewport, viewport.capsFitAtRealSize else { return }
        let clampedTarget = min(max(target, viewport.fitZoom), viewport.maxZoom)
        defer { onZoomRequested?() }
        guard animated, ticker.start({ [weak self] time in self?.easingFrame(time) ?? false }) else {
            easing = nil
            self.viewport?.setZoom(clampedTarget, around: anchor)
            return moved()
        }
        let point = anchor ?? viewport.centre
        easing = ZoomEasing(start: nil, from: viewport.zoom, to: clampedTarget, anchor: point,
                            imagePoint: viewport.imagePoint(at: point))
        markMoving()
    }

    // MARK: The picture shown

    /// A new image of `width` × `height` pixels, fitted. A placeholder (the thumbnail) is stretched to fit; a
    /// real image stops at 100 %.
    func reset(imageWidth: Int, imageHeight: Int, isPlaceholder: Bool) {
        stopMoving()
        var viewport = ImageViewport(imageWidth: Double(imageWidth), imageHeight: Double(imageHeight))
        viewport.capsFitAtRealSize = !isPlaceholder
        viewport.resize(width: Double(area.allocatedWidth), height: Double(area.allocatedHeight),
                        deviceScale: Double(max(1, area.scaleFactor)))
        self.viewport = viewport
        updateCursor()
    }

    /// No picture (the view closed).
    func clear() {
        stopMoving()
        viewport = nil
    }

    func resized(width: Int, height: Int) {
        viewport?.resize(width: Double(width), height: Double(height), deviceScale: Double(max(1, area.scaleFactor)))
    }

    // MARK: Easing, wheel and drag

    /// One frame of a zoom easing (cubic ease-out) to its target, the anchor's image point staying put. Zoom
    /// is interpolated geometrically, so each frame changes the size by the same ratio.
    private func easingFrame(_ time: Int) -> Bool {
        guard let easing else { return false }
        let start = easing.start ?? time
        if easing.start == nil { self.easing?.start = time }
        let progress = min(1, Double(time - start) / 1000 / Self.zoomMilliseconds)
        let eased = 1 - pow(1 - progress, 3)
        let zoom = easing.from * pow(easing.to / easing.from, eased)
        viewport?.setZoom(zoom, placing: easing.imagePoint, at: easing.anchor)
        if progress >= 1 { self.easing = nil }
        moved()
        return self.easing != nil
    }

    private func scrolled(_ input: ScrollInput) -> Bool {
        guard let viewport else { return false }
        if input.withControl {
            // Wheel clicks (whole steps, also when XInput2 reports them as smooth deltas) ease to their zoom;
            // a touchpad's fractions follow the fingers at once.
            zoom(steps: -input.dy, around: (input.x, input.y), animated: abs(input.dy) >= 1)
            return true
        }
        if input.isFromTouchpad, !viewport.isZoomedIn {
            if let step = swipe.add(input) { onSwipe?(step) }
            return true
        }
        guard viewport.isZoomedIn else { return false }
        let step = KineticScroll.wheelStep(pageSize: viewport.viewHeight)
        self.viewport?.pan(dx: -input.dx * step, dy: -input.dy * step)
        moved()
        return true
    }

    private func dragBegan(x: Double, y: Double) {
        guard let viewport, pinchStart == nil else { return }
        guard viewport.isZoomedIn else {
            dragOutStart = (x, y)
            return
        }
        dragOrigin = (viewport.offsetX, viewport.offsetY)
        area.setCursor("grabbing")
    }

    private func dragged(dx: Double, dy: Double) {
        if let start = dragOutStart, DragSource.passesThreshold(on: area, dx: dx, dy: dy) {
            dragOutStart = nil
            return onDragOut?(drag, start.x, start.y) ?? ()
        }
        guard let dragOrigin else { return }
        viewport?.move(toX: dragOrigin.x + dx, y: dragOrigin.y + dy)
        moved()
    }

    private func dragEnded() {
        dragOutStart = nil
        guard dragOrigin != nil else { return }
        dragOrigin = nil
        updateCursor()
        markMoving()
    }

    // MARK: Pinch

    /// Fingers down: the zoom and the image point between them are kept, as Eye of GNOME does; a drag's pan
    /// or an easing under way stops, so that only the fingers move the picture.
    func pinchBegan(x: Double, y: Double) {
        guard let viewport else { return }
        ticker.stop()
        easing = nil
        dragOrigin = nil
        dragOutStart = nil
        pinchStart = (viewport.zoom, viewport.imagePoint(at: (x, y)))
        markMoving()
    }

    /// The zoom follows the fingers' spread at once (no easing: the fingers are the animation), and the image
    /// point that was between them stays between them as they move.
    func pinchUpdated(scale: Double, x: Double, y: Double) {
        guard let pinchStart, let viewport, viewport.capsFitAtRealSize, scale > 0 else { return }
        let zoom = min(max(pinchStart.zoom * scale, viewport.fitZoom), viewport.maxZoom)
        self.viewport?.setZoom(zoom, placing: pinchStart.imagePoint, at: (x, y))
        onZoomRequested?()
        moved()
    }

    func pinchEnded() {
        guard pinchStart != nil else { return }
        pinchStart = nil
        updateCursor()
        markMoving()
    }

    // MARK: Motion and rest

    private func moved() {
        markMoving()
        onMoved?()
    }

    /// Frames are filtered cheaply until nothing moved for `restMilliseconds`.
    private func markMoving() {
        isMoving = true
        restTimer?.cancel()
        restTimer = MainLoopSource.after(milliseconds: Self.restMilliseconds) { [weak self] in
            guard let self else { return }
            self.restTimer = nil
            guard self.easing == nil, self.dragOrigin == nil, self.pinchStart == nil else { return self.markMoving() }
            self.isMoving = false
            self.updateCursor()
            self.onRest?()
        }
    }

    private func stopMoving() {
        ticker.stop()
        easing = nil
        dragOrigin = nil
        pinchStart = nil
        dragOutStart = nil
        restTimer?.cancel()
        restTimer = nil
        isMoving = false
    }

    private func updateCursor() {
        area.setCursor(dragOrigin != nil ? "grabbing" : isZoomedIn ? "grab" : nil)
    }
}
