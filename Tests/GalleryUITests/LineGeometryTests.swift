import XCTest
@testable import GalleryUI

/// The arithmetic both views share: items in lines of `columns`, the list being the one-column case.
final class LineGeometryTests: XCTestCase {
    func testLinesAndItemsOfAGrid() {
        let grid = LineGeometry(count: 30, columns: 4, lineHeight: 200, footerHeight: 50)
        XCTAssertEqual(grid.lineCount, 8, "seven full lines and one of two")
        XCTAssertEqual(grid.contentHeight, 8 * 200 + 50)
        XCTAssertEqual(grid.line(of: 29), 7)
        XCTAssertEqual(grid.column(of: 29), 1)
        XCTAssertEqual(grid.lines(in: 0, height: 500), 0..<3)
        XCTAssertEqual(grid.items(in: 0, height: 500), 0..<12)
        XCTAssertEqual(grid.items(in: 1_399, height: 300), 24..<30, "the last line is short")
        XCTAssertEqual(grid.items(onLines: 7..<9), 28..<30)
        XCTAssertEqual(grid.items(in: 0, height: 0), 0..<0)
    }

    func testTheListIsTheOneColumnCase() {
        let list = LineGeometry(count: 1_000, columns: 1, lineHeight: 108, footerHeight: 52)
        XCTAssertEqual(list.lineCount, 1_000)
        // 1,085…1,785 px: rows 10 (1,080…1,188) to 16 (1,728…1,836); row 17 begins below.
        XCTAssertEqual(list.items(in: 108 * 10 + 5, height: 700), 10..<17)
        XCTAssertEqual(list.items(in: 108 * 10, height: 108 * 7), 10..<17, "a row ending where the view ends is its last")
        XCTAssertEqual(list.value(for: list.anchor(at: 12_345.5)), 12_345.5, accuracy: 1e-9)
        XCTAssertEqual(LineGeometry(count: 100, columns: 1, lineHeight: 108).anchor(at: 12_345.5).index, 99,
                       "past the end: the last item")
    }

    func testTheItemAtTheTopStaysThereAcrossLayouts() {
        let list = LineGeometry(count: 1_000, columns: 1, lineHeight: 100, footerHeight: 52)
        let anchor = list.anchor(at: 10_150)  // item 101, half-way into it
        XCTAssertEqual(anchor.index, 101)
        XCTAssertEqual(anchor.fraction, 0.5, accuracy: 1e-9)
        let grid = LineGeometry(count: 1_000, columns: 4, lineHeight: 200, footerHeight: 52)
        XCTAssertEqual(grid.value(for: anchor), 25.5 * 200, "item 101 is on line 25")
        XCTAssertEqual(grid.anchor(at: 25.5 * 200).index, 100, "back: the line's first item")
        XCTAssertEqual(LineGeometry(count: 0, columns: 4).anchor(at: 500).index, 0, "an empty gallery")
    }
}
