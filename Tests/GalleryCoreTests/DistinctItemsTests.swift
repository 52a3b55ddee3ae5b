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
}
