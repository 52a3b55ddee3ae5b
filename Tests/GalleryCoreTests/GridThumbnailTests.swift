import XCTest
import GObjectBindings
import TestSupport
@testable import GalleryCore

// A grid tile asks for a thumbnail covering 160 px (320 px on a 2× screen), a list row for 96 (192): each
// source keeps the renditions its service offers, with their sizes where the reply gives them, so that a
// tile gets the smallest one that covers it — never the original when a rendition exists.

/// Every image item of a page: the URL a tile of `pixels` asks for is one of its renditions, not the original.
private func assertTilesUseRenditions(_ items: [GalleryItem], pixels: [Int] = [160, 320],
                                      file: StaticString = #filePath, line: UInt = #line) {
    let withRenditions = items.filter { !$0.thumbnails.isEmpty }
    XCTAssertFalse(withRenditions.isEmpty, "no item with a rendition", file: file, line: line)
    for item in withRenditions {
        for size in pixels {
            let url = item.thumbnailURL(covering: size)
            XCTAssertTrue(item.thumbnails.contains { $0.url == url }, "\(item.id) at \(size) px: \(url ?? "nil")",
                          file: file, line: line)
            if item.fullImageURL != item.thumbnails.first?.url {
                XCTAssertNotEqual(url, item.fullImageURL, "\(item.id) at \(size) px: the original", file: file, line: line)
            }
        }
    }
}

extension DeviantArtSourceTests {
    func testAGridTileGetsThe300PixelThumbnail() throws {
        let source = try DeviantArtSource(username: "inkwell", endpointOverride: nil)
        let items = try source.parse(HTTPResponse(head: HTTPResponseHead(status: 200, reason: "OK", url: source.firstRequest().url,
                                                                         mediaType: "application/rss+xml"),
                                                  body: Fixtures.bytes("deviantart/gallery-page1.xml")),
                                     of: source.firstRequest()).items
        let rock = try XCTUnwrap(items.first)
        XCTAssertEqual(rock.thumbnailURL(covering: 96), "https://images-wixmp.example/inkwell/rock-150.jpg", "a list row")
        XCTAssertEqual(rock.thumbnailURL(covering: 160), "https://images-wixmp.example/inkwell/rock-300.jpg", "a tile")
        XCTAssertEqual(rock.thumbnailURL(covering: 320), "https://images-wixmp.example/inkwell/rock-1280.jpg",
                       "a 2× tile: the next rendition up, still not the original")
        assertTilesUseRenditions(items)
    }
}

extension CommonsSourceTests {
    func testAGridTileGetsTheAPIsThumbnailOrAStandardWidthRendering() throws {
        let source = try CommonsSource(username: "Müller", endpointOverride: nil)
        XCTAssertGreaterThanOrEqual(Int(query(source.firstRequest().url, "iiurlwidth") ?? "") ?? 0, 160,
                                    "the request's thumbnail covers a tile at 1×")
        let items = try source.parse(fixtureResponse("page1.json", for: source.firstRequest()), of: source.firstRequest()).items
        let sunset = try XCTUnwrap(items.first { $0.id == "1001" })  // 6000 × 4000, thumbnail 250 × 167
        XCTAssertEqual(sunset.thumbnailURL(covering: 160), sunset.thumbnails.first?.url)
        let twice = try XCTUnwrap(sunset.thumbnailURL(covering: 320))
        XCTAssertTrue(twice.contains("/330px-"), "a 2× tile: the 330 px standard width, \(twice)")
        assertTilesUseRenditions(items)
    }
}

extension MastodonSourceTests {
    func testAGridTileGetsThePreview() throws {
        let items = try alice().parse(response(Self.fixture("statuses-page1.json")), of: statusesRequest()).items
        let drawing = try XCTUnwrap(items.first)
        XCTAssertEqual(drawing.thumbnailURL(covering: 160), drawing.thumbnails.first?.url)
        XCTAssertTrue(drawing.thumbnailURL(covering: 160)?.contains("/small/") == true, "preview_url")
        assertTilesUseRenditions(items)
    }
}

extension BlueskySourceTests {
    func testAGridTileGetsTheFeedThumbnail() throws {
        let items = try feedPage("author-feed-page1.json").items
        for item in items where item.kind == .image {
            XCTAssertTrue(item.thumbnailURL(covering: 320)?.contains("/img/feed_thumbnail/") == true,
                          "the CDN's feed_thumbnail (up to 2000 px, never larger than the upload), not feed_fullsize")
        }
        assertTilesUseRenditions(items)
    }
}

extension MisskeySourceTests {
    func testAGridTileGetsTheDriveThumbnail() throws {
        let items = try alice().parse(response(Self.fixture("users-notes-page1.json")), of: notesRequest()).items
        XCTAssertTrue(items.first?.thumbnailURL(covering: 160)?.contains("/thumbnail-") == true, "thumbnailUrl")
        assertTilesUseRenditions(items)
    }
}
