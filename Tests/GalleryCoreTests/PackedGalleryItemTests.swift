import XCTest
@testable import GalleryCore

final class PackedGalleryItemTests: XCTestCase {
    private static let full: GalleryItem = {
        var item = GalleryItem(
            id: "guid-1", title: "Café Ωmega 🌊", kind: .video,
            thumbnails: [.init(url: "https://a.example/t/150.jpg", width: 150, height: 100),
                         .init(url: "https://a.example/t/x", width: nil, height: -3)],
            fullImageURL: "https://a.example/full.jpg", pageURL: "https://a.example/p/1", author: "aurora",
            altText: "A long description\nwith a line break", isSensitive: true, width: 4000, height: Int.max,
            published: -62_135_596_800)
        item.suggestedFileName = "original.mp4"
        item.mediaURLRejected = true
        item.media = .init(url: "https://a.example/original.mp4", durationMilliseconds: 88_654, loops: true)
        return item
    }()

    func testEveryFieldSurvivesPacking() {
        XCTAssertEqual(PackedGalleryItem(Self.full).item, Self.full)
        let sparse = GalleryItem(id: "", title: "", kind: .image, fullImageURL: nil)
        XCTAssertEqual(PackedGalleryItem(sparse).item, sparse, "empty strings, no thumbnails, every optional nil")
        var unknownLength = sparse
        unknownLength.media = .init(url: "https://a.example/a.ogg")
        XCTAssertEqual(PackedGalleryItem(unknownLength).item, unknownLength, "a sound of unknown length")
    }

    /// A cell reads the kind alone, past the id and title, whatever their length.
    func testTheKindIsReadWithoutUnpacking() {
        let long = String(repeating: "é", count: 300)
        for kind in GalleryItem.Kind.allCases {
            for text in ["", "x", long] {
                let item = GalleryItem(id: text, title: text + "!", kind: kind, fullImageURL: nil)
                XCTAssertEqual(PackedGalleryItem(item).kind, kind, "id and title \(text.count) characters")
            }
        }
    }

    /// A replaced view finds its items by id without unpacking them: the whole id, nothing less or more.
    func testTheIdIsComparedWithoutUnpacking() {
        // 200 bytes: a length of two varint bytes, within `GalleryItem.maxIDBytes`.
        let long = String(repeating: "é", count: 100)
        for id in ["", "7", "guid-1", long] {
            let packed = PackedGalleryItem(GalleryItem(id: id, title: "t", fullImageURL: nil))
            XCTAssertTrue(packed.hasID(id), "\(id.count) characters")
            XCTAssertFalse(packed.hasID(id + "x"))
            XCTAssertFalse(packed.hasID("x" + id))
            if !id.isEmpty { XCTAssertFalse(packed.hasID(String(id.dropLast()))) }
        }
        XCTAssertFalse(PackedGalleryItem(bytes: []).hasID("a"), "damaged bytes hold no id")
        XCTAssertFalse(PackedGalleryItem(bytes: [20, 0x61]).hasID("a"), "an id cut short is no id")
    }

    /// DeviantArt's guid is its link: the page URL is stored once, as the id.
    func testAPageURLThatIsTheIdIsStoredOnce() {
        let link = "https://www.deviantart.com/inkwell/art/Rock-and-Roll-101"
        let item = GalleryItem(id: link, title: "Rock", fullImageURL: nil, pageURL: link)
        let other = GalleryItem(id: link, title: "Rock", fullImageURL: nil, pageURL: link + "?x")
        XCTAssertEqual(PackedGalleryItem(item).item, item)
        XCTAssertEqual(PackedGalleryItem(other).item, other)
        XCTAssertLessThan(PackedGalleryItem(item).byteCount + link.utf8.count, PackedGalleryItem(other).byteCount + 4)
    }

    /// Packing names every field; a new one must be packed too, or rows would silently lose it.
    func testEveryFieldIsPacked() {
        XCTAssertEqual(Mirror(reflecting: Self.full).children.count, 15,
                       "GalleryItem gained or lost a field: update PackedGalleryItem, then this count")
    }

    func testAPackedItemIsSmall() {
        let packed = PackedGalleryItem(Self.full)
        let text = [Self.full.id, Self.full.title, Self.full.fullImageURL!, Self.full.pageURL!, Self.full.author!,
                    Self.full.altText!, Self.full.suggestedFileName!, Self.full.media!.url, "video"] + Self.full.thumbnails.map(\.url)
        XCTAssertLessThan(packed.byteCount, text.map(\.utf8.count).reduce(0, +) + 56, "text plus a few bytes of framing")
    }
}
