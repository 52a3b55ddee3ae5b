import XCTest
@testable import GalleryCore

/// The one place that decides when two items are the same image (the window, --list and --download).
final class DistinctItemsTests: XCTestCase {
    func testTheSameIdOrImageURLIsSeenOnceButAFileNameIsNot() {
        var distinct = DistinctItems()
        let first = GalleryItem(id: "1", title: "A", kind: .image, fullImageURL: "https://x.example/a/image.png")
        XCTAssertTrue(distinct.insert(first))
        XCTAssertFalse(distinct.insert(first), "the same item again")
        XCTAssertFalse(distinct.insert(GalleryItem(id: "1", title: "A again", kind: .image, fullImageURL: nil)), "same id")
        XCTAssertFalse(distinct.insert(GalleryItem(id: "2", title: "Reposted", kind: .image,
                                                   fullImageURL: "https://x.example/a/image.png")), "same image URL")
        XCTAssertTrue(distinct.insert(GalleryItem(id: "3", title: "B", kind: .image,
                                                  fullImageURL: "https://x.example/b/image.png")),
                      "another upload that is also called image.png")
    }

    /// The keys are spread over many small sets: every one of thousands of items is still found again, by its
    /// id or by its image URL, whichever set each key went to.
    func testThousandsOfItemsAreEachFoundAgainByEitherKey() {
        var distinct = DistinctItems()
        let count = 5_000
        for index in 0..<count {
            XCTAssertTrue(distinct.insert(GalleryItem(id: "\(index)", title: "", kind: .image,
                                                      fullImageURL: "https://x.example/\(index).png")))
        }
        var duplicates = 0
        for index in 0..<count {
            let byId = GalleryItem(id: "\(index)", title: "", kind: .image, fullImageURL: nil)
            let byURL = GalleryItem(id: "other-\(index)", title: "", kind: .image,
                                    fullImageURL: "https://x.example/\(index).png")
            if !distinct.insert(byId) { duplicates += 1 }
            if !distinct.insert(byURL) { duplicates += 1 }
        }
        XCTAssertEqual(duplicates, 2 * count)
        XCTAssertTrue(distinct.insert(GalleryItem(id: "new", title: "", kind: .image,
                                                  fullImageURL: "https://x.example/new.png")))
    }
}
