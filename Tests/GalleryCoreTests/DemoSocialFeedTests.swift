import GObjectBindings
import GalleryDemoServer
import TestSupport
import XCTest
@testable import GalleryCore

/// The Bluesky and Misskey sources against the demo server, as `--source bluesky|misskey --endpoint DEMO`
/// runs them: every demo item arrives once, in order, videos as videos (Misskey's sound as audio), adult items
/// sensitive, reposts left out.
final class DemoSocialFeedTests: GLibTestCase {
    @MainActor
    private static func sources(_ user: String, server: DemoServer) throws -> [any GallerySource] {
        [try BlueskySource(actor: DemoBluesky.handle(of: user), endpointOverride: server.baseURL),
         try MisskeySource(account: "\(user)@demo.test", endpointOverride: server.baseURL)]
    }

    func testEveryDemoItemArrivesOnceFromBothFormats() throws {
        try MainActor.assumeIsolated {
            let server = try startDemoServer()
            for name in ["aurora", "atlas"] {
                let user = try XCTUnwrap(server.catalog.user(named: name))
                let videoItems = Set(DemoPosts.posts(of: user).filter(\.isVideo).flatMap { $0.items.map(\.id) })
                let postDates = Dictionary(uniqueKeysWithValues: DemoPosts.posts(of: user).flatMap { post in
                    post.items.map { ($0.id, post.published) }
                })
                for source in try Self.sources(name, server: server) {
                    let run = loadEveryPage(source)
                    XCTAssertEqual(run.feed.state, .finished, "\(source.kind) \(name)")
                    let items = run.pages.joined()
                    XCTAssertEqual(items.count, user.items.count, "\(source.kind) \(name): one item per picture, no repost")
                    XCTAssertEqual(items.map(\.thumbnails.first?.url), user.items.map { server.baseURL + $0.imagePath(thumbnailLongSide: 300) },
                                   "\(source.kind) \(name): in the gallery's order")
                    // Bluesky's demo video is a playlist (a video, whatever it holds); Misskey's drive files are
                    // what their MIME type says: the demo's sound is audio, and each plays its own file.
                    let mediaOf = Dictionary(uniqueKeysWithValues: DemoPosts.posts(of: user).flatMap { post in
                        post.items.map { ($0.id, DemoMedia.of(post)) }
                    })
                    XCTAssertEqual(items.map(\.kind), user.items.map { demo in
                        guard videoItems.contains(demo.id) else { return .image }
                        return source.kind == .misskey && mediaOf[demo.id]??.isSound == true ? .audio : .video
                    })
                    if source.kind == .misskey {
                        XCTAssertEqual(items.map(\.media?.url), user.items.map { demo in
                            mediaOf[demo.id]?.map { server.baseURL + $0.path }
                        })
                    } else {
                        // Bluesky's videos play from the PDS the DID document names (the demo server itself).
                        let pds = server.baseURL + "/xrpc/com.atproto.sync.getBlob?did=" + URLText.encodeComponent(DemoBluesky.did(of: name)) + "&cid=bafkrei"
                        XCTAssertEqual(items.map { $0.media?.url.hasPrefix(pds) == true }, items.map { $0.kind == .video },
                                       "\(name): every video, and only videos, from the PDS")
                    }
                    XCTAssertEqual(items.map(\.isSensitive), user.items.map { $0.rating == .adult })
                    XCTAssertTrue(items.allSatisfy { $0.pageURL?.hasPrefix("https://") == true }, "\(source.kind): pages are https")
                    for (item, demo) in zip(items, user.items) where item.kind == .image {
                        XCTAssertEqual(item.fullImageURL, server.baseURL + demo.imagePath())
                        XCTAssertEqual(item.altText, demo.altText, "what the picture shows")
                        XCTAssertEqual(item.published, postDates[demo.id], "the post's date")
                    }
                }
            }
        }
    }

    func testMissingEmptyAndBrokenDemoUsersGetTheirMessages() throws {
        try MainActor.assumeIsolated {
            let server = try startDemoServer()
            for source in try Self.sources("nobody", server: server) {
                XCTAssertEqual(loadEveryPage(source).feed.state,
                               .failed(.noSuchUser(service: source.serviceName, username: source.username)))
            }
            for source in try Self.sources("empty", server: server) {
                XCTAssertEqual(loadEveryPage(source).feed.state, .failed(.emptyGallery(username: source.username)))
            }
            for source in try Self.sources("brokenfeed", server: server) {
                guard case .failed(.malformedResponse(let service, _)) = loadEveryPage(source).feed.state else {
                    return XCTFail("\(source.kind): a cut-off reply is malformed")
                }
                XCTAssertEqual(service, source.serviceName)
            }
        }
    }
}
