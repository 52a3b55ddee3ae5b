import CGLib
import Foundation
import GObjectBindings
import GalleryDemoServer
import TestSupport
import XCTest

/// The growth knob: a grown gallery has a new upload at the top, with a picture of its own URL that is served,
/// dated when it grew, newer than every other post in the JSON APIs too, and the older posts keep their ids.
final class DemoGrowthTests: GLibTestCase {
    func testAGrownGalleryHasANewServedUploadAtTheTop() throws {
        try MainActor.assumeIsolated {
            let server = try DemoFixture.startServer()
            defer { server.stop() }
            let session = makeTestSession()
            let before = try FeedReader.parse(try fetchOrFail(server.feedURL(user: "aurora"), session: session).body)
            let statusesBefore = try Self.statusIDs(server, session: session)
            let started = Int(g_get_real_time() / 1_000_000)

            server.grow()
            XCTAssertEqual(server.grownUploads, 1)
            let after = try FeedReader.parse(try fetchOrFail(server.feedURL(user: "aurora"), session: session).body)
            let top = try XCTUnwrap(after.items.first)
            XCTAssertEqual(after.items.dropFirst().first?.fields["guid"], before.items.first?.fields["guid"], "the rest moved down")
            XCTAssertFalse(before.items.contains { $0.fields["guid"] == top.fields["guid"] }, "a new id")
            let imageURL = try XCTUnwrap(top.content?.url)
            XCTAssertTrue(imageURL.contains("/images/grown-00001-"), imageURL)
            let image = try fetchOrFail(imageURL, session: session)
            XCTAssertEqual(image.status, 200)
            XCTAssertTrue(image.mediaType?.hasPrefix("image/") == true)
            let date = try XCTUnwrap(top.fields["pubDate"])
            let published = try XCTUnwrap(Self.seconds(rfc822: date), date)
            XCTAssertGreaterThanOrEqual(published, started)

            // Mastodon's ids: the grown post is the newest, every older one keeps its id.
            let statusesAfter = try Self.statusIDs(server, session: session)
            XCTAssertEqual(Array(statusesAfter.dropFirst().prefix(statusesBefore.count - 1)),
                           Array(statusesBefore.prefix(statusesBefore.count - 1)))
            XCTAssertGreaterThan(try XCTUnwrap(UInt64(statusesAfter[0])), try XCTUnwrap(UInt64(statusesBefore[0])))
        }
    }

    func testGrowEverySecondsGrowsByItself() throws {
        try MainActor.assumeIsolated {
            let server = try DemoFixture.startServer(options: .init(growEverySeconds: 1))
            defer { server.stop() }
            let session = makeTestSession()
            var titles: [String] = []
            // Asked again until it has grown: no fixed wait.
            XCTAssertTrue(iterateMainLoop(until: {
                let feed = (try? fetchOrFail(server.feedURL(user: "atlas"), session: session)).flatMap { try? FeedReader.parse($0.body) }
                titles = feed?.items.prefix(2).compactMap { $0.fields["title"] } ?? []
                return titles.first?.hasPrefix("New: ") == true
            }, timeout: 60), "atlas never grew")
            XCTAssertGreaterThanOrEqual(server.grownUploads, 1)
        }
    }

    /// The status ids of aurora's first Mastodon page, newest first.
    @MainActor
    private static func statusIDs(_ server: DemoServer, session: Soup.Session) throws -> [String] {
        let lookup = try fetchOrFail(server.baseURL + "/api/v1/accounts/lookup?acct=aurora", session: session)
        let account = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(lookup.body)) as? [String: Any])
        let id = try XCTUnwrap(account["id"] as? String)
        let page = try fetchOrFail(server.baseURL + "/api/v1/accounts/\(id)/statuses?limit=40", session: session)
        let statuses = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(page.body)) as? [[String: Any]])
        return statuses.compactMap { $0["id"] as? String }
    }

    private static func seconds(rfc822: String) -> Int? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        return formatter.date(from: rfc822).map { Int($0.timeIntervalSince1970) }
    }
}
