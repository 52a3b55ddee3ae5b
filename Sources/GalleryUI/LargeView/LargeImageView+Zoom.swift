import GtkBindings

// MARK: Zoom

extension LargeImageView {
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
}
