import CGLib
import CGtk
import GObjectBindings
import GtkBindings
import GalleryCore
import GalleryDemoServer
import GalleryHostileServer
import TestSupport
import XCTest
@testable import GalleryUI

/// The real window against the hostile server (GalleryDemoServer's HostileServer), under
/// G_DEBUG=fatal-criticals with every GLib warning failing the test: each hostile image ends in its error
/// row, each hostile feed in rows or a message, within a bounded time; nothing spins forever.
final class HostileServerTests: GLibTestCase {
    /// The app's client with its slow-failure knobs turned down: 1 s without data, 4 KB/s over 2 s.
    static let fastClient = HTTPClient.Configuration(ioTimeoutSeconds: 1, minimumBytesPerSecond: 4096,
                                                     throughputWindowSeconds: 2)

    @MainActor
    private static func harness(_ server: HostileServer) throws -> UIHarness {
        try UIHarness(client: fastClient, endpoints: [.demo: server.baseURL, .mastodon: server.baseURL,
                                                      .bluesky: server.baseURL, .misskey: server.baseURL])
    }

    /// What each row of the hostile gallery must end as: its error, or its image.
    private static let expectedRows: [String: String] = [
        "Hostile: 404": "HTTP 404 Not Found",
        "Hostile: 500": "HTTP 500 Internal Server Error",
        "Hostile: 403": "HTTP 403 Forbidden",
        "Hostile: 429": "HTTP 429 Too Many Requests",
        "Hostile: 429-retry-after-0": "HTTP 429 Too Many Requests",
        "Hostile: html": "Not an image (text/html)",
        "Hostile: truncated": "Download cut off (connection closed early)",
        "Hostile: corrupt": "Not a readable image",
        "Hostile: empty": "Not a readable image",
        "Hostile: png-bomb": "Image too large (30000 × 30000)",
        "Hostile: jpeg-bomb": "Image too large (60000 × 60000)",
        "Hostile: gif-bomb": "Image too large (30000 × 30000)",
        // Only their first frames are decoded: the rows show them, marked as animations that do not play.
        "Hostile: gif-frames-bomb": "loaded",
        "Hostile: bmp-bomb": "Image too large (30000 × 30000)",
        "Hostile: webp-frames-bomb": "loaded",
        "Hostile: avif-bomb": "Image too large (16000 × 16000)",
        // The size of what they embed, refused in the decoder helper.
        "Hostile: svg-data-bomb": "Image too large (30000 × 30000)",
        "Hostile: svg-nested-bomb": "Image too large (30000 × 30000)",
        // Drawn without what they refer to, or the ICO its loader would decode (off in the helper).
        "Hostile: svg-external": "loaded",
        "Hostile: svg-ico": "loaded",
        "Hostile: huge-body": "Too large (over 50 MB)",
        "Hostile: huge-chunked-body": "Too large (over 50 MB)",
        "Hostile: gzip-bomb": "Too large (over 50 MB)",
        "Hostile: stall": "Timed out (no data for 1 s)",
        "Hostile: drip": "Too slow (under 4 KB/s)",
        "Hostile: octet-stream": "loaded",
        "Hostile: valid": "loaded",
        "Odd URL: Relative path": "loaded",
        "Odd URL: Protocol-relative": "loaded",
        "Odd URL: Data URL": "Not a web address",
        "Odd URL: JavaScript URL": "Not a web address",
        "Odd URL: FTP URL": "Not a web address",
        "Odd URL: Malformed URL": "Not a web address",
        "Odd URL: File URL": "Not a web address",
        "Huge, with a rendition": "loaded",
        // Whatever libsoup says, as long as it is an error row.
        "Hostile: redirect-loop": "", "Hostile: redirect-file": "", "Hostile: reset": "",
    ]

    func testEveryHostileImageEndsInItsErrorRow() throws {
        try MainActor.assumeIsolated {
            let server = HostileServer()
            try server.start()
            let ui = try Self.harness(server)
            defer { ui.close() }
            ui.search(HostileFeed.gallery.rawValue)
            XCTAssertTrue(ui.waitForRows(Self.expectedRows.count))
            XCTAssertEqual(ui.list.rowCount, Self.expectedRows.count)
            // Rows are recycled: each is checked while it is on screen, bound to its item.
            for index in 0..<ui.list.rowCount {
                ui.scroll(toRow: index)
                XCTAssertTrue(ui.waitUntilSettled(index), "row \(index) (\(ui.title(index))) still loading")
                let download = try ui.download(index)
                let row = try ui.row(index)
                guard let expected = Self.expectedRows[download.item.title] else {
                    XCTFail("unexpected row \(download.item.title)")
                    continue
                }
                XCTAssertFalse(row.spinner.isSpinning, download.item.title)
                if expected == "loaded" {
                    XCTAssertEqual(download.state, .loaded, download.item.title)
                    if download.item.title.hasSuffix("frames-bomb") {
                        XCTAssertEqual(row.shownBadge?.text, "Animated, too large to play", download.item.title)
                    }
                    continue
                }
                guard case .failed(let reason) = download.state else {
                    XCTFail("\(download.item.title): \(download.state)")
                    continue
                }
                XCTAssertTrue(reason.hasPrefix(expected) && !reason.isEmpty, "\(download.item.title): \(reason)")
                XCTAssertEqual(row.detailLabel.text, reason)
                XCTAssertEqual(row.thumbnailStack.visibleChildName, "failed")
            }
            // No row waits on the server for ever: the stall and drip rows ended by the client's own limits
            // (their reasons above), and nothing is left in flight.
            XCTAssertTrue(iterateMainLoop(until: { ui.client.fetchesInFlight == 0 }, timeout: 60),
                          "\(ui.client.fetchesInFlight) requests still waiting on the server")
            // The subtitle follows in the window's coalesced status update, an idle after the last change.
            XCTAssertTrue(iterateMainLoop(until: { ui.window.header.bar.subtitle?.contains("still loading") == false },
                                          timeout: 60), ui.window.header.bar.subtitle ?? "")
            XCTAssertFalse(ui.window.header.bar.subtitle?.contains("still loading") ?? true,
                           ui.window.header.bar.subtitle ?? "")
            XCTAssertEqual(ui.pipeline.activeFetchCount, 0, "every connection slot was given back")
        }
    }

    func testHostileFeedsEndInRowsOrAMessage() throws {
        try MainActor.assumeIsolated {
            let server = HostileServer()
            try server.start()
            let ui = try Self.harness(server)
            defer { ui.close() }
            let unreadable = "Demo sent a response the app could not read"
            // Once the retries are used up, no promise of a retry that will not come.
            let slowDown = ("Demo asks to slow down", "Too many requests. Try again later.")
            let messages: [(HostileFeed, (title: String, description: String?))] = [
                (.billionLaughs, (unreadable, nil)), (.truncated, (unreadable, nil)), (.hugeTitle, (unreadable, nil)),
                (.deepNesting, (unreadable, nil)), (.html, (unreadable, nil)),
                (.emptyPages, ("Demo sent only empty pages", "Stopped after 5 pages in a row without any images.")),
                (.rateLimited, slowDown), (.rateLimitedBare, slowDown),
            ]
            for (feed, message) in messages {
                ui.search(feed.rawValue)
                XCTAssertTrue(iterateMainLoop(until: {
                    ui.window.statusPage.titleLabel.text == message.title
                        && (message.description.map { ui.window.statusPage.descriptionLabel.text == $0 } ?? true)
                }, timeout: 60), "\(feed): \(ui.window.statusPage.titleLabel.text) \(ui.window.statusPage.descriptionLabel.text)")
                XCTAssertEqual(ui.list.rowCount, 0)
            }

            ui.search("zeros@hostile.example", source: .mastodon)
            XCTAssertTrue(iterateMainLoop(until: {
                ui.window.statusPage.titleLabel.text == "Mastodon sent a response the app could not read"
            }, timeout: 60), ui.window.statusPage.titleLabel.text)

            ui.search(HostileFeed.selfLoop.rawValue)
            XCTAssertTrue(iterateMainLoop(until: {
                ui.list.footerLabel.text == "Could not load more: Demo kept sending the same pages"
            }, timeout: 60), ui.list.footerLabel.text)
            XCTAssertEqual(ui.list.rowCount, 1, "the page before the loop is shown")

            ui.search(HostileFeed.sameFileNames.rawValue)
            XCTAssertTrue(ui.waitForRows(5), "five images called image.png are five rows")

            ui.search(HostileFeed.controlCharacters.rawValue)
            XCTAssertTrue(ui.waitForRows(2))
            for index in 0..<2 {
                let title = try ui.row(index).titleLabel.text
                XCTAssertTrue(DisplayText.isClean(title), "row \(index): \(title.debugDescription)")
            }

            ui.search(HostileFeed.manyItems.rawValue)
            XCTAssertTrue(ui.waitForRows(1000, timeout: 60), "100,000 items in a reply: the first 1000")
            // Rows come only with a page, appended whole: a feed asking for nothing has no more to add.
            XCTAssertTrue(iterateMainLoop(until: { ui.window.gallery?.feed.isLoading == false }, timeout: 60))
            XCTAssertEqual(ui.list.rowCount, 1000)
        }
    }

    /// The hostile Bluesky and Misskey accounts in the window: messages for what cannot be read or does not
    /// end, "Not a web address" rows for odd schemes, the first 1000 rows of a huge feed.
    func testHostileBlueskyAndMisskeyAccountsEndInRowsOrAMessage() throws {
        try MainActor.assumeIsolated {
            let server = HostileServer()
            try server.start()
            let ui = try Self.harness(server)
            defer { ui.close() }
            for (source, service) in [(SourceKind.bluesky, "Bluesky"), (.misskey, "Misskey")] {
                let user = { (feed: HostileSocialFeed) in source == .bluesky ? feed.blueskyHandle : feed.misskeyAccount }
                let messages: [(HostileSocialFeed, String)] = [
                    (.deepNesting, "\(service) sent a response the app could not read"),
                    (.html, "\(service) sent a response the app could not read"),
                    (.endlessCursor, "\(service) sent only empty pages"),
                    (.rateLimited, "\(service) asks to slow down"),
                ]
                for (feed, title) in messages {
                    ui.search(user(feed), source: source)
                    XCTAssertTrue(iterateMainLoop(until: { ui.window.statusPage.titleLabel.text == title }, timeout: 60),
                                  "\(service) \(feed): \(ui.window.statusPage.titleLabel.text)")
                    XCTAssertEqual(ui.list.rowCount, 0)
                }
                ui.search(user(.oddSchemes), source: source)
                XCTAssertTrue(ui.waitForRows(7), "\(service): \(ui.list.rowCount) rows")
                let rejected = try (0..<7).filter { try ui.download($0).item.mediaURLRejected }
                XCTAssertEqual(rejected.count, 4, service)
                for index in rejected {
                    ui.scroll(toRow: index)
                    XCTAssertTrue(ui.waitUntilSettled(index))
                    XCTAssertEqual(try ui.row(index).detailLabel.text, "Not a web address", "\(service) row \(index)")
                }
                ui.search(user(.manyPosts), source: source)
                XCTAssertTrue(ui.waitForRows(1000, timeout: 60), "\(service): 40,000 images in a reply, the first 1000")
                // Rows come only with a page, appended whole: a feed asking for nothing has no more to add.
                XCTAssertTrue(iterateMainLoop(until: { ui.window.gallery?.feed.isLoading == false }, timeout: 60), service)
                XCTAssertEqual(ui.list.rowCount, 1000, service)
            }
        }
    }

    func testTheLargeViewRefusesBombsAndShowsARenditionOfAHugeImage() throws {
        try MainActor.assumeIsolated {
            let server = HostileServer()
            try server.start()
            let ui = try Self.harness(server)
            defer { ui.close() }
            ui.search(HostileFeed.gallery.rawValue)
            XCTAssertTrue(ui.waitForRows(Self.expectedRows.count))
            let titles = try (0..<ui.list.rowCount).map { try ui.download($0).item.title }
            let view = ui.window.largeView

            let bomb = try XCTUnwrap(titles.firstIndex(of: "Hostile: png-bomb"))
            ui.scroll(toRow: bomb)
            ui.activate(bomb)
            XCTAssertTrue(iterateMainLoop(until: { view.failure != nil }, timeout: 60))
            XCTAssertEqual(view.failure, "Image too large (30000 × 30000)")
            XCTAssertEqual(view.status.messageLabel.text, "The full image could not be loaded: Image too large (30000 × 30000)")
            XCTAssertFalse(view.status.spinner.isSpinning)
            ui.activateAction("back")

            let huge = try XCTUnwrap(titles.firstIndex(of: "Huge, with a rendition"))
            ui.scroll(toRow: huge)
            ui.activate(huge)
            XCTAssertTrue(iterateMainLoop(until: { view.isShowingFullImage }, timeout: 60), view.failure ?? "")
            XCTAssertEqual(view.requestedURL, server.baseURL + "/img/valid?rendition=1920",
                           "the original declares 30000 × 30000: the service's rendition is asked for instead")
            ui.activateAction("back")

            let odd = try XCTUnwrap(titles.firstIndex(of: "Odd URL: JavaScript URL"))
            ui.scroll(toRow: odd)
            ui.activate(odd)
            XCTAssertEqual(view.failure, "Not a web address")
            XCTAssertFalse(view.status.openInBrowserButton.isVisible, "its javascript: link was dropped: nothing to open")
            XCTAssertNil(view.requestedURL, "the previous item's address is gone")
            view.retry()
            XCTAssertEqual(view.failure, "Not a web address", "Retry does not load the previous item's image")
        }
    }

    func testOnlyWebAddressesAreOpened() throws {
        try MainActor.assumeIsolated {
            let server = HostileServer()
            try server.start()
            let ui = try Self.harness(server)
            defer { ui.close() }
            for url in HostileFeed.oddPageLinks {
                ui.window.openInBrowser(url)
                let dialog = try XCTUnwrap(UIHarness.toplevel(ofType: gtk_message_dialog_get_type()), url)
                XCTAssertEqual(ObjectRef(dialog, transfer: .none).string("text"), "Not a web address")
                gtk_widget_destroy(dialog)
            }
        }
    }
}
