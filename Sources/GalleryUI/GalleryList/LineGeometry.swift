/// Where the items of a gallery sit when laid out in lines of `columns` items (the list: one), each line
/// `lineHeight` pixels tall, with the footer after the last line. Pure arithmetic: the view's scrolling,
/// binding, keys and thumbnail demand all go through it, for the list and the grid alike.
struct LineGeometry: Equatable {
    var count = 0
    var columns = 1
    var lineHeight = 110
    var footerHeight = 52

    var lineCount: Int { (count + columns - 1) / columns }

    func line(of index: Int) -> Int { max(0, index) / max(1, columns) }

    /// The column of item `index` in its line.
    func column(of index: Int) -> Int { max(0, index) % max(1, columns) }

    /// Total height of the gallery: every line, then the footer.
    var contentHeight: Int { lineCount * lineHeight + footerHeight }

    /// The lines intersecting the `height` pixels from `top`.
    func lines(in top: Double, height: Double) -> Range<Int> {
        guard count > 0, height > 0, lineHeight > 0 else { return 0..<0 }
        let first = min(lineCount, Int(max(0, top)) / lineHeight)
        let last = min(lineCount, (Int((top + height).rounded(.up)) + lineHeight - 1) / lineHeight)
        return first..<max(first, last)
    }

    /// The items on `lines`.
    func items(onLines lines: Range<Int>) -> Range<Int> {
        let first = min(count, lines.lowerBound * columns)
        return first..<max(first, min(count, lines.upperBound * columns))
    }

    /// The items on the lines intersecting the `height` pixels from `top`.
    func items(in top: Double, height: Double) -> Range<Int> {
        items(onLines: lines(in: top, height: height))
    }

    /// Where line `line` begins, in pixels from the top of the gallery.
    func top(ofLine line: Int) -> Double { Double(line * lineHeight) }

    /// Where the view's top is, as an item and how far into its line (0 ≤ fraction < 1): what stays put when
    /// the lines change (another view, a new width, a measured height).
    func anchor(at value: Double) -> (index: Int, fraction: Double) {
        guard lineHeight > 0 else { return (0, 0) }
        let position = max(0, value) / Double(lineHeight)
        let line = Int(position)
        return (min(max(0, count - 1), line * columns), position - Double(line))
    }

    /// The scroll value that puts `anchor` back at the view's top.
    func value(for anchor: (index: Int, fraction: Double)) -> Double {
        (Double(line(of: anchor.index)) + anchor.fraction) * Double(lineHeight)
    }
}
