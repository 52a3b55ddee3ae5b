import Foundation
import XCTest
import GObjectBindings
import TestSupport
@testable import GalleryCore

final class DeviantArtSourceTests: GLibTestCase {
    private func response(_ body: Bytes, status: UInt32 = 200,
                          url: String = "https://backend.deviantart.com/rss.xml?type=deviation&q=gallery%3Ainkwell")
        -> HTTPResponse {
        HTTPResponse(head: HTTPResponseHead(status: status, reason: Soup.reasonPhrase(for: status), url: url,
                                            mediaType: "application/rss+xml"), body: body)
    }

    private func source(_ name: String = "inkwell", override: String? = nil) throws -> DeviantArtSource {
        try DeviantArtSource(username: name, endpointOverride: override)
    }

    func testFirstRequestEncodesTheUsernameIntoTheQuery() throws {
        let request = try source().firstRequest()
        XCTAssertEqual(request.url, "https://backend.deviantart.com/rss.xml?type=deviation&q=gallery%3Ainkwell")
    }

    func testUsernamesThatCouldChangeTheRequestAreRefused() {
        for hostile in ["a&q=x", "../x", "john smith", "bob/../../etc", "Ωmega", "a@evil.com", "x?y=1", "", "   "] {
            XCTAssertThrowsError(try source(hostile), hostile) { error in
                guard case GalleryError.invalidUsername = error else { return XCTFail("\(hostile): \(error)") }
            }
        }
        XCTAssertEqual(try source("  spaced-Out_1  ").username, "spaced-Out_1")
    }

    /// The channel names its next page before the items: a feed reading every page asks for it from that much
    /// of the reply, before the whole is parsed. A next link only after the items, or past the heading's bytes,
    /// is left to the parse.
    func testTheNextPageIsKnownFromTheChannelsHeadingAhead() throws {
        let fixture = Fixtures.text("deviantart/gallery-page1.xml")
        let reply = response(Bytes(fixture))
        let ahead = try XCTUnwrap(try source().nextRequestAhead(reply, of: source().firstRequest()))
        XCTAssertEqual(ahead, try source().parse(reply, of: source().firstRequest()).next, "the request the parse names")

        let link = try XCTUnwrap(fixture.split(separator: "\n").first { $0.contains(#"rel="next""#) })
        let linkAfterItems = fixture.replacingOccurrences(of: link + "\n", with: "")
            .replacingOccurrences(of: "</channel>", with: link + "\n</channel>")
        let late = response(Bytes(linkAfterItems))
        XCTAssertNil(try source().nextRequestAhead(late, of: source().firstRequest()))
        XCTAssertEqual(try source().parse(late, of: source().firstRequest()).next, ahead, "the parse finds it")

        let padding = "<description>" + String(repeating: "x", count: MediaRSSParser.maxHeadingBytes) + "</description>\n"
        let longHeading = fixture.replacingOccurrences(of: link + "\n", with: padding + link + "\n")
        XCTAssertNil(try source().nextRequestAhead(response(Bytes(longHeading)), of: source().firstRequest()),
                     "read no further than the heading's bytes")
        XCTAssertNil(try source().nextRequestAhead(response(Bytes(fixture), status: 404), of: source().firstRequest()))
    }

    func testItemsAreParsedWithTheirQuirks() throws {
        let page = try source().parse(response(Fixtures.bytes("deviantart/gallery-page1.xml")),
                                      of: source().firstRequest())
        XCTAssertEqual(page.items.count, 4)

        let rock = page.items[0]
        XCTAssertEqual(rock.title, "Rock & Roll", "entities decoded twice (XML, then HTML) and trimmed")
        XCTAssertEqual(rock.author, "inkwell", "the avatar URL credit is not an author")
        XCTAssertEqual(rock.fullImageURL, "https://images-wixmp.example/inkwell/rock_and_roll_by_inkwell-d101.jpg")
        XCTAssertEqual(rock.fileName, "rock_and_roll_by_inkwell-d101.jpg")
        XCTAssertEqual(rock.width, 3000)
        XCTAssertFalse(rock.isSensitive)
        XCTAssertEqual(rock.thumbnailURL(covering: 96), "https://images-wixmp.example/inkwell/rock-150.jpg",
                       "smallest thumbnail covering the size, whatever the order in the feed")
        XCTAssertEqual(rock.thumbnailURL(covering: 192), "https://images-wixmp.example/inkwell/rock-300.jpg")
        XCTAssertEqual(rock.thumbnailURL(covering: 5000), "https://images-wixmp.example/inkwell/rock-1280.jpg",
                       "nothing covers: the largest there is")

        let untitled = page.items[1]
        XCTAssertEqual(untitled.title, "")
        XCTAssertEqual(untitled.displayTitle, "untitled_by_inkwell-d102.png")
        XCTAssertTrue(untitled.isSensitive, "media:rating adult")

        let story = page.items[2]
        XCTAssertEqual(story.kind, .other, "medium=document is not an image")
        XCTAssertNil(story.fullImageURL)
        XCTAssertEqual(story.pageURL, "https://www.deviantart.com/inkwell/art/A-story-103")

        let cafe = page.items[3]
        XCTAssertEqual(cafe.title, "Café Ωmega 🌊 it's")
        XCTAssertEqual(cafe.fileName, "café_Ωmega-d104.jpg")
    }

    /// The artist's description (Media RSS's `media:description type="html"`, else the item's `description`) is
    /// the alt text, as plain text; `pubDate` (RFC 822, with a US zone as DeviantArt writes it) is the date.
    func testDescriptionsAndDatesAreRead() throws {
        let page = try source().parse(response(Fixtures.bytes("deviantart/gallery-page1.xml")),
                                      of: source().firstRequest())
        let rock = page.items[0]
        XCTAssertEqual(rock.altText, "A loud painting", "the item's description, its tags dropped")
        XCTAssertEqual(rock.published, 1_793_556_000, "Sun, 01 Nov 2026 10:00:00 PST is 18:00 UTC")
        XCTAssertNil(page.items[1].altText)
        XCTAssertNil(page.items[1].published)
        let cafe = page.items[3]
        XCTAssertEqual(cafe.altText, "Late & quiet at the café.\n\nDrawn with atlasben gpj.exe",
                       "entities decoded once the tags are gone; the right-to-left override dropped")
        XCTAssertEqual(cafe.published, 1_793_514_600, "Sat, 31 Oct 2026 23:30:00 PDT is 06:30 UTC the next day")
    }

    func testNextLinkFollowsTheCanonicalHostOrTheOverride() throws {
        let canonical = try source().parse(response(Fixtures.bytes("deviantart/gallery-page1.xml")),
                                           of: source().firstRequest())
        XCTAssertEqual(canonical.next?.url,
                       "https://backend.deviantart.com/rss.xml?type=deviation&q=gallery%3Ainkwell&offset=60")

        let mirror = try source(override: "http://127.0.0.1:8123")
        XCTAssertEqual(mirror.firstRequest().url, "http://127.0.0.1:8123/rss.xml?type=deviation&q=gallery%3Ainkwell")
        let rebased = try mirror.parse(response(Fixtures.bytes("deviantart/gallery-page1.xml")),
                                       of: mirror.firstRequest())
        XCTAssertEqual(rebased.next?.url, "http://127.0.0.1:8123/rss.xml?type=deviation&q=gallery%3Ainkwell&offset=60",
                       "a link on the service's own host is replayed against the override")
    }

    func testANextLinkToAnotherHostIsNotFollowed() throws {
        let feed = Fixtures.text("deviantart/gallery-page1.xml")
            .replacingOccurrences(of: "https://backend.deviantart.com/rss.xml?type=deviation&amp;q=gallery%3Ainkwell&amp;offset=60",
                                  with: "https://evil.example/rss.xml?offset=60")
        XCTAssertThrowsError(try source().parse(response(Bytes(feed)), of: source().firstRequest())) { error in
            XCTAssertEqual(error as? GalleryError, .foreignLink(service: "DeviantArt", host: "https://evil.example"))
        }
    }

    func testStatusesBecomeMessages() throws {
        let body = Bytes("<html>nope</html>")
        let cases: [(UInt32, GalleryError)] = [
            (404, .noSuchUser(service: "DeviantArt", username: "inkwell")),
            (403, .refusingForNow(service: "DeviantArt", retryAfterSeconds: nil)),
            (418, .refused(service: "DeviantArt", status: 418)),
            (401, .signInRequired(service: "DeviantArt")),
            (503, .serverError(service: "DeviantArt", status: 503, reason: "HTTP 503 Service Unavailable")),
        ]
        for (status, expected) in cases {
            XCTAssertThrowsError(try source().parse(response(body, status: status), of: source().firstRequest())) {
                XCTAssertEqual($0 as? GalleryError, expected)
            }
        }
    }

    func testRateLimitCarriesTheWait() throws {
        var head = HTTPResponseHead(status: 429, reason: "Too Many Requests", url: "https://backend.deviantart.com/x")
        head.headers = ["retry-after": "42"]
        XCTAssertThrowsError(try source().parse(HTTPResponse(head: head, body: Bytes("")), of: source().firstRequest())) {
            XCTAssertEqual($0 as? GalleryError, .rateLimited(service: "DeviantArt", retryAfterSeconds: 42))
        }
    }

    func testHostileFeedsAreRefusedWithAMessage() throws {
        let deep = String(repeating: "<a>", count: 5000) + String(repeating: "</a>", count: 5000)
        let truncated = String(Fixtures.text("deviantart/gallery-page1.xml").prefix(900))
        let hugeTitle = "<rss><channel><item><title>" + String(repeating: "x", count: 5_000_000)
            + "</title><guid>g</guid></item></channel></rss>"
        let inputs: [(String, Bytes)] = [
            ("billion laughs", Fixtures.bytes("deviantart/billion-laughs.xml")),
            ("truncated", Bytes(truncated)),
            ("deep nesting", Bytes("<rss><channel>" + deep + "</channel></rss>")),
            ("not RSS", Bytes("{\"json\": true}")),
            ("HTML", Bytes("<!DOCTYPE html><html><body>Hello</body></html>")),
            ("empty", Bytes("")),
            ("invalid UTF-8", Bytes([0x3C, 0x72, 0x73, 0x73, 0x3E, 0xFF, 0xFE, 0x3C, 0x2F, 0x72, 0x73, 0x73, 0x3E])),
        ]
        for (name, body) in inputs {
            XCTAssertThrowsError(try source().parse(response(body), of: source().firstRequest()), name) { error in
                guard case GalleryError.malformedResponse(let service, let detail) = error else {
                    return XCTFail("\(name): \(error)")
                }
                XCTAssertEqual(service, "DeviantArt")
                XCTAssertFalse(detail.isEmpty)
            }
        }
        // Huge strings parse, but are cut to a sane length instead of filling memory.
        let page = try source().parse(response(Bytes(hugeTitle)), of: source().firstRequest())
        XCTAssertLessThanOrEqual(page.items.first?.title.utf8.count ?? 0, MediaRSSParser.maxTextLength * 4)
    }

    /// Brief, non-negotiable 7: an item's thumbnails and id are bounded however many and however long the feed
    /// sends them. The guid starts with one ASCII byte, so a cut at an even byte count would split an "é".
    func testThumbnailsPerItemAndTheIdAreBounded() throws {
        let guid = "x" + String(repeating: "é", count: 50_000)
        let thumbnails = (1...10_000).map { "<media:thumbnail url=\"https://t.example/\($0).jpg\" width=\"\($0)\" height=\"1\"/>" }
        let feed = "<rss xmlns:media=\"http://search.yahoo.com/mrss/\"><channel><item><title>t</title><guid>\(guid)</guid>"
            + thumbnails.joined() + "</item></channel></rss>"
        let page = try source().parse(response(Bytes(feed)), of: source().firstRequest())
        let item = try XCTUnwrap(page.items.first)
        XCTAssertEqual(item.thumbnails.count, GalleryItem.maxThumbnails)
        XCTAssertEqual(item.thumbnails.first?.url, "https://t.example/1.jpg", "the feed's first ones are kept")
        XCTAssertEqual(item.id.utf8.count, 255, "cut between characters, under 256 bytes")
        XCTAssertTrue(guid.hasPrefix(item.id))

        // Sources that build items themselves (Mastodon, Commons) meet the same bound.
        let built = GalleryItem(id: guid, title: "t", thumbnails: Array(repeating: .init(url: "https://t.example/a"), count: 10_000),
                                fullImageURL: nil)
        XCTAssertEqual(built.thumbnails.count, GalleryItem.maxThumbnails)
        XCTAssertTrue(built.id == item.id, "the same cut")
    }

    func testPrefixesAreMatchedByNamespaceNotByName() throws {
        let feed = """
            <rss xmlns:m="http://search.yahoo.com/mrss/" xmlns:media="urn:not-media"><channel><item>
            <guid>1</guid><media:content url="https://x.example/wrong.jpg" medium="image"/>
            <m:content url="https://x.example/right.jpg" medium="image"/></item></channel></rss>
            """
        let page = try source().parse(response(Bytes(feed)), of: source().firstRequest())
        XCTAssertEqual(page.items.first?.fullImageURL, "https://x.example/right.jpg")
    }
}
