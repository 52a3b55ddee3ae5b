import CGLib
import CGtk
import Foundation
import GObjectBindings
@_spi(GtkInterop) import GtkBindings
@testable import GalleryCore
import GalleryDemoServer
import TestSupport
import XCTest
@testable import GalleryUI

/// The large view's details panel in the real window: Alt+Return and the header bar's toggle, every field as
/// each source delivers it (the demo server's DeviantArt, Bluesky and Misskey formats; Mastodon's and
/// Commons' fixtures from a SoupServer), the file's format and size arriving with the image, the picture's
/// accessible description, and hostile values shown as bounded plain text.
final class DetailsPanelTests: GLibTestCase {
    /// What each row shows now: its value, nil for a hidden row.
    @MainActor
    private static func shown(_ view: LargeImageView) -> [DetailsPanel.Field: String] {
        var values: [DetailsPanel.Field: String] = [:]
        for (field, row) in view.details.rows where row.row.isVisible {
            values[field] = field == .page ? view.details.pageLink.uri : row.valueLabel.text
        }
        return values
    }

    @MainActor
    private static func pressAltReturn(_ ui: UIHarness) {
        ui.press(GDK_KEY_Return, GDK_MOD1_MASK)
    }

    @MainActor
    private static func openDetails(_ ui: UIHarness) {
        pressAltReturn(ui)
        let view = ui.window.largeView
        XCTAssertTrue(view.isShowingDetails, "Alt+Return opens the panel")
        XCTAssertTrue(iterateMainLoop(until: { view.details.revealer.isChildRevealed }, timeout: 60), "the panel slid in")
    }

    private static func demoFileSize(_ item: DemoItem) throws -> Int {
        let directory = try XCTUnwrap(DemoGalleryLocation.defaultDataDirectory())
        let path = DemoGalleryLocation.imagesDirectory(in: directory) + "/full/" + item.fileName
        return try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
    }

    // MARK: The demo gallery (DeviantArt's RSS)

    func testAltReturnTogglesTheDetailsOfTheImageShown() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            let view = ui.openPhoto(0)
            let aurora = try XCTUnwrap(ui.server.catalog.user(named: "aurora"))
            XCTAssertFalse(view.isShowingDetails)
            XCTAssertFalse(ui.window.header.detailsButton.isActive)
            XCTAssertTrue(ui.window.header.detailsButton.isVisible)
            XCTAssertEqual(ui.window.header.detailsButton.accessibleName, "Image Details")

            Self.openDetails(ui)
            XCTAssertTrue(ui.window.header.detailsButton.isActive, "the header bar's toggle shows the state")
            let item = aurora.items[0]
            XCTAssertEqual(Self.shown(view), [
                .title: "Aurora over the Harbour", .author: "aurora", .published: DateText.display(item.published)!,
                .imageSize: "4000 × 2667 pixels", .file: "JPEG · " + SizeText.format(try Self.demoFileSize(item)),
                .fileName: item.fileName, .page: ui.server.baseURL + item.pagePath, .description: item.altText!,
            ])
            XCTAssertEqual(view.canvas.area.accessibleDescription, item.altText, "the alt text is the picture's description")
            XCTAssertEqual(view.details.rows[.description]?.row.accessibleName, "Description")
            XCTAssertEqual(view.details.rows[.description]?.row.accessibleDescription, item.altText)
            XCTAssertLessThanOrEqual(view.details.revealer.allocatedWidth, DetailsPanel.width + 40, "a narrow pane")
            XCTAssertGreaterThan(view.container.allocatedWidth, view.details.revealer.allocatedWidth,
                                 "the picture keeps most of the window")

            // The page opens through the window's own check, never GTK's handler.
            var opened: [String] = []
            view.onOpenInBrowser = { opened.append($0) }
            view.details.pageLink.click()
            XCTAssertEqual(opened, [ui.server.baseURL + item.pagePath])

            ui.activateAction("next")
            XCTAssertTrue(view.isShowingDetails, "the panel stays open from image to image")
            XCTAssertTrue(iterateMainLoop(until: { view.isShowingFullImage }, timeout: 60))
            let next = aurora.items[1]
            XCTAssertEqual(Self.shown(view)[.title], next.title)
            XCTAssertEqual(Self.shown(view)[.description], next.altText)
            XCTAssertEqual(Self.shown(view)[.file], "JPEG · " + SizeText.format(try Self.demoFileSize(next)))
            XCTAssertEqual(view.canvas.area.accessibleDescription, next.altText)

            Self.pressAltReturn(ui)
            XCTAssertFalse(view.isShowingDetails, "Alt+Return again closes it")
            XCTAssertFalse(ui.window.header.detailsButton.isActive)
            ui.window.header.detailsButton.click()
            XCTAssertTrue(view.isShowingDetails, "the header bar's toggle opens it too")
            ui.window.header.detailsButton.click()
            XCTAssertFalse(view.isShowingDetails)

            ui.activateAction("back")
            XCTAssertFalse(ui.window.header.detailsButton.isVisible, "the toggle is the large view's")
        }
    }

    /// The file's format and size are known once the download is decoded: the row says "Loading…" until then
    /// and updates by itself; the size in pixels is the feed's until the decode gives the real one.
    func testTheFileRowUpdatesWhenTheImageArrives() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            // The full image is held at the server until the test has read the panel, however long that takes.
            ui.server.holdsResponse = { $0.hasPrefix("/images/aurora-001-") }
            ui.search("aurora")
            XCTAssertTrue(ui.waitForRows(24))
            ui.window.openLargeView(try ui.download(0))
            let view = ui.window.largeView
            Self.openDetails(ui)
            XCTAssertTrue(iterateMainLoop(until: { ui.server.heldResponseCount > 0 }, timeout: 60), "the image asked for")
            XCTAssertFalse(view.isShowingFullImage, "still downloading")
            XCTAssertEqual(Self.shown(view)[.file], "Loading…")
            XCTAssertEqual(Self.shown(view)[.imageSize], "4000 × 2667 pixels", "the feed's size meanwhile")
            ui.server.releaseHeldResponses()
            XCTAssertTrue(iterateMainLoop(until: { view.isShowingFullImage }, timeout: 60))
            let item = try XCTUnwrap(ui.server.catalog.user(named: "aurora")?.items[0])
            XCTAssertEqual(Self.shown(view)[.file], "JPEG · " + SizeText.format(try Self.demoFileSize(item)))
        }
    }

    /// An animation's file row counts its frames, and its description says what moves.
    func testAnAnimationsFileRowCountsItsFrames() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            ui.search("aurora")
            XCTAssertTrue(ui.waitForRows(24))
            let gif = try XCTUnwrap(ui.server.catalog.user(named: "aurora")?.items[17])
            XCTAssertEqual(gif.format.rawValue, "gif")
            ui.window.openLargeView(try ui.download(17))
            let view = ui.window.largeView
            Self.openDetails(ui)
            XCTAssertTrue(iterateMainLoop(until: { view.isShowingFullImage }, timeout: 60))
            XCTAssertEqual(Self.shown(view)[.file], "GIF · \(SizeText.format(try Self.demoFileSize(gif))) · \(gif.frames) frames")
            XCTAssertTrue(Self.shown(view)[.description]?.contains("A glowing light circles over it.") == true)
        }
    }

    /// A failed image says why in the file row; a hidden sensitive picture's description is neither shown nor
    /// read out (it would describe what is hidden); an untitled item without a description has no such row.
    func testFailuresHiddenPicturesAndMissingDescriptions() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            ui.search("aurora")
            XCTAssertTrue(ui.waitForRows(24))
            let view = ui.window.largeView
            ui.window.openLargeView(try ui.download(5))  // Missing Lighthouse: 404
            Self.openDetails(ui)
            XCTAssertTrue(iterateMainLoop(until: { view.failure != nil }, timeout: 60))
            XCTAssertEqual(Self.shown(view)[.file], "Not loaded: HTTP 404 Not Found")

            ui.window.openLargeView(try ui.download(8))  // Late Night Study: adult, hidden
            XCTAssertEqual(try ui.download(8).state, .sensitiveHidden)
            XCTAssertEqual(Self.shown(view)[.title], "Late Night Study")
            XCTAssertNil(Self.shown(view)[.description])
            XCTAssertEqual(view.canvas.area.accessibleDescription, "")

            ui.window.openLargeView(try ui.download(2))  // untitled
            XCTAssertTrue(iterateMainLoop(until: { view.isShowingFullImage }, timeout: 60))
            XCTAssertNil(Self.shown(view)[.description])
            XCTAssertEqual(view.canvas.area.accessibleDescription, "")
            XCTAssertEqual(Self.shown(view)[.title], try ui.download(2).item.fileName, "the file name stands in for a title")
        }
    }

    // MARK: The social formats on the demo server

    func testBlueskyAndMisskeyAltTextsAndDates() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness(endpoints: [.bluesky: UIHarness.demoServerEndpoint, .misskey: UIHarness.demoServerEndpoint])
            defer { ui.close() }
            let aurora = try XCTUnwrap(ui.server.catalog.user(named: "aurora"))
            let post = try XCTUnwrap(DemoPosts.posts(of: aurora).first)
            let item = post.items[0]
            for (source, user) in [(SourceKind.bluesky, DemoBluesky.handle(of: "aurora")), (.misskey, "aurora@demo.test")] {
                ui.search(user, source: source)
                XCTAssertTrue(ui.waitForRows(2), "\(source)")
                ui.window.openLargeView(try ui.download(0))
                let view = ui.window.largeView
                if !view.isShowingDetails { Self.openDetails(ui) }
                XCTAssertTrue(iterateMainLoop(until: { view.isShowingFullImage }, timeout: 60), "\(source)")
                let shown = Self.shown(view)
                XCTAssertEqual(shown[.description], item.altText, "\(source): Bluesky's alt, Misskey's comment")
                XCTAssertEqual(view.canvas.area.accessibleDescription, item.altText)
                XCTAssertEqual(shown[.published], DateText.display(post.published), "\(source): the post's date")
                XCTAssertEqual(shown[.imageSize], "\(item.width) × \(item.height) pixels")
                XCTAssertEqual(shown[.file], "JPEG · " + SizeText.format(try Self.demoFileSize(item)))
                XCTAssertTrue(shown[.page]?.hasPrefix("https://") == true, "\(source): \(shown[.page] ?? "no page")")
                XCTAssertEqual(shown[.author], try ui.download(0).item.author)
                ui.activateAction("back")
            }
        }
    }

    // MARK: Mastodon's and Commons' fixtures

    func testMastodonAndCommonsDescriptionsFromTheirFixtures() throws {
        try MainActor.assumeIsolated {
            let server = try ServiceFixtureTests.makeServer()
            let png = try Pixbuf.filled(width: 320, height: 200, rgba: 0x3584e4ff).encoded(as: "png").array
            let account = Fixtures.text("mastodon/account.json")
            let statuses = ServiceFixtureTests.fixture("mastodon/statuses-page1.json", server: server)
            server.route("/api/v1/accounts/lookup") { _ in .text(account, contentType: "application/json") }
            server.route("/api/v1/accounts/109876543210987654321/statuses") { _ in .text(statuses, contentType: "application/json") }
            let commons = ServiceFixtureTests.fixture("commons/page1.json", server: server)
            let end = Fixtures.text("commons/empty.json")
            server.route(CommonsSource.apiPath) { request in
                .text(request.query["gaicontinue"] == nil ? commons : end, contentType: "application/json")
            }
            let ui = try UIHarness(endpoints: [.mastodon: server.baseURL, .commons: server.baseURL])
            defer { ui.close() }
            let view = ui.window.largeView

            ui.search("alice@mastodon.social", source: .mastodon)
            XCTAssertTrue(ui.waitForRows(2))
            ui.window.openLargeView(try ui.download(0))
            Self.openDetails(ui)
            XCTAssertTrue(iterateMainLoop(until: { view.isShowingFullImage }, timeout: 60))
            let description = "Fishing boats at dawn, drawn in ink — Hafen von Kiel, 夜明け\nSecond line with more detail."
            XCTAssertEqual(Self.shown(view), [
                .title: "Fishing boats at dawn, drawn in ink — Hafen von Kiel, 夜明け", .author: "alice",
                .published: DateText.display(1_714_641_342)!, .imageSize: "320 × 200 pixels",
                .file: "PNG · " + SizeText.format(png.count), .fileName: "5f3a9c1be2d47a60.jpeg",
                .page: "https://mastodon.social/@alice/112345678901234567890", .description: description,
            ], "the decoded size, and the format the bytes have (the test server sends a PNG for a .jpeg)")
            XCTAssertEqual(view.canvas.area.accessibleDescription, description)
            ui.activateAction("next")
            XCTAssertEqual(Self.shown(view)[.description], "A <b>bold</b> claim & a \"quote\" — 🐟", "markup stays text")
            ui.activateAction("back")

            ui.search("Müller", source: .commons)
            XCTAssertTrue(ui.waitForRows(4))
            let sunset = try XCTUnwrap(try (0..<4).first { try ui.download($0).item.id == "1001" })
            ui.window.openLargeView(try ui.download(sunset))
            XCTAssertTrue(view.isShowingDetails)
            XCTAssertEqual(Self.shown(view)[.description],
                           "Sunset over the lake Müritz, seen from the harbour of Waren.\nTaken with a tripod & a 10 s exposure.",
                           "extmetadata's HTML as plain text")
            XCTAssertEqual(Self.shown(view)[.author], "Müller")
            XCTAssertEqual(Self.shown(view)[.published], DateText.display(1_710_094_925))
            XCTAssertEqual(Self.shown(view)[.page], "https://commons.wikimedia.org/wiki/File:Sunset_%C3%BCber_dem_M%C3%BCritz_See.jpg")
        }
    }

    // MARK: Hostile values

    /// A server's huge, markup-laden, right-to-left and control-character texts: shown as the cleaned, bounded
    /// plain text the item keeps, in a pane that stays narrow; links that are not web addresses, or are absurdly
    /// long, are not shown.
    func testHostileValuesAreShownAsBoundedPlainText() throws {
        try MainActor.assumeIsolated {
            let server = try ServiceFixtureTests.makeServer()
            let hostileText = "\u{202E}gpj.exe <b>bold</b> <i>& &amp; <span foreground=\"red\">markup</span></i> \u{1B}[31mred\u{07}"
                + " نص عربي من اليمين " + String(repeating: "W", count: 100_000)
            let base = server.baseURL
            func status(_ id: String, url: String, description: String) -> [String: Any] {
                ["id": id, "created_at": "2024-05-02T09:15:42.000Z", "sensitive": false, "spoiler_text": "",
                 "url": url, "uri": url, "content": "", "account": ["id": "1", "acct": "mallory\u{202E}txt.exe\u{1B}[2J<b>"],
                 "media_attachments": [["id": "m" + id, "type": "image", "url": base + "/media/h\(id).png",
                                        "preview_url": base + "/media/h\(id)-small.png", "description": description]]]
            }
            let statuses: [[String: Any]] = [
                status("1", url: "https://evil.example/@mallory/" + String(repeating: "a", count: 2000), description: hostileText),
                status("2", url: "javascript:alert(1)", description: "plain"),
                status("3", url: "https://evil.example/" + String(repeating: "b", count: DetailsPanel.maxLinkLength), description: ""),
            ]
            let body = String(decoding: try JSONSerialization.data(withJSONObject: statuses), as: UTF8.self)
            server.route("/api/v1/accounts/lookup") { _ in .text(#"{"id":"1"}"#, contentType: "application/json") }
            server.route("/api/v1/accounts/1/statuses") { _ in .text(body, contentType: "application/json") }
            let ui = try UIHarness(endpoints: [.mastodon: server.baseURL])
            defer { ui.close() }
            let windowWidth = ui.window.window.allocatedWidth
            ui.search("mallory@evil.example", source: .mastodon)
            XCTAssertTrue(ui.waitForRows(3))
            ui.window.openLargeView(try ui.download(0))
            let view = ui.window.largeView
            Self.openDetails(ui)
            XCTAssertTrue(iterateMainLoop(until: { view.isShowingFullImage }, timeout: 60))
            ui.settleLayout()

            let item = try ui.download(0).item
            let shown = Self.shown(view)
            let description = try XCTUnwrap(shown[.description])
            XCTAssertEqual(description, item.altText, "the item's own bounded, cleaned text")
            XCTAssertLessThanOrEqual(description.count, GalleryItem.maxAltTextLength + 1)
            XCTAssertTrue(description.hasPrefix("gpj.exe <b>bold</b> <i>& &amp; <span foreground=\"red\">markup</span></i>"),
                          "markup is shown as text, never interpreted: \(description.prefix(80))")
            XCTAssertTrue(description.contains("نص عربي من اليمين"))
            for control in ["\u{202E}", "\u{1B}", "\u{07}"] {
                XCTAssertFalse(description.contains(control))
                XCTAssertFalse(shown[.author]?.contains(control) ?? true)
                XCTAssertFalse(view.canvas.area.accessibleDescription?.contains(control) ?? true)
            }
            XCTAssertTrue(shown[.author]?.hasPrefix("mallory") == true)
            XCTAssertEqual(view.canvas.area.accessibleDescription, item.altText)
            XCTAssertEqual(shown[.page]?.count, item.pageURL?.count, "a long link is shown (shortened in the middle)")
            XCTAssertLessThanOrEqual(view.details.revealer.allocatedWidth, DetailsPanel.width + 40,
                                     "neither a 100,000-letter word nor a long link widens the pane")
            XCTAssertEqual(ui.window.window.allocatedWidth, windowWidth, "nor the window")

            ui.activateAction("next")
            XCTAssertNil(try ui.download(1).item.pageURL, "the source dropped the javascript: link")
            XCTAssertNil(Self.shown(view)[.page], "no link row without a web address")
            ui.activateAction("next")
            XCTAssertNil(Self.shown(view)[.page], "a link longer than any real page's is not shown")
            XCTAssertNil(Self.shown(view)[.description], "an empty description is none")

            // Whatever reaches the panel, only web addresses become links.
            for odd in ["javascript:alert(1)", "file:///etc/passwd", "smb://host/share", "data:text/html,x", "/relative"] {
                view.details.show(ItemDetails(title: "Odd", pageURL: odd))
                XCTAssertNil(Self.shown(view)[.page], odd)
                XCTAssertEqual(view.details.pageLink.uri, "", odd)
            }
        }
    }
}
