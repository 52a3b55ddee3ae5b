import Foundation
import GObjectBindings
import GalleryDemoServer
import TestSupport
import XCTest

/// The demo users in Bluesky's and Misskey's wire formats, read back as plain JSON by a client with the app's
/// Soup.Session: the shapes the lexicons and Misskey's schemas give, paging to the end, the errors.
final class DemoSocialTests: GLibTestCase {
    @MainActor
    private static func json(_ result: FetchResult, file: StaticString = #filePath, line: UInt = #line) throws -> Any {
        XCTAssertEqual(result.mediaType, "application/json", file: file, line: line)
        return try JSONSerialization.jsonObject(with: Data(result.body))
    }

    func testBlueskyProfileAndFeedPageByCursorToTheEnd() throws {
        try MainActor.assumeIsolated {
            let server = try DemoFixture.startServer()
            defer { server.stop() }
            let session = makeTestSession()
            let handle = DemoBluesky.handle(of: "aurora")
            XCTAssertEqual(handle, "aurora.demo.test")
            let profileResult = try fetchOrFail(server.baseURL + "/xrpc/app.bsky.actor.getProfile?actor=\(handle)", session: session)
            XCTAssertEqual(profileResult.status, 200)
            let profile = try XCTUnwrap(Self.json(profileResult) as? [String: Any])
            let did = try XCTUnwrap(profile["did"] as? String)
            XCTAssertEqual(did, DemoBluesky.did(of: "aurora"))
            XCTAssertTrue(did.hasPrefix("did:plc:") && did.count == 32, did)
            XCTAssertEqual(profile["handle"] as? String, handle)

            var cursor: String?
            var posts: [[String: Any]] = []
            var reasons = 0
            repeat {
                let url = server.baseURL + "/xrpc/app.bsky.feed.getAuthorFeed?actor=\(did)&filter=posts_with_media&limit=10"
                    + (cursor.map { "&cursor=\($0)" } ?? "")
                let page = try XCTUnwrap(Self.json(try fetchOrFail(url, session: session)) as? [String: Any])
                let feed = try XCTUnwrap(page["feed"] as? [[String: Any]])
                XCTAssertLessThanOrEqual(feed.count, 10)
                for entry in feed {
                    if entry["reason"] != nil { reasons += 1 } else { posts.append(try XCTUnwrap(entry["post"] as? [String: Any])) }
                }
                cursor = page["cursor"] as? String
                XCTAssertLessThan(posts.count, 100, "runaway paging")
            } while cursor != nil
            let catalog = try DemoFixture.catalog()
            let aurora = try XCTUnwrap(catalog.user(named: "aurora"))
            XCTAssertEqual(posts.count, DemoPosts.posts(of: aurora).count)
            XCTAssertEqual(reasons, posts.count / 8, "a repost of another user after every eighth post")
            let types = posts.compactMap { ($0["embed"] as? [String: Any])?["$type"] as? String }
            XCTAssertEqual(Set(types), ["app.bsky.embed.images#view", "app.bsky.embed.gallery#view", "app.bsky.embed.video#view"])
            let uri = try XCTUnwrap(posts.first?["uri"] as? String)
            XCTAssertTrue(uri.hasPrefix("at://\(did)/app.bsky.feed.post/"), uri)
            let labelled = posts.filter { !(($0["labels"] as? [Any]) ?? []).isEmpty }
            XCTAssertEqual(labelled.count, aurora.items.filter { $0.rating == .adult }.count, "the adult items are labelled")

            let missing = try fetchOrFail(server.baseURL + "/xrpc/app.bsky.actor.getProfile?actor=nobody.demo.test", session: session)
            XCTAssertEqual(missing.status, 400)
            XCTAssertEqual(missing.text, #"{"error":"InvalidRequest","message":"Profile not found"}"#)

            // As the PLC directory: the DID document names this server as the PDS, which serves each video's
            // original (the demo's clip) by its CID, and no other blob.
            let documentResult = try fetchOrFail(server.baseURL + "/" + did, session: session)
            XCTAssertEqual(documentResult.mediaType, "application/did+ld+json")
            let document = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(documentResult.body)) as? [String: Any])
            XCTAssertEqual(document["id"] as? String, did)
            let services = try XCTUnwrap(document["service"] as? [[String: String]])
            XCTAssertEqual(services, [["id": "#atproto_pds", "type": "AtprotoPersonalDataServer", "serviceEndpoint": server.baseURL]])
            XCTAssertEqual(try fetchOrFail(server.baseURL + "/did:plc:aaaaaaaaaaaaaaaaaaaaaaaa", session: session).status, 404)
            let video = try XCTUnwrap(posts.compactMap { $0["embed"] as? [String: Any] }.first { $0["$type"] as? String == "app.bsky.embed.video#view" })
            let cid = try XCTUnwrap(video["cid"] as? String)
            let blob = try fetchOrFail(server.baseURL + "/xrpc/com.atproto.sync.getBlob?did=\(did)&cid=\(cid)", session: session)
            XCTAssertEqual(blob.status, 200)
            XCTAssertEqual(blob.mediaType, DemoMedia.clip.mediaType)
            XCTAssertEqual(blob.body, try DemoFixture.mediaBytes(.clip))
            let otherBlob = try fetchOrFail(server.baseURL + "/xrpc/com.atproto.sync.getBlob?did=\(DemoBluesky.did(of: "atlas"))&cid=\(cid)", session: session)
            XCTAssertEqual(otherBlob.status, 400, "another account's repository has no such blob")
        }
    }

    func testMisskeyAnswersPostsOnlyAndPagesByUntilId() throws {
        try MainActor.assumeIsolated {
            let server = try DemoFixture.startServer()
            defer { server.stop() }
            let session = makeTestSession()
            let showURL = server.baseURL + "/api/users/show"
            let getShow = try fetchOrFail(showURL, session: session)
            XCTAssertEqual(getShow.status, 405, "Misskey's API is POST only")

            let show = try XCTUnwrap(fetch(showURL, session: session, method: "POST", body: #"{"username":"atlas","host":null}"#))
            XCTAssertEqual(show.status, 200)
            let user = try XCTUnwrap(Self.json(show) as? [String: Any])
            let userID = try XCTUnwrap(user["id"] as? String)
            XCTAssertEqual(user["username"] as? String, "atlas")
            XCTAssertTrue(user["host"] is NSNull, "a local user's host is null")

            var untilID: String?
            var notes: [[String: Any]] = []
            while true {
                let body = #"{"userId":"\#(userID)","withFiles":true,"withRenotes":false,"limit":40"#
                    + (untilID.map { #","untilId":"\#($0)""# } ?? "") + "}"
                let page = try XCTUnwrap(Self.json(try XCTUnwrap(fetch(server.baseURL + "/api/users/notes", session: session,
                                                                      method: "POST", body: body))) as? [[String: Any]])
                guard let last = page.last else { break }
                XCTAssertLessThanOrEqual(page.count, 40)
                notes += page
                untilID = try XCTUnwrap(last["id"] as? String)
                XCTAssertLessThan(notes.count, 1000, "runaway paging")
            }
            let atlas = try XCTUnwrap(DemoFixture.catalog().user(named: "atlas"))
            let ids = notes.compactMap { $0["id"] as? String }
            XCTAssertEqual(ids.count, DemoPosts.posts(of: atlas).count)
            XCTAssertEqual(ids, ids.sorted(by: >), "newest first, ids falling")
            let files = notes.flatMap { ($0["files"] as? [[String: Any]]) ?? [] }
            XCTAssertEqual(files.count, atlas.items.count)
            XCTAssertTrue(files.allSatisfy { ($0["thumbnailUrl"] as? String)?.hasPrefix(server.baseURL) == true })
            XCTAssertTrue(files.contains { $0["type"] as? String == "video/mp4" })

            let missing = try XCTUnwrap(fetch(showURL, session: session, method: "POST", body: #"{"username":"nobody","host":null}"#))
            XCTAssertEqual(missing.status, 404)
            XCTAssertTrue(missing.text.contains(#""code":"NO_SUCH_USER""#), missing.text)
            let broken = try XCTUnwrap(fetch(showURL, session: session, method: "POST", body: "not json"))
            XCTAssertEqual(broken.status, 400)
        }
    }
}
