import XCTest
@testable import GalleryCore

/// The two rules every name passes: cut to a number of UTF-8 bytes between characters, and what counts as a
/// file extension (the sources, the Commons titles and the download names all ask the same question).
final class NameTextTests: XCTestCase {
    func testUTF8PrefixesEndBetweenCharacters() {
        XCTAssertEqual("abc".prefix(utf8Bytes: 10), "abc")
        XCTAssertEqual("abc".prefix(utf8Bytes: 2), "ab")
        XCTAssertEqual("éé".prefix(utf8Bytes: 3), "é", "two bytes each: the second does not fit")
        XCTAssertEqual("👩‍👩‍👧x".prefix(utf8Bytes: 10), "", "an emoji sequence is one character of 18 bytes")
        XCTAssertEqual("a👍".prefix(utf8Bytes: 4), "a")
        XCTAssertEqual("".prefix(utf8Bytes: 0), "")
        let long = String(repeating: "ß", count: 1000)
        XCTAssertEqual(long.prefix(utf8Bytes: 256).utf8.count, 256)
    }

    func testOneRuleForFileExtensions() {
        for name in ["photo.jpg", "scan.JPEG", "art.webp", "a.b.png", "x.7"] {
            XCTAssertTrue(FileExtension.exists(in: name), name)
        }
        for name in ["original", "abc123", ".hidden", "v1.2 final", "name.", "clip.torrent", "a.jp_g", "b.jpé"] {
            XCTAssertFalse(FileExtension.exists(in: name), name)
        }
        XCTAssertEqual(FileExtension.split("a.b.png").map { [String($0.stem), String($0.ext)] }, ["a.b", ".png"])
        // Commons strips it from titles; download names keep it when they cut a name.
        XCTAssertEqual(DownloadNames.unique([("1", "clip.torrent"), ("2", "clip.torrent")]),
                       ["clip.torrent", "clip.torrent (2)"], "six letters are no extension")
    }
}
