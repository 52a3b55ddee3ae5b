import GObjectBindings
import XCTest

/// GLib's folding, as find in the gallery uses it: words, any case, accented words also by their ASCII
/// spelling; a query's words found inside the folded text.
final class SearchTextTests: XCTestCase {
    func testFoldedTextHoldsTheWordsAndTheirASCIISpellings() {
        let folded = SearchText.folded("Café Ωmega 🌊 — SALT & Pepper")
        for word in ["café", "cafe", "ωmega", "salt", "pepper"] {
            XCTAssertTrue(folded.contains(" " + word), "“\(word)” in “\(folded)”")
        }
        XCTAssertFalse(folded.contains("&"), "no punctuation: \(folded)")
        XCTAssertEqual(SearchText.folded(""), "")
        XCTAssertEqual(SearchText.folded(" — & "), "")
    }

    func testAQuerysWordsAreFoldedButNotSpelledOut() {
        XCTAssertEqual(SearchText.queryWords("  CAFÉ  shore "), ["café", "shore"])
        XCTAssertEqual(SearchText.queryWords("#007"), ["007"])
        XCTAssertEqual(SearchText.queryWords(""), [])
    }
}
