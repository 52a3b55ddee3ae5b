import GObjectBindings
import GalleryDemoServer
import TestSupport
import XCTest
@testable import GalleryCore

/// The Mastodon source against the demo server on 127.0.0.1, as `--source mastodon --endpoint DEMO` runs it:
/// the account lookup, then every page of statuses through the `Link` header's `max_id` until a page names
/// no next one; every demo picture arrives once, in order, with its post's date, alt text and flags.
final class DemoMastodonTests: GLibTestCase {
    /// Bounds a run only when something is broken; a healthy one takes well under a second.
    private static let timeout = 120.0

    func testEveryDemoItemArrivesOncePagedByMaxID() throws {
        try MainActor.assumeIsolated {
            let server = try startDemoServer()
            defer { server.stop() }
            for name in ["aurora", "atlas"] {
                let user = try XCTUnwrap(server.catalog.user(named: name))
                let posts = DemoPosts.posts(of: user)
                let videoItems = Set(posts.filter(\.isVideo).flatMap { $0.items.map(\.id) })
                let postOf = Dictionary(uniqueKeysWithValues: posts.flatMap { post in post.items.map { ($0.id, post) } })
                let source = try MastodonSource(account: SourceKind.mastodon.descriptor.demoUsername(name),
                                                endpointOverride: server.baseURL)
                let logStart = server.requestLog.count
                let run = loadEveryPage(source, timeout: Self.timeout)
                XCTAssertEqual(run.feed.state, .finished, name)
                let items = run.pages.joined()
                XCTAssertEqual(items.map(\.id), user.items.map { String($0.id) }, "\(name): every picture once, newest first")
                XCTAssertEqual(items.map(\.thumbnails.first?.url), user.items.map { server.baseURL + $0.imagePath(thumbnailLongSide: 300) })
                XCTAssertEqual(items.map(\.kind), user.items.map { demo in
                    guard videoItems.contains(demo.id) else { return .image }
                    return DemoMedia.of(postOf[demo.id]!)!.isSound ? .audio : .video
                })
                XCTAssertEqual(items.map(\.isSensitive), user.items.map { $0.rating == .adult })
                for (item, demo) in zip(items, user.items) {
                    let post = try XCTUnwrap(postOf[demo.id])
                    XCTAssertEqual(item.pageURL, server.baseURL + post.items[0].pagePath, "the post opens in the browser")
                    XCTAssertEqual(item.published, post.published, "the post's date")
                    XCTAssertEqual(item.author, name)
                    // A video's size is its frames' (meta.original), a sound has none.
                    let media = DemoMedia.of(post)
                    XCTAssertEqual(item.width, media == nil ? demo.width : media?.size?.width)
                    XCTAssertEqual(item.height, media == nil ? demo.height : media?.size?.height)
                    if let media {
                        XCTAssertEqual(item.media, GalleryItem.Media(url: server.baseURL + media.path,
                                                                     durationMilliseconds: Int(media.duration * 1000),
                                                                     loops: media == .loop), "\(media): url, meta.original.duration, gifv")
                        XCTAssertNil(item.fullImageURL)
                    } else {
                        XCTAssertNil(item.media)
                    }
                    guard item.kind == .image else { continue }
                    XCTAssertEqual(item.fullImageURL, server.baseURL + demo.imagePath())
                    XCTAssertEqual(item.altText, demo.altText, "what the picture shows")
                }

                // One lookup, then pages of 40 posts named by max_id, falling; the last page has no next link.
                let log = server.requestLog.dropFirst(logStart).filter { $0.hasPrefix("/api/") }
                XCTAssertEqual(log.first, "/api/v1/accounts/lookup?acct=\(name)")
                let pages = log.dropFirst()
                XCTAssertEqual(pages.count, posts.count / 40 + 1, "\(name): \(posts.count) posts, 40 a page: \(Array(pages))")
                XCTAssertEqual(Set(pages).count, pages.count, "no page asked twice")
                let maxIDs = pages.map { URLText.queryValue("max_id", in: "http://x" + $0).flatMap { Int($0) } }
                XCTAssertNil(maxIDs.first ?? 0, "the first page starts at the newest post")
                let later = maxIDs.dropFirst().compactMap { $0 }
                XCTAssertEqual(later.count, pages.count - 1, "every later page is named by max_id")
                XCTAssertEqual(later, later.sorted(by: >), "older and older")
            }
        }
    }

    func testMissingEmptyAndBrokenDemoUsersGetTheirMessages() throws {
        try MainActor.assumeIsolated {
            let server = try startDemoServer()
            defer { server.stop() }
            let source = { (name: String) in try MastodonSource(account: "\(name)@demo.test", endpointOverride: server.baseURL) }
            let nobody = try source("nobody")
            XCTAssertEqual(loadEveryPage(nobody, timeout: Self.timeout).feed.state,
                           .failed(.noSuchUser(service: "Mastodon", username: nobody.username)))
            let empty = try source("empty")
            XCTAssertEqual(loadEveryPage(empty, timeout: Self.timeout).feed.state, .failed(.emptyGallery(username: empty.username)))
            guard case .failed(.malformedResponse(let service, _)) = loadEveryPage(try source("brokenfeed"), timeout: Self.timeout).feed.state
            else { return XCTFail("a cut-off reply is malformed") }
            XCTAssertEqual(service, "Mastodon")
        }
    }

    /// The statuses list pages as Mastodon's does: `limit` (at most 40) per page, a next link only after a
    /// full page, a `prev` link on every page with posts, none on an empty one.
    func testStatusesPagesByLimitAndLinkHeader() throws {
        try MainActor.assumeIsolated {
            let server = try startDemoServer()
            defer { server.stop() }
            let session = makeTestSession()
            let lookup = try Self.get(server.baseURL + "/api/v1/accounts/lookup?acct=aurora@demo.test", session: session)
            XCTAssertEqual(lookup.status, 200)
            let id = try XCTUnwrap(lookup.text.firstMatch(of: /"id":"([0-9]+)"/)?.1).description
            XCTAssertEqual(id.count, 18, "a snowflake-sized id")
            let posts = DemoPosts.posts(of: try XCTUnwrap(server.catalog.user(named: "aurora")))
            var url: String? = server.baseURL + "/api/v1/accounts/\(id)/statuses?only_media=true&limit=7"
            var pages = 0
            var statuses = 0
            while let next = url {
                let page = try Self.get(next, session: session)
                XCTAssertEqual(page.status, 200)
                let count = page.text.matches(of: /"in_reply_to_id":null/).count
                XCTAssertLessThanOrEqual(count, 7)
                statuses += count
                pages += 1
                let link = page.headers["Link"]
                url = LinkHeader.target(of: "next", in: link)
                XCTAssertEqual(url != nil, count == 7, "a next link after a full page only: \(link ?? "none")")
                XCTAssertEqual(LinkHeader.target(of: "prev", in: link) != nil, count > 0)
                XCTAssertLessThan(pages, 100, "runaway paging")
            }
            XCTAssertEqual(statuses, posts.count)
            XCTAssertEqual(pages, posts.count / 7 + 1)

            let missing = try Self.get(server.baseURL + "/api/v1/accounts/lookup?acct=nobody", session: session)
            XCTAssertEqual(missing.status, 404)
            XCTAssertEqual(missing.text, #"{"error":"Record not found"}"#)
            let unknownID = try Self.get(server.baseURL + "/api/v1/accounts/1/statuses", session: session)
            XCTAssertEqual(unknownID.status, 404)
        }
    }

    @MainActor
    static func get(_ url: String, session: Soup.Session, file: StaticString = #filePath, line: UInt = #line) throws -> FetchResult {
        try XCTUnwrap(fetch(url, session: session, timeout: timeout), "no answer from \(url)", file: file, line: line)
    }
}
