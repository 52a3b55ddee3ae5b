import CGLib
import GObjectBindings
import TestSupport
import XCTest
@testable import GalleryCore

/// The saved first page: kept on every search (bounded), shown when the service cannot be reached, and
/// only then — against real servers on 127.0.0.1 that are stopped to take the network away.
final class FeedSnapshotTests: GLibTestCase {
    static let inkwellFeed = Fixtures.text("deviantart/gallery-page1.xml")
    static let mastodonStatuses = "/api/v1/accounts/109876543210987654321/statuses"

    /// What the feed server answers: the feed, an error, or a feed of `padding` extra bytes; and a snapshot
    /// store in a folder of its own, removed with it.
    @MainActor
    final class FeedServer {
        let server: TestHTTPServer
        let folder = TemporaryFolder(prefix: "gallery-snapshot")
        lazy var store = FeedSnapshotStore(path: folder.path + "/last-gallery.json")
        var status: UInt32 = 200
        var padding = 0
        /// Accepts the feed's requests and never answers them (for longer than any test runs).
        var stalls = false

        init() throws {
            server = try TestHTTPServer()
            server.route("/rss.xml") { [unowned self] _ in
                guard !stalls else { return TestResponse.text("").delayed(milliseconds: 600_000) }
                guard status == 200 else { return .status(status) }
                let feed = padding == 0 ? FeedSnapshotTests.inkwellFeed
                    : FeedSnapshotTests.inkwellFeed.replacingOccurrences(
                        of: "<channel>", with: "<channel><!--" + String(repeating: "x", count: padding) + "-->")
                return .text(feed, contentType: "application/rss+xml")
            }
            server.route("/api/v1/accounts/lookup") { _ in
                .text(Fixtures.text("mastodon/account.json"), contentType: "application/json")
            }
            server.route(FeedSnapshotTests.mastodonStatuses) { _ in
                .text(Fixtures.text("mastodon/statuses-page1.json"), contentType: "application/json")
            }
        }

        var deviantArt: any GallerySource {
            get throws { try SourceKind.deviantArt.makeSource(username: "inkwell", endpointOverride: server.baseURL) }
        }
        var mastodon: any GallerySource {
            get throws { try MastodonSource(account: "alice@mastodon.social", endpointOverride: server.baseURL) }
        }
    }

    /// Loads the feed's first page (following lookups) and returns its items once the feed rests.
    @MainActor
    static func firstPage(of feed: GalleryFeed, file: StaticString = #filePath, line: UInt = #line) -> [GalleryItem] {
        var items: [GalleryItem] = []
        feed.loadNextPage { items += $0 }
        let rested = iterateMainLoop(until: {
            switch feed.state {
            case .loading, .waiting: false
            default: true
            }
        }, timeout: 60)
        XCTAssertTrue(rested, "the feed never came to rest: \(feed.state)", file: file, line: line)
        return items
    }

    /// Loads the first page online and waits until the store wrote it.
    @MainActor
    static func saveFirstPage(_ source: any GallerySource, in store: FeedSnapshotStore,
                              file: StaticString = #filePath, line: UInt = #line) -> [GalleryItem] {
        var saved = false
        store.onSaved = { error in
            XCTAssertNil(error, file: file, line: line)
            saved = true
        }
        let items = firstPage(of: GalleryFeed(source: source, client: HTTPClient(), snapshots: store))
        XCTAssertTrue(iterateMainLoop(until: { saved }, timeout: 60), "the first page was not saved", file: file, line: line)
        store.onSaved = nil
        return items
    }

    // MARK: Tests

    func testTheFirstPageIsSavedAndShownWhenTheServiceCannotBeReached() throws {
        try MainActor.assumeIsolated {
            let feeds = try FeedServer()
            let store = feeds.store
            let source = try feeds.deviantArt
            let online = Self.saveFirstPage(source, in: store)
            XCTAssertEqual(online.count, 4)
            var info = stat()
            XCTAssertEqual(stat(store.path, &info), 0)
            XCTAssertEqual(info.st_mode & 0o777, 0o600, "readable by the user only")

            feeds.server.stop()
            let feed = GalleryFeed(source: source, client: HTTPClient(), snapshots: store)
            let offline = Self.firstPage(of: feed)
            XCTAssertEqual(offline.map(\.title), online.map(\.title))
            XCTAssertEqual(offline.map { $0.thumbnails.map(\.url) }, online.map { $0.thumbnails.map(\.url) })
            XCTAssertNotNil(feed.offlineCopy)
            XCTAssertEqual(feed.state, .idle, "the copy's next page is there to ask for")

            XCTAssertTrue(Self.firstPage(of: feed).isEmpty)
            XCTAssertEqual(feed.state, .failed(.offline(service: "DeviantArt")), "the next page needs the network")
        }
    }

    func testALookupAndThePageAfterItAreReplayedInOrder() throws {
        try MainActor.assumeIsolated {
            let feeds = try FeedServer()
            let store = feeds.store
            let source = try feeds.mastodon
            let online = Self.saveFirstPage(source, in: store)
            XCTAssertEqual(online.count, 3)
            feeds.server.stop()
            let feed = GalleryFeed(source: source, client: HTTPClient(), snapshots: store)
            XCTAssertEqual(Self.firstPage(of: feed).map(\.id), online.map(\.id))
            XCTAssertNotNil(feed.offlineCopy)
        }
    }

    func testTheCopyIsNotUsedWhileTheServiceAnswers() throws {
        try MainActor.assumeIsolated {
            let feeds = try FeedServer()
            let store = feeds.store
            let source = try feeds.deviantArt
            _ = Self.saveFirstPage(source, in: store)
            feeds.status = 500
            let feed = GalleryFeed(source: source, client: HTTPClient(), snapshots: store)
            XCTAssertTrue(Self.firstPage(of: feed).isEmpty)
            guard case .failed(.serverError) = feed.state else { return XCTFail("\(feed.state)") }
            XCTAssertNil(feed.offlineCopy)
        }
    }

    /// A server that accepts and never answers: libsoup's I/O timeout ends the first try, and the stale-copy
    /// retry (there is an HTTP cache, but no copy in it) goes to the network and hangs as well. The throughput
    /// window (shorter than two I/O timeouts) must not turn that into "Too slow": the page is unreachable, and
    /// the saved copy is shown.
    func testAServerThatNeverAnswersTimesOutAndTheCopyIsShown() throws {
        try MainActor.assumeIsolated {
            let feeds = try FeedServer()
            let store = feeds.store
            let source = try feeds.deviantArt
            let online = Self.saveFirstPage(source, in: store)
            feeds.stalls = true
            let configuration = HTTPClient.Configuration(ioTimeoutSeconds: 2, throughputWindowSeconds: 3)
            let client = HTTPClient(configuration: configuration,
                                    cache: HTTPCache(directory: feeds.folder.path + "/http", maxBytes: 1_048_576))

            var fetched: Result<HTTPResponse, HTTPError>?
            client.fetch(HTTPRequest(url: feeds.server.url("/rss.xml"), maxBodyBytes: 1_048_576), cancellable: Cancellable()) { fetched = $0 }
            XCTAssertTrue(iterateMainLoop(until: { fetched != nil }, timeout: 60))
            guard case .failure(let error) = fetched else { return XCTFail("\(String(describing: fetched))") }
            XCTAssertEqual(error, .timedOut(seconds: 2))
            XCTAssertTrue(error.isUnreachable)

            let feed = GalleryFeed(source: source, client: client, snapshots: store)
            XCTAssertEqual(Self.firstPage(of: feed).map(\.title), online.map(\.title))
            XCTAssertNotNil(feed.offlineCopy, "\(feed.state)")
        }
    }

    func testAnotherGallerysCopyOrNoneLeavesTheNetworkError() throws {
        try MainActor.assumeIsolated {
            let feeds = try FeedServer()
            let store = feeds.store
            let other = try SourceKind.deviantArt.makeSource(username: "someone-else", endpointOverride: feeds.server.baseURL)
            feeds.server.stop()
            let before = GalleryFeed(source: other, client: HTTPClient(), snapshots: store)
            XCTAssertEqual(Self.firstPage(of: before), [])
            guard case .failed(.network) = before.state else { return XCTFail("no copy at all: \(before.state)") }

            let restarted = try FeedServer()
            _ = Self.saveFirstPage(try restarted.deviantArt, in: store)
            restarted.server.stop()
            let elsewhere = try SourceKind.deviantArt.makeSource(username: "someone-else",
                                                                 endpointOverride: restarted.server.baseURL)
            let feed = GalleryFeed(source: elsewhere, client: HTTPClient(), snapshots: store)
            XCTAssertTrue(Self.firstPage(of: feed).isEmpty)
            guard case .failed(.network) = feed.state else { return XCTFail("another gallery's copy: \(feed.state)") }
        }
    }

    func testAFirstPageBeyondTheBoundIsNotKept() throws {
        try MainActor.assumeIsolated {
            let feeds = try FeedServer()
            feeds.padding = FeedSnapshot.maxBytes
            let store = feeds.store
            var saves = 0
            store.onSaved = { _ in saves += 1 }
            let feed = GalleryFeed(source: try feeds.deviantArt, client: HTTPClient(), snapshots: store)
            XCTAssertEqual(Self.firstPage(of: feed).count, 4, "the page itself is shown")
            XCTAssertEqual(saves, 0)
            XCTAssertNil(DirectoryScan.fileBytes(at: store.path))
            // The feed asks for its save when it delivers the page, and the store writes saves one after another:
            // one asked for now is reported after any the feed asked for. Only this one may be reported.
            store.save(FeedSnapshot(firstURL: "probe", savedAt: 0, replies: []))
            XCTAssertTrue(iterateMainLoop(until: { saves >= 1 }, timeout: 60))
            drainMainLoop()
            XCTAssertEqual(saves, 1, "the page beyond the bound was not saved")
        }
    }

    func testADamagedOrOversizedFileIsIgnored() throws {
        try MainActor.assumeIsolated {
            let feeds = try FeedServer()
            let store = feeds.store
            let reply = FeedSnapshot.Reply(request: PageRequest(url: "http://127.0.0.1:9/a"),
                                           response: HTTPResponse(head: .init(status: 200, reason: "OK", url: "http://127.0.0.1:9/a"),
                                                                  body: Bytes("feed")))
            let good = try XCTUnwrap(FeedSnapshot(firstURL: "http://127.0.0.1:9/a", savedAt: 1, replies: [reply]).encoded())
            XCTAssertNotNil(FeedSnapshot.decode(good))
            XCTAssertNil(FeedSnapshot.decode(Bytes("{\"firstURL\": 3")))
            let tooMany = FeedSnapshot(firstURL: "http://127.0.0.1:9/a", savedAt: 1,
                                       replies: Array(repeating: reply, count: FeedSnapshot.maxReplies + 1))
            XCTAssertNil(FeedSnapshot.decode(try XCTUnwrap(tooMany.encoded())), "more replies than a first page needs")

            // The same valid snapshot, read back; then padded with JSON whitespace (still valid) past the bound.
            let json = good.withUnsafeBytes { Array($0) }
            for (padding, expected) in [(0, true), (FeedSnapshot.maxFileBytes + 1 - json.count, false)] {
                feeds.folder.write(json + Array(repeating: 0x20, count: padding), to: "last-gallery.json")
                var loaded: FeedSnapshot?? = .none
                store.load(firstURL: "http://127.0.0.1:9/a") { loaded = .some($0) }
                XCTAssertTrue(iterateMainLoop(until: { loaded != nil }, timeout: 60))
                XCTAssertEqual(loaded??.replies.count == 1, expected, expected ? "a good file is read" : "a file over the bound is not read")
            }
        }
    }

    /// The app reads the file ahead as it starts; the first to ask takes that read, and a save since drops it, so
    /// no one is handed a page the file no longer holds.
    func testWhatIsReadAheadGoesToTheFirstAskerAndASaveSinceDropsIt() throws {
        try MainActor.assumeIsolated {
            let feeds = try FeedServer()
            let store = feeds.store
            _ = Self.saveFirstPage(try feeds.deviantArt, in: store)
            let deviantArtURL = try feeds.deviantArt.firstRequest().key
            let mastodonURL = try feeds.mastodon.firstRequest().key

            store.readAhead()
            var loaded: FeedSnapshot??
            store.load(firstURL: deviantArtURL) { loaded = .some($0) }
            XCTAssertTrue(iterateMainLoop(until: { loaded != nil }, timeout: 60))
            XCTAssertEqual(loaded??.firstURL, deviantArtURL, "the read ahead")

            store.readAhead()
            drainMainLoop()
            _ = Self.saveFirstPage(try feeds.mastodon, in: store)
            loaded = nil
            store.load(firstURL: mastodonURL) { loaded = .some($0) }
            XCTAssertTrue(iterateMainLoop(until: { loaded != nil }, timeout: 60))
            XCTAssertEqual(loaded??.firstURL, mastodonURL, "the file as saved since, not as read ahead")
        }
    }

    /// A launch takes what was read ahead as soon as the worker has it, without waiting for the main loop to
    /// deliver it (busy building the window then): the saved copy can be in the window's first frame.
    func testAReadAheadTheWorkerFinishedIsHandedOverAtOnce() throws {
        try MainActor.assumeIsolated {
            let feeds = try FeedServer()
            let store = feeds.store
            _ = Self.saveFirstPage(try feeds.deviantArt, in: store)
            let firstURL = try feeds.deviantArt.firstRequest().key

            store.readAhead()
            // The workers' end, waited for without running the main loop (which would deliver it the usual way).
            let deadline = g_get_monotonic_time() + 60_000_000
            while !store.isReadAheadFinished, g_get_monotonic_time() < deadline { g_usleep(1000) }
            XCTAssertTrue(store.isReadAheadFinished)
            var loaded: FeedSnapshot??
            var snapshotCalls = 0
            store.load(firstURL: firstURL) {
                loaded = .some($0)
                snapshotCalls += 1
            }
            XCTAssertEqual(loaded??.firstURL, firstURL, "handed over before `load` returned")
            var thumbnails: [FirstScreenThumbnails.Entry]?
            var thumbnailCalls = 0
            store.loadFirstScreen(firstURL: firstURL) {
                thumbnails = $0
                thumbnailCalls += 1
            }
            XCTAssertEqual(thumbnails?.count, 0, "none kept, and said so at once")
            // The main loop's own delivery of what the workers read comes after, and calls no one again.
            var later = 0
            store.load(firstURL: firstURL) { _ in later += 1 }
            XCTAssertTrue(iterateMainLoop(until: { later == 1 }, timeout: 60), "a second asker reads the file")
            drainMainLoop()
            XCTAssertEqual(snapshotCalls, 1)
            XCTAssertEqual(thumbnailCalls, 1)
        }
    }

    func testRemoveDeletesTheFileAndSaysHowBig() throws {
        try MainActor.assumeIsolated {
            let feeds = try FeedServer()
            let store = feeds.store
            _ = Self.saveFirstPage(try feeds.deviantArt, in: store)
            let size = try XCTUnwrap(DirectoryScan.fileBytes(at: store.path))
            var removed: Int?
            store.remove { removed = $0 }
            XCTAssertTrue(iterateMainLoop(until: { removed != nil }, timeout: 60))
            XCTAssertEqual(removed, size)
            XCTAssertNil(DirectoryScan.fileBytes(at: store.path))
        }
    }
}
