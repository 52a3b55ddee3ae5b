import XCTest
@testable import GalleryCore

/// File names a hostile service cannot abuse, and the Content-Range check behind resumed downloads.
final class DownloadNamesTests: XCTestCase {
    func testNamesAreOneHarmlessPathComponent() {
        XCTAssertEqual(DownloadNames.safe("photo.jpg"), "photo.jpg")
        XCTAssertEqual(DownloadNames.safe("../../etc/passwd"), "_._.._etc_passwd")
        XCTAssertEqual(DownloadNames.safe(".hidden.png"), "_hidden.png")
        XCTAssertEqual(DownloadNames.safe("a\u{0}b\u{1B}[31mc\n.png"), "ab[31mc.png")
        XCTAssertEqual(DownloadNames.safe("evil\u{202E}gnp.exe"), "evilgnp.exe", "no right-to-left override")
        XCTAssertEqual(DownloadNames.safe("what?: <a|b>*.png"), "what__ _a_b__.png")
        XCTAssertEqual(DownloadNames.safe("name. . ."), "name")
        XCTAssertEqual(DownloadNames.safe("  Grüße 🌊.png "), "Grüße 🌊.png")
        XCTAssertEqual(DownloadNames.safe("..", fallback: "4711"), "4711")
        XCTAssertEqual(DownloadNames.safe("", fallback: "/"), "_")
        XCTAssertEqual(DownloadNames.safe("\u{7}", fallback: "\u{7}"), "item")
    }

    func testLongNamesAreCutBetweenCharactersAndKeepTheirExtension() {
        let long = String(repeating: "é", count: 300) + ".jpeg"
        let safe = DownloadNames.safe(long)
        XCTAssertLessThanOrEqual(safe.utf8.count, DownloadNames.maxNameBytes)
        XCTAssertTrue(safe.hasSuffix("é.jpeg"))
        XCTAssertLessThanOrEqual(DownloadNames.partialName(of: safe).utf8.count, 255)
    }

    /// One character longer than the limit (a letter under hundreds of combining marks) cannot be cut: the
    /// name is checked again after the cut, and the item's id stands in for the stem that is gone.
    func testANameCutToNothingIsCheckedAgainAndFallsBackToTheId() {
        let marks = String(repeating: "\u{301}", count: 300)
        XCTAssertEqual(DownloadNames.safe("a" + marks + ".jpg", fallback: "4711"), "4711.jpg", "not a hidden \".jpg\"")
        XCTAssertEqual(DownloadNames.safe(marks, fallback: "4711"), "4711", "not empty (which left \"..part\" behind)")
        XCTAssertEqual(DownloadNames.safe("a" + marks + ".jpg", fallback: "a" + marks), "item.jpg")
        XCTAssertEqual(DownloadNames.safe("a" + marks + "  .jpg", fallback: "4711"), "4711.jpg")
        // At the edge: a character that just fits is kept.
        let fits = "a" + String(repeating: "\u{301}", count: (DownloadNames.maxNameBytes - 5) / 2) + ".jpg"
        XCTAssertEqual(DownloadNames.safe(fits, fallback: "4711"), fits)
        for name in DownloadNames.unique([("1", "a" + marks + ".png"), ("2", marks)]) {
            XCTAssertFalse(name.hasPrefix(".") || name.isEmpty, name)
            XCTAssertLessThanOrEqual(name.utf8.count, DownloadNames.maxNameBytes)
        }
    }

    func testClashesAreResolvedWithTheIdCaseInsensitively() {
        let names = DownloadNames.unique([("1", "Sun.jpg"), ("2", "sun.JPG"), ("3", "Sun.jpg"), ("2", "Sun.jpg"),
                                          ("4", "x")])
        XCTAssertEqual(names, ["Sun.jpg", "sun (2).JPG", "Sun (3).jpg", "Sun (2-2).jpg", "x"])
        XCTAssertEqual(Set(names.map { $0.lowercased() }).count, names.count)
    }

    func testContentRange() {
        XCTAssertEqual(ContentRange("bytes 100-199/200"), .bytes(first: 100, last: 199, complete: 200))
        XCTAssertEqual(ContentRange("bytes 0-9/*"), .bytes(first: 0, last: 9, complete: nil))
        XCTAssertEqual(ContentRange("bytes */500"), .unsatisfied(complete: 500))
        for bad in ["bytes 10-5/20", "bytes 0-20/20", "bytes -1-5/20", "items 0-1/2", "bytes 0-1", "bytes 1 -2/3",
                    "bytes */*", "bytes 0-99999999999999999999/1"] {
            XCTAssertNil(ContentRange(bad), bad)
        }
        XCTAssertTrue(ContentRange("bytes 100-199/200")!.continues(from: 100))
        XCTAssertFalse(ContentRange("bytes 100-198/200")!.continues(from: 100), "stops short of the end")
        XCTAssertFalse(ContentRange("bytes 0-199/200")!.continues(from: 100), "starts over at 0")
        XCTAssertTrue(ContentRange("bytes 100-150/*")!.continues(from: 100))
        XCTAssertFalse(ContentRange("bytes */200")!.continues(from: 200))
    }
}
