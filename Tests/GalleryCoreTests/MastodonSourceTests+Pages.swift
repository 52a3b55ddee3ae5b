import GObjectBindings
import XCTest
@testable import GalleryCore

/// Pages of statuses from the fixtures (data/fixtures/mastodon/, written from the API documentation):
/// one item per attachment, the media-type quirks, and paging by the Link header.
extension MastodonSourceTests {
    static let statusesURL = "https://mastodon.social\(statusesPath)?limit=40&only_media=true&exclude_replies=true"
    static let page1Links = #"<\#(statusesURL)&min_id=112345678901234567890>; rel="prev", "#
        + #"<\#(statusesURL)&max_id=112345600000000000000>; rel="next""#
    static let page2Links = "<\(statusesURL)&max_id=112299999999999999999>; rel=next, <\(statusesURL)&min_id=112300000000000000000>; rel=prev"

    func testImagesGifvAndSensitivePosts() throws {
        let items = try alice().parse(response(Self.fixture("statuses-page1.json")), of: statusesRequest()).items
        XCTAssertEqual(items.map(\.id), ["112345678900000000001", "112345678900000000002", "112345600000000000003"])

        let drawing = items[0]
        XCTAssertEqual(drawing.kind, .image)
        XCTAssertEqual(drawing.title, "Fishing boats at dawn, drawn in ink — Hafen von Kiel, 夜明け")
        XCTAssertEqual(drawing.altText, "Fishing boats at dawn, drawn in ink — Hafen von Kiel, 夜明け\nSecond line with more detail.")
        XCTAssertEqual(drawing.published, 1_714_641_342, "the post's created_at, 2024-05-02T09:15:42.000Z")
        XCTAssertEqual(drawing.fullImageURL, "https://files.mastodon.social/media_attachments/files/112/345/678/900/000/001/original/5f3a9c1be2d47a60.jpeg")
        XCTAssertEqual(drawing.thumbnails, [.init(url: "https://files.mastodon.social/media_attachments/files/112/345/678/900/000/001/small/5f3a9c1be2d47a60.jpeg",
                                                   width: 554, height: 416)])
        XCTAssertEqual(drawing.pageURL, "https://mastodon.social/@alice/112345678901234567890")
        XCTAssertEqual(drawing.author, "alice")
        XCTAssertEqual(drawing.width, 2048)
        XCTAssertEqual(drawing.height, 1536)
        XCTAssertFalse(drawing.isSensitive)
        XCTAssertEqual(drawing.fileName, "5f3a9c1be2d47a60.jpeg")

        // `url` null: the author's server copy; its URL names no file, so the id names it.
        let remote = items[1]
        XCTAssertEqual(remote.fullImageURL, "https://pixel.example/storage/m/_v2/7311/original")
        XCTAssertEqual(remote.fileName, "112345678900000000002.jpg")
        // Alt text is plain text: markup in it stays literal (the window must not read it as markup).
        XCTAssertEqual(remote.altText, "A <b>bold</b> claim & a \"quote\" — 🐟")
        XCTAssertEqual(remote.title, remote.altText)
        // A width sent as text is dropped; the rest of `meta` still counts.
        XCTAssertEqual(remote.thumbnails.first?.width, nil)
        XCTAssertEqual(remote.thumbnails.first?.height, 533)

        // A content warning titles the post instead of the alt text describing what it hides.
        let spider = items[2]
        XCTAssertEqual(spider.kind, .video)
        XCTAssertTrue(spider.isSensitive)
        XCTAssertEqual(spider.title, "Eye contact, spiders")
        XCTAssertEqual(spider.altText, "Spider waving its front legs")
        XCTAssertNil(spider.fullImageURL)
        XCTAssertEqual(spider.pageURL, "https://mastodon.social/@alice/112345600000000000000")
        XCTAssertEqual(spider.thumbnails.first?.width, 400)
        XCTAssertEqual(spider.fileName, "9e8d7c6b5a493827.mp4")
        // A gifv plays its MP4 by itself, looping; meta.original.duration is its length.
        XCTAssertEqual(spider.media, GalleryItem.Media(
            url: "https://files.mastodon.social/media_attachments/files/112/345/600/000/000/003/original/9e8d7c6b5a493827.mp4",
            durationMilliseconds: 3000, loops: true))
    }

    func testVideoAudioUnknownAndUnfinishedMedia() throws {
        let page = try MastodonSource.items(from: Bytes(Self.fixture("statuses-page2.json")), fallbackAuthor: "alice")
        let items = page.items
        XCTAssertEqual(items.map(\.id), ["112300000000000000011", "112300000000000000012", "112300000000000000013",
                                         "112299999999999999901"])
        let (video, audio, unknown, processing) = (items[0], items[1], items[2], items[3])

        XCTAssertEqual(video.kind, .video)
        XCTAssertNil(video.fullImageURL)
        XCTAssertEqual(video.title, "Studio day: a timelapse, (1/3)")
        XCTAssertEqual(video.thumbnails.count, 1)
        XCTAssertEqual(video.width, 1280)
        XCTAssertEqual(video.media?.url.hasSuffix("/original/ab12cd34ef56ab78.mp4"), true)
        XCTAssertEqual(video.media?.durationMilliseconds, 88_654, "meta.original.duration before the rounded meta.duration")
        XCTAssertEqual(video.media?.loops, false)

        XCTAssertEqual(audio.kind, .audio)
        XCTAssertEqual(audio.thumbnails, [])
        XCTAssertNil(audio.altText, "An empty description is no alt text")
        XCTAssertEqual(audio.title, "Studio day: a timelapse, (2/3)")
        XCTAssertEqual(audio.pageURL, "https://mastodon.social/@alice/112300000000000000000")
        XCTAssertEqual(audio.fileName, "0123456789abcdef.mp3")
        XCTAssertEqual(audio.media?.durationMilliseconds, 402_860)

        XCTAssertNil(unknown.media, "an unknown attachment opens in the browser")

        XCTAssertEqual(unknown.kind, .other)
        XCTAssertNil(unknown.fullImageURL)
        XCTAssertEqual(unknown.title, "Something the server could not fetch")
        XCTAssertEqual(unknown.fileName, "112300000000000000013")

        // Still processing: only the preview exists, so it stands in for the full image. The post has no
        // web `url` (another server's post), so its `uri` is the page; no text, so who and when is the title.
        XCTAssertEqual(processing.kind, .image)
        XCTAssertEqual(processing.fullImageURL, processing.thumbnails.first?.url)
        XCTAssertEqual(processing.pageURL, "https://pixel.example/p/alice/699512345678901234")
        XCTAssertEqual(processing.title, "Post by @alice, 2024-04-27 (1/2)")

        XCTAssertEqual(page.skipped.count, 3, "\(page.skipped)")
        XCTAssertTrue(page.skipped[0].contains("“id” is missing"), page.skipped[0])
        XCTAssertTrue(page.skipped[1].contains("112299999999999999902"), page.skipped[1])
        XCTAssertTrue(page.skipped[2].hasPrefix("Post 2:"), page.skipped[2])
    }

    func testThreePagesFollowTheLinkHeader() throws {
        let source = try alice()
        let first = try source.parse(response(Self.fixture("statuses-page1.json"), headers: ["link": Self.page1Links],
                                              url: statusesRequest().url), of: statusesRequest())
        let second = try XCTUnwrap(first.next)
        XCTAssertEqual(second.url, Self.statusesURL + "&max_id=112345600000000000000")
        XCTAssertEqual(second.stage, MastodonSource.Stage.statuses)
        XCTAssertEqual(second.headers, ["Accept": "application/json"])

        let middle = try source.parse(response(Self.fixture("statuses-page2.json"), headers: ["link": Self.page2Links],
                                               url: second.url), of: second)
        XCTAssertEqual(middle.items.count, 4)
        let third = try XCTUnwrap(middle.next)
        XCTAssertEqual(URLText.queryValue("max_id", in: third.url), "112299999999999999999")

        let prevOnly = "<\(Self.statusesURL)&min_id=112100000000000000000>; rel=\"prev\""
        let last = try source.parse(response(Self.fixture("statuses-page3.json"), headers: ["link": prevOnly], url: third.url), of: third)
        XCTAssertEqual(last.items.map(\.fileName), ["e1e2e3e4e5e6e7e8.webp"])
        XCTAssertNil(last.next, "No rel=next: the gallery ends")
        XCTAssertNil(try source.parse(response("[]", url: third.url), of: third).next)
    }

    /// A page of statuses names the next in its headers, so a feed reading every page can ask for it before the
    /// JSON is parsed; the lookup names it only in its JSON, and a failed reply names none.
    func testTheNextPageIsKnownFromTheLinkHeaderAhead() throws {
        let source = try alice()
        let reply = response(Self.fixture("statuses-page1.json"), headers: ["link": Self.page1Links], url: statusesRequest().url)
        let ahead = try XCTUnwrap(source.nextRequestAhead(reply, of: statusesRequest()))
        XCTAssertEqual(ahead, try source.parse(reply, of: statusesRequest()).next, "the request the parse names")
        XCTAssertNil(source.nextRequestAhead(response(#"{"id":"7"}"#), of: try alice().firstRequest()), "the lookup")
        let refused = response("{}", status: 429, headers: ["link": Self.page1Links], url: statusesRequest().url)
        XCTAssertNil(source.nextRequestAhead(refused, of: statusesRequest()))
        let padded = String(repeating: "<https://mastodon.social/x>; rel=\"alternate\", ", count: 100) + Self.page1Links
        let long = response("[]", headers: ["link": padded], url: statusesRequest().url)
        XCTAssertNil(source.nextRequestAhead(long, of: statusesRequest()), "a long header is left to the parse, off the main thread")
        XCTAssertNotNil(try source.parse(long, of: statusesRequest()).next)
    }

    func testNextLinksAreKeptOnTheServiceAndRebasedOntoTheOverride() throws {
        let source = try alice(override: "http://127.0.0.1:8080")
        let request = statusesRequest(origin: "http://127.0.0.1:8080")
        func next(_ link: String) throws -> String? {
            try source.parse(response("[]", headers: ["link": link], url: request.url), of: request).next?.url
        }
        XCTAssertEqual(try next("<https://mastodon.social\(Self.statusesPath)?max_id=5>; rel=\"next\""),
                       "http://127.0.0.1:8080\(Self.statusesPath)?max_id=5")
        XCTAssertEqual(try next("<http://127.0.0.1:8080\(Self.statusesPath)?max_id=6>; rel=next"),
                       "http://127.0.0.1:8080\(Self.statusesPath)?max_id=6")
        // Relative links are resolved against the page they came with.
        XCTAssertEqual(try next("<?max_id=7>; rel=next"), "http://127.0.0.1:8080\(Self.statusesPath)?max_id=7")

        // The service's own host is the service's whatever the scheme, "www." or default port.
        XCTAssertEqual(try next("<http://mastodon.social\(Self.statusesPath)?max_id=8>; rel=next"),
                       "http://127.0.0.1:8080\(Self.statusesPath)?max_id=8")
        XCTAssertEqual(try next("<https://mastodon.social:443\(Self.statusesPath)?max_id=9>; rel=next"),
                       "http://127.0.0.1:8080\(Self.statusesPath)?max_id=9")

        for (link, host) in [("<https://evil.example/api?max_id=1>; rel=next", "https://evil.example"),
                             ("<https://mastodon.social.evil.example/x>; rel=next", "https://mastodon.social.evil.example"),
                             ("<https://mastodon.social:8443/x>; rel=next", "https://mastodon.social:8443"),
                             ("<javascript:alert(1)>; rel=next", "javascript:alert(1)")] {
            XCTAssertThrowsError(try next(link), link) {
                XCTAssertEqual($0 as? GalleryError, .foreignLink(service: "Mastodon", host: host))
            }
        }
    }

    func testLinkHeaderParsing() {
        let url = "https://h.example/api?a=1,2;b=3"
        let cases: [(header: String, next: String?)] = [
            (Self.page1Links, Self.statusesURL + "&max_id=112345600000000000000"),
            (Self.page2Links, Self.statusesURL + "&max_id=112299999999999999999"),
            ("<\(url)>; rel=\"next\"", url),  // Commas and semicolons inside <…> belong to the URL.
            ("<https://h.example/p>; title=\"a, b; rel=next\"; rel=prev, <https://h.example/n>; REL=\"Next\"", "https://h.example/n"),
            ("<https://h.example/p>; rel=\"prev next\"", "https://h.example/p"),
            ("<https://h.example/1>; rel=next; rel=prev", "https://h.example/1"),
            ("<https://h.example/1>; rel=prev; rel=next", nil),  // Only the first rel counts (RFC 8288).
            ("garbage, <https://h.example/n> ; rel = next", "https://h.example/n"),
            ("<https://h.example/n>;rel=nextpage", nil),
            ("<https://h.example/n>; rel=\"next", "https://h.example/n"),
            ("<https://h.example/n; rel=next", nil),
            ("https://h.example/n; rel=next", nil),
            ("", nil),
            ("<>; rel=next, <https://h.example/2>; rel=next", "https://h.example/2"),
        ]
        for (header, next) in cases {
            XCTAssertEqual(LinkHeader.target(of: "next", in: header), next, header)
        }
        XCTAssertEqual(LinkHeader.parse(Self.page1Links).map(\.relations), [["prev"], ["next"]])
    }

    func testFileNamesForMediaWithoutExtension() {
        XCTAssertEqual(MastodonSource.fileName(id: "9", type: "image", url: "https://h.example/m/a%20b.png"), "a b.png")
        XCTAssertEqual(MastodonSource.fileName(id: "9", type: "image", url: "https://h.example/media/original"), "9.jpg")
        XCTAssertEqual(MastodonSource.fileName(id: "9", type: "gifv", url: "https://h.example/media/9"), "9.mp4")
        XCTAssertEqual(MastodonSource.fileName(id: "9", type: "audio", url: nil), "9.mp3")
        XCTAssertEqual(MastodonSource.fileName(id: "../x", type: "unknown", url: "https://h.example/.hidden"), "x")
        XCTAssertEqual(MastodonSource.fileName(id: "/", type: "image", url: nil), "mastodon-media.jpg")
    }

    func testSeveralVideosOfOnePostStayApartInTheGallery() throws {
        let items = try MastodonSource.items(from: Bytes(Self.fixture("statuses-page2.json")), fallbackAuthor: "alice").items
        MainActor.assumeIsolated {
            // Video and audio share the post's page URL; they must not be merged as duplicates.
            XCTAssertNotEqual(items[0].identityKeys, items[1].identityKeys)
            XCTAssertEqual(items[0].identityKeys, items[0].identityKeys)
        }
    }

    func testMediaURLsMustBeWebURLs() throws {
        let body = #"[{"id":"1","url":"file:///etc/passwd","media_attachments":["#
            + #"{"id":"a","type":"image","url":"file:///etc/passwd","preview_url":"javascript:alert(1)"},"#
            + #"{"id":"b","type":"image","url":" https://files.example/b.png ","preview_url":"data:image/png;base64,AA"},"#
            + #"{"id":"c","type":"video","preview_url":"ftp://files.example/c.png"}]}]"#
        let page = try MastodonSource.items(from: Bytes(body), fallbackAuthor: "alice")
        XCTAssertEqual(page.items.map(\.id), ["a", "b"], "an image named by other schemes only is an error row")
        XCTAssertNil(page.items[0].fullImageURL)
        XCTAssertEqual(page.items[0].thumbnails, [])
        XCTAssertTrue(page.items[0].mediaURLRejected)
        XCTAssertEqual(page.items[1].fullImageURL, "https://files.example/b.png")
        XCTAssertEqual(page.items[1].thumbnails, [])
        XCTAssertFalse(page.items[1].mediaURLRejected)
        XCTAssertNil(page.items[1].pageURL)
        XCTAssertEqual(page.items[1].title, "Post by @alice (2/3)")
    }
}
