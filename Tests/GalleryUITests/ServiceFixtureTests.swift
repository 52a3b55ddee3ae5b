import CGLib
import CGtk
import Foundation
import GObjectBindings
import GtkBindings
@testable import GalleryCore
import TestSupport
import XCTest
@testable import GalleryUI

/// Each real service's fixtures, served by a local server through the endpoint override, all the way to
/// rows with thumbnails in the window: parse → rows → thumbnails. Media hosts named in the fixtures
/// (files.mastodon.social, upload.wikimedia.org, …) are rewritten onto the local server, which answers every
/// media URL with a real PNG.
final class ServiceFixtureTests: GLibTestCase {
    private static let mediaHosts = ["https://files.mastodon.social", "https://upload.wikimedia.org",
                                     "https://images-wixmp.example", "https://cdn.bsky.app", "https://video.bsky.app",
                                     "https://media.misskey.io"]

    @MainActor
    static func fixture(_ name: String, server: TestHTTPServer) -> String {
        mediaHosts.reduce(Fixtures.text(name)) { text, host in
            text.replacingOccurrences(of: host, with: server.baseURL + "/media/" + host.dropFirst("https://".count))
        }
    }

    @MainActor
    static func makeServer() throws -> TestHTTPServer {
        let server = try TestHTTPServer()
        let png = try Pixbuf.filled(width: 320, height: 200, rgba: 0x3584e4ff).encoded(as: "png").array
        server.route("/media/*") { _ in .bytes(png, contentType: "image/png") }
        return server
    }

    /// Waits until every row on screen has finished its thumbnail, then returns the rows' states.
    @MainActor
    private static func settle(_ ui: UIHarness, rows: Int) throws -> [ItemViewModel.State] {
        XCTAssertTrue(iterateMainLoop(until: { ui.list.rowCount == rows }, timeout: 60), "rows: \(ui.list.rowCount)")
        // The view makes its rows one a frame and fetches thumbnails ahead of them, so on a busy machine the
        // last thumbnails can finish before their rows exist: wait for the rows too (`waitForRows`).
        XCTAssertTrue(ui.waitForRows(rows), "rows on screen: \(ui.list.boundRows.count)")
        iterateMainLoop(until: { ui.window.gallery?.loadingCount == 0 && !ui.list.visibleRange.isEmpty }, timeout: 60)
        return try (0..<ui.list.rowCount).map { try ui.download($0).state }
    }

    func testDeviantArtFeedBecomesRowsWithThumbnails() throws {
        try MainActor.assumeIsolated {
            let server = try Self.makeServer()
            let page = Self.fixture("deviantart/gallery-page1.xml", server: server)
            let end = #"<rss version="2.0"><channel><title>end</title></channel></rss>"#
            server.route("/rss.xml") { request in
                .text(request.query["offset"] == nil ? page : end, contentType: "application/rss+xml")
            }
            let ui = try UIHarness(endpoints: [.deviantArt: server.baseURL])
            defer { ui.close() }
            ui.search("inkwell", source: .deviantArt)
            let states = try Self.settle(ui, rows: 4)
            XCTAssertEqual(states, [.loaded, .sensitiveHidden, .noPreview, .loaded])
            XCTAssertEqual(try ui.row(0).titleLabel.text, "Rock & Roll")
            XCTAssertEqual(try ui.row(2).detailLabel.text, "A-story-103", "a non-image row, named after its page")
            XCTAssertTrue(iterateMainLoop(until: { ui.window.gallery?.feed.state == .finished }, timeout: 60))
            XCTAssertTrue(server.requestLog.contains { $0.contains("/media/images-wixmp.example/inkwell/rock-150.jpg") },
                          "the smallest thumbnail that covers the row")
        }
    }

    func testMastodonMediaBecomeRowsAcrossThreePages() throws {
        try MainActor.assumeIsolated {
            let server = try Self.makeServer()
            let base = server.baseURL
            let statuses = "/api/v1/accounts/109876543210987654321/statuses"
            let pages = (1...3).map { Self.fixture("mastodon/statuses-page\($0).json", server: server) }
            let account = Fixtures.text("mastodon/account.json")
            server.route("/api/v1/accounts/lookup") { _ in .text(account, contentType: "application/json") }
            server.route(statuses) { request in
                let index = ["p2": 1, "p3": 2][request.query["max_id"] ?? ""] ?? 0
                let next = index < 2 ? "<https://mastodon.social\(statuses)?max_id=p\(index + 2)>; rel=\"next\"" : ""
                return .text(pages[index], contentType: "application/json").header("Link", next)
            }
            let ui = try UIHarness(endpoints: [.mastodon: base])
            defer { ui.close() }
            ui.search("alice@mastodon.social", source: .mastodon)
            XCTAssertTrue(ui.waitForRows(1))
            for _ in 0..<3 where ui.window.gallery?.feed.state != .finished {
                ui.scroll(toRow: ui.list.rowCount - 1)
                iterateMainLoop(until: { ui.window.gallery?.feed.state != .loading(page: 2) && ui.window.gallery?.feed.state != .loading(page: 3) },
                                timeout: 60)
            }
            XCTAssertTrue(iterateMainLoop(until: { ui.window.gallery?.feed.state == .finished }, timeout: 60))
            XCTAssertEqual(server.requestLog.filter { $0.hasPrefix(statuses) }.count, 3, "three pages")
            let states = try Self.settle(ui, rows: ui.list.rowCount)
            XCTAssertGreaterThanOrEqual(states.count, 6)
            XCTAssertTrue(states.contains(.loaded))
            XCTAssertTrue(states.contains(.sensitiveHidden), "sensitive posts are hidden")
            for index in ui.list.visibleRange where try ui.download(index).state != .sensitiveHidden
                && ui.download(index).state != .noPreview {
                XCTAssertEqual(try ui.download(index).state, .loaded, "row \(index): \(ui.title(index))")
            }
        }
    }

    func testCommonsFilesBecomeRowsAcrossThreeReplies() throws {
        try MainActor.assumeIsolated {
            let server = try Self.makeServer()
            let replies = (1...3).map { Self.fixture("commons/page\($0).json", server: server) }
            server.route(CommonsSource.apiPath) { request in
                let index = request.query["iicontinue"] != nil ? 2 : request.query["gaicontinue"] != nil ? 1 : 0
                return .text(replies[index], contentType: "application/json")
            }
            let ui = try UIHarness(endpoints: [.commons: server.baseURL])
            defer { ui.close() }
            ui.search("Müller", source: .commons)
            XCTAssertTrue(ui.waitForRows(1))
            for _ in 0..<3 where ui.window.gallery?.feed.state != .finished {
                ui.scroll(toRow: ui.list.rowCount - 1)
                iterateMainLoop(until: { if case .loading = ui.window.gallery?.feed.state { false } else { true } }, timeout: 60)
            }
            XCTAssertTrue(iterateMainLoop(until: { ui.window.gallery?.feed.state == .finished }, timeout: 60))
            XCTAssertEqual(ui.list.rowCount, 8, "1001 1002 1004 1003 | 2004 2001 2002 | 2003")
            let states = try Self.settle(ui, rows: 8)
            for index in ui.list.visibleRange {
                XCTAssertTrue([.loaded, .noPreview].contains(states[index]), "row \(index): \(states[index])")
            }
            XCTAssertTrue(server.requestLog.contains { $0.hasPrefix("/media/upload.wikimedia.org/") })
        }
    }

    func testBlueskyPostsBecomeRowsAcrossTwoPages() throws {
        try MainActor.assumeIsolated {
            let server = try Self.makeServer()
            let profile = Fixtures.text("bluesky/profile.json")
            let pages = (1...2).map { Self.fixture("bluesky/author-feed-page\($0).json", server: server) }
            server.route("/xrpc/app.bsky.actor.getProfile") { _ in .text(profile, contentType: "application/json") }
            server.route("/xrpc/app.bsky.feed.getAuthorFeed") { request in
                .text(pages[request.query["cursor"] == nil ? 0 : 1], contentType: "application/json")
            }
            let ui = try UIHarness(endpoints: [.bluesky: server.baseURL])
            defer { ui.close() }
            ui.search("alice.bsky.social", source: .bluesky)
            XCTAssertTrue(ui.waitForRows(9))
            ui.scroll(toRow: ui.list.rowCount - 1)
            XCTAssertTrue(iterateMainLoop(until: { ui.window.gallery?.feed.state == .finished }, timeout: 60))
            let states = try Self.settle(ui, rows: 11)
            XCTAssertEqual(try ui.download(0).item.title, "Harbour study, two takes 🌊 (1/2)")
            XCTAssertEqual(try ui.download(2).item.kind, .video)
            XCTAssertEqual(states[4], .sensitiveHidden, "the self-labelled figure study")
            XCTAssertEqual(states[8], .sensitiveHidden, "graphic-media")
            for index in ui.list.visibleRange where ![4, 8].contains(index) {
                XCTAssertEqual(states[index], .loaded, "row \(index): \(ui.title(index))")
            }
            XCTAssertTrue(server.requestLog.contains { $0.hasPrefix("/media/cdn.bsky.app/img/feed_thumbnail/plain/") },
                          "rows show the CDN's thumbnails")
            XCTAssertTrue(server.requestLog.contains { $0.hasPrefix("/media/video.bsky.app/watch/") && $0.hasSuffix("/thumbnail.jpg") },
                          "the video's still")
        }
    }

    func testMisskeyFilesBecomeRowsAndTheGalleryEndsAtAnEmptyPage() throws {
        try MainActor.assumeIsolated {
            let server = try Self.makeServer()
            let user = Fixtures.text("misskey/users-show.json")
            let pages = (1...2).map { Self.fixture("misskey/users-notes-page\($0).json", server: server) } + ["[]"]
            var methods: Set<String> = []
            server.route("/api/users/show") { request in
                methods.insert(request.method)
                return .text(user, contentType: "application/json")
            }
            server.route("/api/users/notes") { request in
                methods.insert(request.method)
                let index = request.body.contains("9tjp00ii01") ? 2 : request.body.contains("untilId") ? 1 : 0
                return .text(pages[index], contentType: "application/json")
            }
            let ui = try UIHarness(endpoints: [.misskey: server.baseURL])
            defer { ui.close() }
            ui.search("alice@misskey.io", source: .misskey)
            XCTAssertTrue(ui.waitForRows(7))
            for _ in 0..<3 where ui.window.gallery?.feed.state != .finished {
                ui.scroll(toRow: ui.list.rowCount - 1)
                iterateMainLoop(until: { if case .loading = ui.window.gallery?.feed.state { false } else { true } }, timeout: 60)
            }
            XCTAssertTrue(iterateMainLoop(until: { ui.window.gallery?.feed.state == .finished }, timeout: 60))
            XCTAssertEqual(methods, ["POST"])
            let states = try Self.settle(ui, rows: 9)
            XCTAssertEqual(try ui.download(0).item.title, "Harbour sketches, day two 🌊 (1/2)")
            XCTAssertEqual(states[2], .sensitiveHidden, "behind a content warning")
            XCTAssertEqual(states[3], .sensitiveHidden, "a file marked sensitive")
            XCTAssertEqual(try ui.download(6).item.kind, .audio)
            for index in ui.list.visibleRange where [0, 1, 4, 5, 7, 8].contains(index) {
                XCTAssertEqual(states[index], .loaded, "row \(index): \(ui.title(index))")
            }
            XCTAssertTrue(server.requestLog.contains { $0.hasPrefix("/media/media.misskey.io/files/thumbnail-") })
        }
    }

    func testARateLimitIsShownWithItsWaitAndWaitedOut() throws {
        try MainActor.assumeIsolated {
            let server = try Self.makeServer()
            let page = Self.fixture("deviantart/gallery-page1.xml", server: server)
                .replacingOccurrences(of: "offset=60", with: "offset=0")  // a next link back to itself: stops
            var limited = false
            server.route("/rss.xml") { _ in
                guard limited else {
                    limited = true
                    return TestResponse.status(429).header("Retry-After", "1")
                }
                return .text(page, contentType: "application/rss+xml")
            }
            let ui = try UIHarness(endpoints: [.deviantArt: server.baseURL])
            defer { ui.close() }
            ui.search("inkwell", source: .deviantArt)
            XCTAssertTrue(iterateMainLoop(until: { ui.window.statusPage.titleLabel.text == "DeviantArt asks to slow down" },
                                          timeout: 60))
            XCTAssertEqual(ui.window.statusPage.descriptionLabel.text, "Too many requests. Trying again in 1 s.")
            XCTAssertEqual(ui.window.header.bar.subtitle, "DeviantArt asks to wait 1 s; retrying by itself")
            XCTAssertTrue(ui.waitForRows(4), "the same request, sent again after the wait")
        }
    }

    func testDeviantArtsRefusalSaysTryAgainLaterAndRetriesByItself() throws {
        try MainActor.assumeIsolated {
            let server = try Self.makeServer()
            let page = Self.fixture("deviantart/gallery-page1.xml", server: server)
                .replacingOccurrences(of: "offset=60", with: "offset=0")
            var refused = false
            server.route("/rss.xml") { _ in
                guard refused else {
                    refused = true
                    return TestResponse.status(403).header("Retry-After", "1")
                }
                return .text(page, contentType: "application/rss+xml")
            }
            let ui = try UIHarness(endpoints: [.deviantArt: server.baseURL])
            defer { ui.close() }
            ui.search("inkwell", source: .deviantArt)
            XCTAssertTrue(iterateMainLoop(until: {
                ui.window.statusPage.titleLabel.text == "DeviantArt is refusing requests for now"
            }, timeout: 60))
            XCTAssertEqual(ui.window.statusPage.descriptionLabel.text, "Try again later; trying again by itself in 1 s.")
            XCTAssertEqual(ui.window.header.bar.subtitle, "DeviantArt is refusing requests for now; retrying in 1 s")
            XCTAssertTrue(ui.waitForRows(4), "the same request, sent again after the wait: the gallery, not an error")
        }
    }
}
