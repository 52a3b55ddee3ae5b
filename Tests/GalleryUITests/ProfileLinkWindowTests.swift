import CGLib
import CGtk
import GObjectBindings
import GtkBindings
@testable import GalleryCore
import GalleryDemoServer
import TestSupport
import XCTest
@testable import GalleryUI

/// Profile links pasted into the real window's username entry: the link picks the source (its server asked
/// what it runs, for a `/@NAME` link) and the gallery shows, under G_DEBUG=fatal-criticals.
final class ProfileLinkWindowTests: GLibTestCase {
    /// Puts `text` on the clipboard and presses Ctrl+V in the username entry, as a user pastes.
    @MainActor
    private static func paste(_ text: String, into ui: UIHarness) {
        let before = ui.window.header.usernameEntry.text
        let clipboard = gtk_clipboard_get(gdk_atom_intern("CLIPBOARD", 0))
        gtk_clipboard_set_text(clipboard, text, -1)
        ui.window.header.usernameEntry.focusAndSelectAll()
        ui.press(GDK_KEY_v, GDK_CONTROL_MASK)
        XCTAssertTrue(iterateMainLoop(until: { ui.window.header.usernameEntry.text != before }, timeout: 60), "nothing was pasted")
    }

    func testPastingADeviantArtLinkSwitchesTheSourceAndShowsTheGallery() throws {
        try MainActor.assumeIsolated {
            // The demo server speaks DeviantArt's feed: the DeviantArt source pointed at it.
            let harness = try UIHarness(endpoints: [.deviantArt: UIHarness.demoServerEndpoint])
            defer { harness.close() }
            // Over a longer name, selected (Ctrl+L) and replaced by the paste.
            harness.window.search(source: .commons, username: "Someone with a much longer name than the link has")
            Self.paste("https://www.deviantart.com/aurora", into: harness)
            XCTAssertEqual(harness.window.header.selectedSource, .deviantArt, "the link picked the source")
            XCTAssertTrue(harness.waitForRows(24), "searched at once, without Enter")
            XCTAssertEqual(harness.window.header.usernameEntry.text, "aurora", "the entry shows whose gallery it is")
            XCTAssertEqual(harness.window.gallery?.source.kind, .deviantArt)
            XCTAssertEqual(try XCTUnwrap(harness.list.download(at: 0)).item.title, "Aurora over the Harbour")
        }
    }

    func testAServerLinkIsAskedWhatItRunsThenSearched() throws {
        try MainActor.assumeIsolated {
            let server = try TestHTTPServer()
            server.route("/.well-known/nodeinfo") { _ in
                .text(NodeInfoFixture.discovery([("2.0", "https://mastodon.example/nodeinfo/2.0")]),
                      contentType: "application/json")
            }
            server.route("/nodeinfo/2.0") { _ in
                .text(NodeInfoFixture.document(software: "mastodon", version: "2.0"), contentType: "application/json")
            }
            let account = Fixtures.text("mastodon/account.json")
            let statuses = Fixtures.text("mastodon/statuses-page3.json")
            server.route("/api/v1/accounts/lookup") { request in
                XCTAssertEqual(request.query["acct"], "alice")
                return .text(account, contentType: "application/json")
            }
            server.route("/api/v1/accounts/109876543210987654321/statuses") { _ in
                .text(statuses, contentType: "application/json")
            }
            let ui = try UIHarness(endpoints: [.mastodon: server.baseURL, .misskey: "http://127.0.0.1:9"],
                                   serverLookupOrigin: server.baseURL)
            defer { ui.close() }
            Self.paste("https://mastodon.example/@alice", into: ui)
            XCTAssertTrue(iterateMainLoop(until: { ui.window.header.selectedSource == .mastodon }, timeout: 60),
                          "NodeInfo said mastodon: \(ui.window.statusPage.titleLabel.text)")
            XCTAssertEqual(ui.window.header.usernameEntry.text, "alice@mastodon.example")
            XCTAssertTrue(ui.waitForRows(1))
            XCTAssertEqual(Array(server.requestLog.prefix(3)),
                           ["/.well-known/nodeinfo", "/nodeinfo/2.0", "/api/v1/accounts/lookup?acct=alice"])
        }
    }

    func testALinkTheAppCannotUseSaysWhatItUnderstands() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            ui.window.header.selectedSource = .demo
            Self.paste("https://example.com/photos/alice", into: ui)
            XCTAssertEqual(ui.window.statusPage.titleLabel.text, "Not a profile link the app can use")
            XCTAssertTrue(ui.window.statusPage.descriptionLabel.text.contains("https://bsky.app/profile/HANDLE"))
            XCTAssertEqual(ui.window.header.selectedSource, .demo, "the source stays")
            XCTAssertEqual(ui.window.header.usernameEntry.text, "https://example.com/photos/alice", "the link stays to be fixed")
            XCTAssertNil(ui.window.gallery)
        }
    }

    func testWhatAChangePutInIsToldFromTyping() {
        XCTAssertEqual(SearchInput.insertedLength(from: "auror", to: "aurora"), 1, "a key typed at the end")
        XCTAssertEqual(SearchInput.insertedLength(from: "aurora", to: "auroa"), 0, "a key deleted")
        XCTAssertEqual(SearchInput.insertedLength(from: "aur", to: "aubr"), 1, "a key typed in the middle")
        XCTAssertEqual(SearchInput.insertedLength(from: "", to: "https://bsky.app/profile/a.b"), 28, "a paste")
        XCTAssertEqual(SearchInput.insertedLength(from: "a much longer name", to: "https://x.y/@a"), 14,
                       "a shorter paste over a selection")
        XCTAssertEqual(SearchInput.insertedLength(from: "aaaa", to: "aaaaa"), 1, "repeated letters")
    }

    func testALinkTypedLetterByLetterWaitsForEnter() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness(endpoints: [.deviantArt: "http://127.0.0.1:9"])
            defer { ui.close() }
            let entry = ui.window.header.usernameEntry
            ui.window.header.selectedSource = .demo
            entry.focusAndSelectAll()
            for character in "https://www.deviantart.com/aurora" {
                entry.text += String(character)
            }
            XCTAssertEqual(ui.window.header.selectedSource, .demo, "no search while typing")
            XCTAssertNil(ui.window.gallery)
            entry.activate()  // Enter
            XCTAssertEqual(ui.window.header.selectedSource, .deviantArt)
            XCTAssertEqual(ui.window.gallery?.source.username, "aurora")
        }
    }
}
