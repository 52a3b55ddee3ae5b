import XCTest
@testable import GalleryCore

final class DisplayTextTests: XCTestCase {
    func testServerTextIsMadeFitToShow() {
        XCTAssertEqual(DisplayText.clean("  a\u{1B}[31m\tb \n\n c  "), "a [31m b c")
        XCTAssertEqual(DisplayText.clean("evil\u{202E}gpj.exe"), "evilgpj.exe", "no right-to-left override")
        XCTAssertEqual(DisplayText.clean("one\n two\n\n", keepLineBreaks: true), "one\ntwo")
        XCTAssertEqual(DisplayText.clean("a\u{00A0}b\u{2028}c"), "a b c", "Unicode spaces and separators")
        XCTAssertEqual(DisplayText.clean("abcdef", limit: 3), "abc…")
        XCTAssertEqual(DisplayText.clean("abc", limit: 3), "abc")
        XCTAssertEqual(DisplayText.clean("ab cd", limit: 3), "ab…", "a space is not kept before the cut")
    }

    /// Text that needs nothing is returned as it came, without the scalar-by-scalar copy; whatever the quick
    /// look says, the answer is the one the full walk gives.
    func testTheQuickLookAgreesWithTheFullWalk() {
        let pieces = ["a", "é", "Ω", "🌊", "e\u{301}", " ", "  ", "\t", "\n", "\u{1B}", "\u{7F}", "\u{85}",
                      "\u{00A0}", "\u{2028}", "\u{202E}", "\u{200F}", "\u{061C}", "x y", "{", "…"]
        var generator = SystemRandomNumberGenerator()
        var quick = 0
        for round in 0..<4_000 {
            let length = round % 9
            let text = (0..<length).map { _ in pieces.randomElement(using: &generator)! }.joined()
            for limit in [1, 3, 8, 1000] {
                for keepLineBreaks in [false, true] {
                    let walked = DisplayText.rebuilt(text, keepLineBreaks: keepLineBreaks, limit: limit)
                    XCTAssertEqual(DisplayText.clean(text, keepLineBreaks: keepLineBreaks, limit: limit), walked,
                                   "\(text.unicodeScalars.map { String($0.value, radix: 16) }) limit \(limit)")
                    if DisplayText.isAlreadyClean(text, limit: limit) {
                        quick += 1
                        XCTAssertEqual(walked, text, "the quick look passed a text the walk changes")
                    }
                }
            }
        }
        XCTAssertGreaterThan(quick, 1_000, "the quick look is taken")
        XCTAssertTrue(DisplayText.isAlreadyClean("Salt & Pepper Shoreline — aurora", limit: 1000))
        XCTAssertTrue(DisplayText.isAlreadyClean("", limit: 1000))
    }
}
