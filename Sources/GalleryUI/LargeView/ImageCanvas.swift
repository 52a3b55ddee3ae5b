import GObjectBindings
import GtkBindings

/// The large view's picture: the image painted where its zoom (`ImageZoom`) puts it; a double-click toggles
/// between fit and 100 %, a right-click asks for the image menu.
///
/// Each resolution of the image is one cairo surface (`ImageSurface`), painted through a pattern matrix, so a
/// frame only samples the pixels that land in the view. While the view moves (a zoom easing to its target, a
/// drag, keys held) frames use bilinear filtering, cheap at any zoom; once it comes to rest with the surface
/// shrunk more than twice, the visible region is filtered well (cairo GOOD) once and that copy is painted 1:1
/// until the next move.
/// A higher resolution arriving replaces the lower one in the same place: the geometry is in image pixels.
@MainActor
final class ImageCanvas {
    /// Shrinking a surface by more than this, the picture at rest is filtered with cairo's GOOD filter.
    static let goodFilterShrink = 2.0

    let area = DrawingArea()
    let zoom: ImageZoom
    /// The image's surfaces, by resolution (surface pixels per image pixel).
    private var pictures: [(surface: ImageSurface, resolution: Double)] = []
    /// The view's pixels of the image, redrawn when the view changed; `restRender` says it holds a
    /// GOOD-filtered rest frame for that key, kept until the next move.
    private var buffer: ImageSurface?
    private var restRender: RestKey?
    /// Quarter turns clockwise the picture is shown at (R, Shift+R): the view only, never the file.
    private(set) var quarterTurns = 0
    /// The image shown, unturned: its size and whether it is a placeholder.
    private var shown: (width: Int, height: Int, isPlaceholder: Bool)?

    /// The view came to rest (the title shows the zoom).
    var onZoomSettled: (@MainActor () -> Void)?
    /// A right-click on the picture.
    var onContextMenu: (@MainActor (ButtonPress) -> Void)?

    private struct RestKey: Equatable {
        let surface: ObjectIdentifier
        let viewport: ImageViewport
        let quarterTurns: Int
    }

    init() {
        zoom = ImageZoom(area: area)
        area.hexpand = true
        area.vexpand = true
        area.canFocus = false
        area.onDraw { [weak self] context in
            self?.draw(context)
            return true
        }
        area.onSizeAllocate { [weak self] width, height in self?.zoom.resized(width: width, height: height) }
        area.onButtonPress { [weak self] press in self?.pressed(press) ?? false }
        zoom.onMoved = { [weak self] in self?.area.queueDraw() }
        zoom.onRest = { [weak self] in
            self?.area.queueDraw()
            self?.onZoomSettled?()
        }
    }

    // MARK: Pictures

    /// Shows a new image of `width` × `height` pixels, fitted, through `surface` (`resolution` surface pixels
    /// per image pixel). A placeholder (the thumbnail) is stretched to fit; a real image stops at 100 %.
    func show(_ surface: ImageSurface, imageWidth: Int, imageHeight: Int, resolution: Double, isPlaceholder: Bool) {
        shown = (imageWidth, imageHeight, isPlaceholder)
        resetZoom()
        pictures = [(surface, resolution)]
        restRender = nil
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

    /// Turns the picture by `turns` quarter turns (clockwise when positive) and fits it again, as EOG does.
    func rotate(by turns: Int) {
        guard shown != nil else { return }
        setQuarterTurns(quarterTurns + turns)
    }

    /// Shows the next item unturned; a picture still shown until that item's arrives is fitted upright too.
    func resetRotation() { setQuarterTurns(0) }

    private func setQuarterTurns(_ turns: Int) {
        let turns = (turns % 4 + 4) % 4
        guard turns != quarterTurns else { return }
        quarterTurns = turns
        resetZoom()
        restRender = nil
        area.queueDraw()
    }

    /// The viewport fitted to the picture as it is turned.
    private func resetZoom() {
        guard let shown else { return }
        let sideways = quarterTurns % 2 == 1
        zoom.reset(imageWidth: sideways ? shown.height : shown.width, imageHeight: sideways ? shown.width : shown.height,
                   isPlaceholder: shown.isPlaceholder)
    }

    /// Lets go of every surface (the view closed).
    func clear() {
        shown = nil
        zoom.clear()
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
        guard let viewport = zoom.viewport, viewport.capsFitAtRealSize else { return false }
        return zoom.targetZoom > bestResolution * 1.01
    }

    private func pressed(_ press: ButtonPress) -> Bool {
        if press.triggersContextMenu {
            onContextMenu?(press)
            return true
        }
        guard press.isDoubleClick, press.isPrimaryButton else { return false }
        zoom.toggleRealSize(around: (press.x, press.y))
        return true
    }

    // MARK: Drawing

    /// Renders the part of the image in view into a buffer of the view's size (on the CPU, touching only the
    /// pixels shown) and paints that 1:1. Moving, or shrinking the surface at most twice: bilinear, redrawn
    /// each frame into the same buffer; at rest beyond that: GOOD, drawn once and kept until the next move.
    private func draw(_ context: DrawingContext) {
        area.renderBackground(context)
        guard let viewport = zoom.viewport, let picture = picture(for: viewport.zoom) else { return }
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
        let good = !zoom.isMoving && 1 / scale > Self.goodFilterShrink
        let key = RestKey(surface: ObjectIdentifier(picture.surface), viewport: viewport, quarterTurns: quarterTurns)
        if !good || restRender != key {
            if buffer?.pixelWidth != width || buffer?.pixelHeight != height {
                buffer = nil  // the old buffer goes before the new one is made
                buffer = ImageSurface(width: width, height: height)
            }
            buffer?.draw(picture.surface, x: x, y: y, scale: scale, filter: good ? .good : .fast, quarterTurns: quarterTurns)
            restRender = good ? key : nil
        }
        buffer?.paintUnscaled(on: context, x: left, y: top, deviceScale: device)
    }

    /// The least detailed surface that still has a pixel for every screen pixel at `zoom`, else the sharpest.
    private func picture(for zoom: Double) -> (surface: ImageSurface, resolution: Double)? {
        pictures.first { $0.resolution >= zoom * 0.99 } ?? pictures.last
    }
}
