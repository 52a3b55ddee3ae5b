import CGLib
import CGtk
import GObjectBindings
import GtkBindings
import GalleryCore
import GalleryDemoServer
import TestSupport
import XCTest
@testable import GalleryUI

/// Changing the source and the username while a gallery is still loading (the header bar's controls, as a
/// user would), under G_DEBUG=fatal-criticals with every GLib warning failing the test.
final class SourceSwitchingTests: GLibTestCase {
    func testSwitchingSourceAndUsernameMidLoad() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            // Held at the server, so they are still on their way when the source changes, whatever the load.
            ui.server.holdsResponse = { $0.hasPrefix("/thumbs/") }
            let header = ui.window.header
            header.selectedSource = .demo
            header.usernameEntry.text = "aurora"
            header.usernameEntry.activate()  // Enter
            XCTAssertTrue(ui.waitForRows(24))
            XCTAssertTrue(iterateMainLoop(until: { ui.server.heldResponseCount > 0 }, timeout: 60), "thumbnails asked for")
            let aurora = try XCTUnwrap(ui.window.gallery)
            XCTAssertGreaterThan(aurora.loadingCount, 0, "thumbnails still on their way")

            // The source changes with a username typed: that name is looked up on the new source at once.
            header.selectedSource = .mastodon
            XCTAssertTrue(aurora.isCancelled)
            XCTAssertEqual(aurora.loadingCount, 0)
            ui.server.holdsResponse = nil
            ui.server.releaseHeldResponses()  // answers to requests given up
            XCTAssertEqual(ui.window.statusPage.titleLabel.text, "Not a valid username", "Mastodon wants user@server")
            XCTAssertFalse(ui.window.statusPage.retryButton.isVisible, "retrying cannot fix a username")
            XCTAssertEqual(header.usernameEntry.placeholder, "user@instance")

            // A full address; the harness points Mastodon at a closed local port.
            header.usernameEntry.text = "alice@mastodon.example"
            header.usernameEntry.activate()  // Enter
            XCTAssertTrue(iterateMainLoop(until: { ui.window.statusPage.titleLabel.text == "Could not connect" }, timeout: 60))
            XCTAssertTrue(ui.window.statusPage.retryButton.isVisible, "a network failure may pass: Try Again")
            ui.window.statusPage.retryButton.click()
            XCTAssertEqual(ui.window.statusPage.titleLabel.text, "Loading alice@mastodon.example’s gallery…")
            XCTAssertTrue(iterateMainLoop(until: { ui.window.statusPage.titleLabel.text == "Could not connect" }, timeout: 60),
                          "tried again (and failed again: nothing listens there)")

            // Back to the demo, a different user, and straight on to another one while the first loads.
            header.selectedSource = .demo
            header.usernameEntry.text = "atlas"
            header.usernameEntry.activate()  // Enter
            let atlas = try XCTUnwrap(ui.window.gallery)
            header.usernameEntry.text = "aurora"
            header.usernameEntry.activate()  // Enter
            XCTAssertTrue(atlas.isCancelled)
            XCTAssertTrue(ui.waitForRows(24))
            XCTAssertEqual(try ui.download(0).item.author, "aurora")
            XCTAssertTrue(atlas.downloads.isEmpty, "the cancelled gallery never received its page")
            // The subtitle follows the counts once per batch of changes (an idle before the next frame), so it
            // is waited for, not read the moment the last thumbnail arrived.
            XCTAssertTrue(iterateMainLoop(until: { ui.window.header.bar.subtitle?.hasPrefix("24 images") == true }, timeout: 60),
                          ui.window.header.bar.subtitle ?? "no subtitle")
        }
    }

    func testRevealingSensitiveItems() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            ui.search("aurora")
            XCTAssertTrue(ui.waitForRows(24))
            let adult = 8  // "Late Night Study", rated adult
            ui.scroll(toRow: adult)
            XCTAssertEqual(try ui.download(adult).state, .sensitiveHidden)
            XCTAssertEqual(try ui.row(adult).thumbnailStack.visibleChildName, "sensitive")
            XCTAssertFalse(ui.thumbnailRequests().contains { $0.contains("late-night-study") }, "nothing downloaded")
            XCTAssertEqual(try ui.download(adult).attempts, 0, "nor asked for")

            try ui.row(adult).revealButton.click()
            XCTAssertTrue(try iterateMainLoop(until: { try ui.download(adult).state == .loaded }, timeout: 60))
            ui.scroll(toRow: 23)  // brings the second page, with the other adult item
            XCTAssertTrue(iterateMainLoop(until: { ui.list.rowCount == 48 }, timeout: 60))
            XCTAssertEqual(try ui.download(30).state, .sensitiveHidden, "one click reveals one item")

            ui.window.setShowSensitive(true)  // the menu's "Show Sensitive Content"
            XCTAssertNotEqual(try ui.download(30).state, .sensitiveHidden)
        }
    }
}
