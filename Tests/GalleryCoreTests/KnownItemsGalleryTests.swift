import CGLib
import XCTest
import GObjectBindings
import TestSupport
@testable import GalleryCore

/// A gallery of known items (the New view) takes its items as a feed's page is taken: a slice per main-loop
/// turn, in order, each row saying whose it is, the feed loading until the last slice is in.
final class KnownItemsGalleryTests: GLibTestCase {
    /// `count` items, newest first, of three galleries in turn; item 500 shows item 10's image again.
    private static func items(_ count: Int) -> [KnownItem] {
        (0..<count).map { index in
            let image = index == 500 ? 10 : index
            return KnownItem(item: GalleryItem(id: "item-\(index)", title: "Item \(index)",
                                               fullImageURL: "https://x.example/\(image).jpg"),
                             origin: "user\(index % 3) on Demo")
        }
    }

    @MainActor
    private static func gallery(_ items: [KnownItem], perTurn: Int = 64) -> Gallery {
        let client = HTTPClient()
        return Gallery(known: items, client: client, pipeline: ImagePipeline(client: client),
                       options: .init(feedLimits: GalleryFeed.Limits(maxItemsPerDelivery: perTurn)))
    }

    func testManyItemsFillOverSeveralTurnsInOrderEachSayingWhoseItIs() {
        MainActor.assumeIsolated {
            let gallery = Self.gallery(Self.items(1_000))
            XCTAssertEqual(gallery.downloads.count, 64, "the first slice at once")
            XCTAssertEqual(gallery.feed.state, .loading(page: 1))
            XCTAssertTrue(gallery.mayHaveMore)
            XCTAssertEqual(gallery.summary, "64 images", "no page is said to load")
            var slices: [Int] = []
            gallery.onDownloadsAppended = { slices.append($0.count) }
            // One iteration of the main loop runs one slice: each turn adds at most a slice's worth.
            var turns = 0
            while gallery.mayHaveMore && turns < 1_000 {
                let before = gallery.downloads.count
                g_main_context_iteration(nil, 1)
                turns += 1
                XCTAssertLessThanOrEqual(gallery.downloads.count - before, 64, "turn \(turns)")
            }
            XCTAssertEqual(slices.count, 15, "the other 936 items in slices of 64: \(slices)")
            XCTAssertEqual(gallery.feed.state, .finished)
            XCTAssertEqual(gallery.knownItemsTaken, 1_000)
            XCTAssertEqual(gallery.duplicatesSkipped, 1)
            let expected = (0..<1_000).filter { $0 != 500 }
            XCTAssertEqual(gallery.downloads.map(\.item.id), expected.map { "item-\($0)" }, "newest first, the same image once")
            XCTAssertEqual(gallery.downloads.map(\.origin), expected.map { "user\($0 % 3) on Demo" },
                           "whose each is, in step past the image shown once")
            XCTAssertEqual(gallery.summary, "999 images")
        }
    }

    func testACancelledGalleryTakesNoMoreSlices() {
        MainActor.assumeIsolated {
            let gallery = Self.gallery(Self.items(1_000))
            g_main_context_iteration(nil, 0)
            let taken = gallery.knownItemsTaken
            gallery.cancel()
            iterateMainLoop(for: 0.2)
            XCTAssertLessThan(taken, 1_000)
            XCTAssertEqual(gallery.knownItemsTaken, taken)
            XCTAssertEqual(gallery.downloads.count, taken)
            XCTAssertFalse(gallery.mayHaveMore)
        }
    }

    func testASliceOrNothingIsThereAtOnce() {
        MainActor.assumeIsolated {
            let few = Self.gallery(Self.items(3))
            XCTAssertEqual(few.downloads.map(\.item.id), ["item-0", "item-1", "item-2"])
            XCTAssertEqual(few.feed.state, .finished)
            XCTAssertFalse(few.mayHaveMore)
            let none = Self.gallery([])
            XCTAssertTrue(none.downloads.isEmpty)
            XCTAssertEqual(none.feed.state, .finished)
        }
    }
}
