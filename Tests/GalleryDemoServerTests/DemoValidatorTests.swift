import GObjectBindings
import GalleryDemoServer
import TestSupport
import XCTest

/// The demo's feed pages carry validators where the real service sends them (Mastodon's statuses, Bluesky's
/// author feed): a strong ETag that changes when the gallery grows, a Last-Modified, and a 304 without a body
/// for a request that names them; DeviantArt's RSS and Commons' API, which send none, get none.
final class DemoValidatorTests: GLibTestCase {
    func testConditionalFeedsAnswer304UntilTheGalleryGrows() throws {
        try MainActor.assumeIsolated {
            let server = try DemoFixture.startServer()
            defer { server.stop() }
            let session = makeTestSession()
            let pages = [
                server.baseURL + "/api/v1/accounts/\(DemoMastodon.accountID(of: "aurora"))/statuses?only_media=true&limit=40",
                server.baseURL + "/xrpc/app.bsky.feed.getAuthorFeed?actor=\(DemoBluesky.did(of: "aurora"))&filter=posts_with_media&limit=50",
            ]
            var firstTags: [String] = []
            for url in pages {
                let plain = try fetchOrFail(url, session: session)
                XCTAssertEqual(plain.status, 200, url)
                let etag = try XCTUnwrap(plain.headers["ETag"], url)
                XCTAssertTrue(etag.hasPrefix("\"") && etag.hasSuffix("\"") && etag.count == 18, "strong: \(etag)")
                let lastModified = try XCTUnwrap(plain.headers["Last-Modified"], url)
                XCTAssertTrue(lastModified.hasSuffix(" GMT"), lastModified)
                firstTags.append(etag)

                let again = try fetchOrFail(url, session: session)
                XCTAssertEqual(again.headers["ETag"], etag, "the same page, the same tag")
                for headers in [["If-None-Match": etag], ["If-None-Match": "\"other\", W/\(etag)"],
                                ["If-Modified-Since": lastModified]] {
                    let unchanged = try XCTUnwrap(fetch(url, session: session, headers: headers))
                    XCTAssertEqual(unchanged.status, 304, "\(headers)")
                    XCTAssertEqual(unchanged.body, [], "no body")
                    XCTAssertEqual(unchanged.headers["ETag"], etag)
                }
                // If-None-Match decides when both are sent (RFC 9110 §13.2.2).
                let other = try XCTUnwrap(fetch(url, session: session, headers: ["If-None-Match": "\"other\"",
                                                                                 "If-Modified-Since": lastModified]))
                XCTAssertEqual(other.status, 200)
                XCTAssertFalse(other.body.isEmpty)
            }

            server.grow()
            for (url, etag) in zip(pages, firstTags) {
                let grown = try XCTUnwrap(fetch(url, session: session, headers: ["If-None-Match": etag]))
                XCTAssertEqual(grown.status, 200, "grown: a new page \(url)")
                XCTAssertNotEqual(grown.headers["ETag"], etag)
                XCTAssertFalse(grown.body.isEmpty)
            }
        }
    }

    func testFeedsWhoseServiceSendsNoValidatorsGetNone() throws {
        try MainActor.assumeIsolated {
            let server = try DemoFixture.startServer()
            defer { server.stop() }
            let session = makeTestSession()
            let commons = server.baseURL + "/w/api.php?action=query&generator=allimages&gaiuser=Aurora&gaisort=timestamp"
                + "&prop=imageinfo&iiprop=url%7Csize%7Cmime&format=json&formatversion=2"
            for url in [server.feedURL(user: "aurora"), commons] {
                let page = try fetchOrFail(url, session: session)
                XCTAssertEqual(page.status, 200, url)
                XCTAssertNil(page.headers["ETag"], url)
                XCTAssertNil(page.headers["Last-Modified"], url)
                let asked = try XCTUnwrap(fetch(url, session: session, headers: ["If-None-Match": "*"]))
                XCTAssertEqual(asked.status, 200, "nothing to match: \(url)")
            }
        }
    }
}
