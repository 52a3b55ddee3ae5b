import GObjectBindings
import GalleryDemoServer
import TestSupport
import XCTest

/// The feed as the app will read it: real requests with the app's Soup.Session against a DemoServer.
final class DemoFeedTests: GLibTestCase {
    /// Follows rel=next from the first page; returns every page.
    @MainActor
    private static func walkFeed(_ server: DemoServer, user: String, session: Soup.Session) throws -> [ParsedFeed] {
        var pages: [ParsedFeed] = []
        var next: String? = server.feedURL(user: user)
        while let url = next {
            let result = try fetchOrFail(url, session: session)
            XCTAssertNil(result.error)
            XCTAssertEqual(result.status, 200, url)
            XCTAssertEqual(result.mediaType, "application/rss+xml")
            let page = try FeedReader.parse(result.body)
            XCTAssertEqual(page.links["self"], url, "self link names the page itself")
            pages.append(page)
            next = page.links["next"]
            XCTAssertLessThan(pages.count, 100, "runaway paging")
            if pages.count >= 100 { break }
        }
        return pages
    }

    func testAuroraPagesAreLinkedUntilTheEnd() throws {
        try MainActor.assumeIsolated {
            let server = try DemoFixture.startServer()
            defer { server.stop() }
            let pages = try Self.walkFeed(server, user: "aurora", session: makeTestSession())
            XCTAssertEqual(pages.map(\.items.count), [24, 24, 12])
            XCTAssertEqual(pages[0].links["next"], server.baseURL + "/rss.xml?type=deviation&q=gallery:aurora&offset=24")
            XCTAssertEqual(pages[1].links["next"], server.baseURL + "/rss.xml?type=deviation&q=gallery:aurora&offset=48")
            XCTAssertNil(pages[2].links["next"], "no next link on the last page")
            let items = pages.flatMap(\.items)
            XCTAssertEqual(Set(items.compactMap { $0.fields["guid"] }).count, 60)
            let expected = try XCTUnwrap(DemoFixture.catalog().user(named: "aurora")).items
            XCTAssertEqual(items.map { $0.fields["title"] ?? "<missing>" }, expected.map(\.title))
            XCTAssertEqual(pages[0].channel["title"], "DeviantArt: aurora's gallery")
            XCTAssertNotNil(pages[0].channel["link"])
            XCTAssertNotNil(pages[0].channel["description"])
        }
    }

    func testItemCarriesEveryMediaRSSField() throws {
        try MainActor.assumeIsolated {
            let server = try DemoFixture.startServer()
            defer { server.stop() }
            let result = try fetchOrFail(server.feedURL(user: "aurora"), session: makeTestSession())
            let page = try FeedReader.parse(result.body)
            let catalogItem = try XCTUnwrap(DemoFixture.catalog().user(named: "aurora")?.items.first)
            let item = try XCTUnwrap(page.items.first)
            XCTAssertEqual(item.fields["title"], catalogItem.title)
            XCTAssertEqual(item.fields["media:title"], catalogItem.title)
            XCTAssertEqual(item.fields["link"], server.baseURL + catalogItem.pagePath)
            XCTAssertEqual(item.fields["guid"], item.fields["link"])
            XCTAssertEqual(item.guidIsPermaLink, "true")
            XCTAssertTrue(item.fields["pubDate"]?.hasSuffix(" GMT") == true)
            XCTAssertEqual(item.fields["media:rating"], "nonadult")
            XCTAssertNotNil(item.categoryLabel)
            XCTAssertEqual(item.credits, ["aurora", server.baseURL + "/avatars/aurora.png"])
            XCTAssertNotNil(item.fields["media:copyright"])
            XCTAssertTrue(item.fields["media:description"]?.hasPrefix("<p>") == true, "escaped HTML, decoded once by XML")
            XCTAssertNotNil(item.fields["description"])
            XCTAssertEqual(item.content, FeedImage(url: server.baseURL + "/images/" + catalogItem.fileName,
                                                   width: catalogItem.width, height: catalogItem.height))
            XCTAssertEqual(Set(item.thumbnails.map(\.width)).union(item.thumbnails.map(\.height)).max(), 300)
            let allItems = try Self.walkFeed(server, user: "aurora", session: makeTestSession()).flatMap(\.items)
            XCTAssertEqual(allItems.filter { $0.fields["media:rating"] == "adult" }.count, 2)
            // The real feed lists thumbnail sizes in no fixed order; a parser must not rely on one.
            let orders = Set(page.items.map { $0.thumbnails.map { max($0.width, $0.height) } })
            XCTAssertTrue(orders.contains([150, 300]) && orders.contains([300, 150]), "\(orders)")
        }
    }

    func testHostileTitlesSurviveXMLIntact() throws {
        try MainActor.assumeIsolated {
            let server = try DemoFixture.startServer()
            defer { server.stop() }
            let result = try fetchOrFail(server.feedURL(user: "aurora"), session: makeTestSession())
            let raw = result.text
            XCTAssertFalse(raw.contains("<b>Bold</b>"), "markup in titles must be escaped")
            let page = try FeedReader.parse(result.body)
            let titles = page.items.compactMap { $0.fields["title"] }
            let hostile = "<b>Bold</b> \"Quotes\" & 'Apostrophes' </title>"
            XCTAssertTrue(titles.contains(hostile), "\(titles)")
            XCTAssertTrue(titles.contains("Café Ωmega 🌊"))
            XCTAssertTrue(titles.contains("Salt & Pepper Shoreline"))
            XCTAssertTrue(titles.contains(""))
            let description = try XCTUnwrap(page.items.first { $0.fields["title"] == hostile }?.fields["media:description"])
            XCTAssertTrue(description.contains("&lt;b&gt;Bold&lt;/b&gt; &quot;Quotes&quot; &amp;"),
                          "the title is HTML-escaped inside the HTML description: \(description)")
        }
    }

    func testAtlasPagesAndEveryImageAreFetchable() throws {
        try MainActor.assumeIsolated {
            let server = try DemoFixture.startServer()
            defer { server.stop() }
            let session = makeTestSession()
            let pages = try Self.walkFeed(server, user: "atlas", session: session)
            let items = pages.flatMap(\.items)
            let count = try XCTUnwrap(DemoFixture.catalog().user(named: "atlas")).items.count
            XCTAssertEqual(items.count, count)
            XCTAssertEqual(pages.count, (count + 23) / 24)
            XCTAssertTrue(pages.dropLast().allSatisfy { $0.items.count == 24 && $0.links["next"] != nil })
            for item in items {
                let content = try XCTUnwrap(item.content)
                let image = try fetchOrFail(content.url, session: session)
                XCTAssertEqual(image.status, 200, content.url)
                XCTAssertTrue(image.mediaType?.hasPrefix("image/") == true, content.url)
                XCTAssertEqual(image.contentLength, image.body.count)
            }
            // Decoding is slower than fetching: a sample is enough to show the files are what the feed says.
            for item in items.enumerated().filter({ $0.offset % 40 == 0 }).map(\.element) {
                for declared in item.thumbnails + [try XCTUnwrap(item.content)] {
                    let image = try fetchOrFail(declared.url, session: session)
                    let size = try decodeImage(image.body).get()
                    XCTAssertEqual(size.width, declared.width, declared.url)
                    XCTAssertEqual(size.height, declared.height, declared.url)
                }
            }
        }
    }

    func testAuroraImagesDecodeAtTheirDeclaredSizes() throws {
        try MainActor.assumeIsolated {
            let server = try DemoFixture.startServer()
            defer { server.stop() }
            let session = makeTestSession()
            let items = try Self.walkFeed(server, user: "aurora", session: session).flatMap(\.items)
            for item in items where !(item.content?.url.contains("fault=") ?? true) {
                for declared in item.thumbnails + [try XCTUnwrap(item.content)] {
                    let image = try fetchOrFail(declared.url, session: session)
                    XCTAssertEqual(image.status, 200, declared.url)
                    let types = [".png": "image/png", ".webp": "image/webp", ".avif": "image/avif", ".gif": "image/gif"]
                    let expectedType = types.first { declared.url.hasSuffix($0.key) }?.value ?? "image/jpeg"
                    XCTAssertEqual(image.mediaType, expectedType, declared.url)
                    let size = try decodeImage(image.body).get()
                    XCTAssertEqual(size.width, declared.width, declared.url)
                    XCTAssertEqual(size.height, declared.height, declared.url)
                }
            }
            let avatar = try fetchOrFail(try XCTUnwrap(items.first?.credits.last), session: session)
            XCTAssertEqual(avatar.mediaType, "image/png")
            XCTAssertEqual(try decodeImage(avatar.body).get().width, 64)
        }
    }

    func testEmptyBrokenAndUnknownFeeds() throws {
        try MainActor.assumeIsolated {
            let server = try DemoFixture.startServer()
            defer { server.stop() }
            let session = makeTestSession()
            let empty = try fetchOrFail(server.feedURL(user: "empty"), session: session)
            XCTAssertEqual(empty.status, 200)
            let emptyPage = try FeedReader.parse(empty.body)
            XCTAssertTrue(emptyPage.items.isEmpty)
            XCTAssertNil(emptyPage.links["next"])
            XCTAssertNotNil(emptyPage.channel["title"])

            let broken = try fetchOrFail(server.feedURL(user: "brokenfeed"), session: session)
            XCTAssertEqual(broken.status, 200)
            XCTAssertEqual(broken.mediaType, "application/rss+xml")
            XCTAssertThrowsError(try FeedReader.parse(broken.body), "brokenfeed must not parse")

            let unknown = try fetchOrFail(server.feedURL(user: "nobody-here"), session: session)
            XCTAssertEqual(unknown.status, 404)
            XCTAssertEqual(unknown.mediaType, "text/html")
            XCTAssertTrue(unknown.text.contains("No such user"))

            let pastTheEnd = try fetchOrFail(server.feedURL(user: "aurora", offset: 600), session: session)
            XCTAssertEqual(try FeedReader.parse(pastTheEnd.body).items.count, 0)
            let badOffset = try fetchOrFail(server.baseURL + "/rss.xml?type=deviation&q=gallery:aurora&offset=x",
                                            session: session)
            XCTAssertEqual(badOffset.status, 400)
            let notAGallery = try fetchOrFail(server.baseURL + "/rss.xml?type=deviation&q=boats", session: session)
            XCTAssertEqual(notAGallery.status, 400)
        }
    }

    func testItemPagesAnswerTheFeedLinks() throws {
        try MainActor.assumeIsolated {
            let server = try DemoFixture.startServer()
            defer { server.stop() }
            let session = makeTestSession()
            let page = try FeedReader.parse(try fetchOrFail(server.feedURL(user: "aurora"), session: session).body)
            for item in page.items.prefix(12) {
                let html = try fetchOrFail(try XCTUnwrap(item.fields["link"]), session: session)
                XCTAssertEqual(html.status, 200)
                XCTAssertEqual(html.mediaType, "text/html")
                XCTAssertFalse(html.text.contains("<b>Bold</b>"), "titles are escaped in pages too")
            }
            XCTAssertEqual(try fetchOrFail(server.baseURL + "/art/nothing-1", session: session).status, 404)
            XCTAssertEqual(try fetchOrFail(server.baseURL + "/", session: session).status, 200)
            XCTAssertEqual(try fetchOrFail(server.baseURL + "/images/../demo/users.json", session: session).status, 404)
        }
    }
    func testHugeGalleriesOfAnySizeAreMadeOnTheFly() throws {
        try MainActor.assumeIsolated {
            let server = try DemoFixture.startServer()
            defer { server.stop() }
            let session = makeTestSession()
            let small = try Self.walkFeed(server, user: "huge-50", session: session)
            XCTAssertEqual(small.map(\.items.count), [24, 24, 2])
            let items = small.flatMap(\.items)
            let urls = items.compactMap { $0.content?.url } + items.flatMap { $0.thumbnails.map(\.url) }
            XCTAssertEqual(Set(urls).count, 150, "every item has URLs of its own")
            XCTAssertEqual(items.first?.fields["title"], "\(try XCTUnwrap(DemoFixture.catalog().user(named: "atlas")?.items.first?.title)) #1")

            // The last page of the default 100,000, without paging through the rest.
            let last = try FeedReader.parse(try fetchOrFail(server.feedURL(user: "huge", offset: 99_984), session: session).body)
            XCTAssertEqual(last.items.count, 16)
            XCTAssertNil(last.links["next"])
            XCTAssertEqual(last.items.last?.fields["title"]?.hasSuffix(" #100000"), true)
            let thumbnail = try XCTUnwrap(last.items.last?.thumbnails.first)
            let image = try fetchOrFail(thumbnail.url, session: session)
            XCTAssertEqual(image.status, 200, thumbnail.url)
            XCTAssertEqual(try decodeImage(image.body).get().width, thumbnail.width, "atlas's picture under a URL of its own")
            XCTAssertEqual(try fetchOrFail(try XCTUnwrap(last.items.last?.fields["link"]), session: session).status, 200)

            for name in ["huge-0", "huge-1000001", "huge-x", "huge-07", "hugely"] {
                XCTAssertEqual(try fetchOrFail(server.feedURL(user: name), session: session).status, 404, name)
            }
            XCTAssertEqual(try fetchOrFail(server.baseURL + "/thumbs/150/huge-0000001-nothing.jpg", session: session).status, 404)
        }
    }
}
