import GalleryCore

/// How the gallery view lays its items out in lines: the list (a row per line) or the grid (as many tiles
/// per line as the width allows), how tall a line is — estimated until a bound cell was measured, and
/// remembered per view for switching back — and how wide a tile is. Plain values: the view measures its
/// cells and applies the outcome.
@MainActor
struct LineLayout {
    /// Before a line was measured.
    static let estimatedRowHeight = 110
    static let estimatedTileLineHeight = 208
    static let estimatedTileWidth = GalleryTile.thumbnailSize + 8
    /// Room between tiles, and between the grid and the window's edges.
    static let tileSpacing = 6
    static let gridMargin = 6

    /// The list or the grid.
    private(set) var mode: GalleryViewMode = .list
    /// Items per line: 1 in the list, as many tiles as the width allows in the grid.
    private(set) var columns = 1
    /// A list row's height, or a line of tiles' (tile and spacing).
    private(set) var lineHeight = LineLayout.estimatedRowHeight
    /// A cell of this view was measured (or its height is known from before).
    private(set) var isMeasured = false
    /// Measured line heights of each view, kept for switching back.
    private var measuredLineHeights: [GalleryViewMode: Int] = [:]
    /// A tile's width, theme padding included (measured from a bound tile).
    private(set) var tileWidth = LineLayout.estimatedTileWidth

    /// The grid's width: exactly `columns` tiles, so that the flow box's lines are the gallery's lines.
    var gridWidth: Int { columns * tileWidth + (columns - 1) * Self.tileSpacing }

    /// The other view: its measured line height if it had one, else the estimate.
    mutating func switchTo(_ newMode: GalleryViewMode) {
        mode = newMode
        if let measured = measuredLineHeights[newMode] {
            lineHeight = measured
            isMeasured = true
        } else {
            lineHeight = newMode == .grid ? Self.estimatedTileLineHeight : Self.estimatedRowHeight
            isMeasured = false
        }
    }

    /// Tiles per line for a viewport `width` pixels wide; 1 in the list.
    mutating func fit(width: Int) {
        let available = width - 2 * Self.gridMargin + Self.tileSpacing
        columns = mode == .grid ? max(1, available / (tileWidth + Self.tileSpacing)) : 1
    }

    /// A cell is about to be measured: this view's lines are measured from now on.
    mutating func startMeasuring() {
        isMeasured = true
    }

    /// A tile measured `width` wide; true when that is new (the columns are then to be fitted again).
    mutating func setTileWidth(_ width: Int) -> Bool {
        guard width > 0, width != tileWidth else { return false }
        tileWidth = width
        return true
    }

    /// A line measured `height` tall; true when the line height changed.
    mutating func setLineHeight(_ height: Int) -> Bool {
        guard height > 0 else { return false }
        measuredLineHeights[mode] = height
        guard height != lineHeight else { return false }
        lineHeight = height
        return true
    }
}
