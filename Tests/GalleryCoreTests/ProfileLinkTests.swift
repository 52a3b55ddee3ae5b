import TestSupport
import XCTest
@testable import GalleryCore

/// Profile links as browsers copy them, read into a source and a username (or a server to ask).
final class ProfileLinkTests: GLibTestCase {
    private func profile(_ text: String) -> ProfileLink? {
        if case .link(let link) = ProfileLink.read(text) { link } else { nil }
    }

    private func reason(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> String? {
        guard case .unusable(.unusableLink(let reason)) = ProfileLink.read(text) else {
            XCTFail("\(text) was read as \(ProfileLink.read(text))", file: file, line: line)
            return nil
        }
        return reason
    }

    func testDeviantArtLinks() {
        for text in ["https://www.deviantart.com/inkwell", "https://www.deviantart.com/inkwell/gallery",
                     "https://www.deviantart.com/inkwell/gallery/all", "https://www.deviantart.com/inkwell/gallery/87654/sketches",
                     "https://www.deviantart.com/inkwell/art/Harbour-at-Dusk-1012345678", "http://deviantart.com/inkwell/",
                     "https://WWW.DeviantArt.com/inkwell?view=mature#top", "https://inkwell.deviantart.com/",
                     "https://inkwell.deviantart.com/gallery/", "  https://www.deviantart.com/inkwell  "] {
            XCTAssertEqual(profile(text), .profile(.deviantArt, username: "inkwell"), text)
        }
        XCTAssertNotNil(reason("https://www.deviantart.com/"))
        XCTAssertNotNil(reason("https://www.deviantart.com/search?q=harbour"))
        XCTAssertNotNil(reason("https://www.deviantart.com/daily-deviations"))
        XCTAssertNotNil(reason("https://backend.deviantart.com/rss.xml?q=gallery:inkwell"))
        XCTAssertEqual(reason("https://www.deviantart.com/tag/harbour"),
                       "This DeviantArt link is not a profile; profile links look like https://www.deviantart.com/NAME.")
    }

    func testMastodonAndMisskeyLinksNameAServerToAsk() {
        XCTAssertEqual(profile("https://mastodon.social/@alice"), .fediverse(name: "alice", server: "mastodon.social"))
        XCTAssertEqual(profile("https://Misskey.IO/@alice_2"), .fediverse(name: "alice_2", server: "misskey.io"))
        XCTAssertEqual(profile("https://mastodon.social/@alice/media"), .fediverse(name: "alice", server: "mastodon.social"))
        XCTAssertEqual(profile("https://mastodon.social/@alice/112233445566"), .fediverse(name: "alice", server: "mastodon.social"))
        XCTAssertEqual(profile("http://127.0.0.1:8080/@alice"), .fediverse(name: "alice", server: "127.0.0.1:8080"))
        // A remote account shown on another server: its own server is the one asked.
        XCTAssertEqual(profile("https://mastodon.social/@bob@misskey.io"), .fediverse(name: "bob", server: "misskey.io"))
        XCTAssertEqual(profile("@alice@Mastodon.Social"), .fediverse(name: "alice", server: "mastodon.social"))
        // "alice@server" is a username of the chosen source (Mastodon's, Misskey's), as typed before links.
        XCTAssertEqual(ProfileLink.read("alice@mastodon.social"), .username)
        XCTAssertEqual(ProfileLink.read("@alice"), .username)
        XCTAssertNotNil(reason("https://mastodon.social/@"))
        XCTAssertNotNil(reason("https://mastodon.social/@alice@"))
        XCTAssertNotNil(reason("https://mastodon.social/users/alice"))
    }

    func testBlueskyLinksAndATURIs() {
        XCTAssertEqual(profile("https://bsky.app/profile/alice.bsky.social"), .profile(.bluesky, username: "alice.bsky.social"))
        XCTAssertEqual(profile("https://bsky.app/profile/alice.bsky.social/post/3kabc"), .profile(.bluesky, username: "alice.bsky.social"))
        XCTAssertEqual(profile("https://bsky.app/profile/did:plc:ewvi7nxzyoun6zhxrhs64oiz"),
                       .profile(.bluesky, username: "did:plc:ewvi7nxzyoun6zhxrhs64oiz"))
        XCTAssertEqual(profile("https://bsky.app/profile/did%3Aplc%3Aewvi7nxzyoun6zhxrhs64oiz"),
                       .profile(.bluesky, username: "did:plc:ewvi7nxzyoun6zhxrhs64oiz"))
        XCTAssertEqual(profile("at://alice.bsky.social"), .profile(.bluesky, username: "alice.bsky.social"))
        XCTAssertEqual(profile("at://did:plc:ewvi7nxzyoun6zhxrhs64oiz/app.bsky.feed.post/3kabc"),
                       .profile(.bluesky, username: "did:plc:ewvi7nxzyoun6zhxrhs64oiz"))
        XCTAssertEqual(profile("AT://did:web:example.com"), .profile(.bluesky, username: "did:web:example.com"))
        XCTAssertNotNil(reason("https://bsky.app/"))
        XCTAssertNotNil(reason("https://bsky.app/search?q=x"))
        XCTAssertNotNil(reason("at://"))
        XCTAssertNotNil(reason("at://%ZZ"))
        // A DID typed as itself is a username of the Bluesky source, not a link.
        XCTAssertEqual(ProfileLink.read("did:plc:ewvi7nxzyoun6zhxrhs64oiz"), .username)
    }

    func testCommonsLinksWithEncodedNames() {
        let cases: [(String, String)] = [
            ("https://commons.wikimedia.org/wiki/User:M%C3%BCller", "Müller"),
            ("https://commons.wikimedia.org/wiki/User:Jane_Doe", "Jane_Doe"),
            ("https://commons.wikimedia.org/wiki/User:Jane_Doe/Gallery", "Jane_Doe"),
            ("https://commons.m.wikimedia.org/wiki/user:Jane_Doe", "Jane_Doe"),
            ("https://commons.wikimedia.org/wiki/Special:ListFiles/Jane_Doe", "Jane_Doe"),
            ("https://commons.wikimedia.org/wiki/Special:ListFiles/%D0%90%D0%BD%D0%BD%D0%B0", "Анна"),
            ("https://commons.wikimedia.org/wiki/Special:ListFiles?user=Jane+Doe&ilshowall=1", "Jane Doe"),
            ("https://commons.wikimedia.org/w/index.php?title=Special:ListFiles&user=M%C3%BCller", "Müller"),
            ("https://commons.wikimedia.org/w/index.php?title=User:Jane_Doe&action=history", "Jane_Doe"),
        ]
        for (text, name) in cases {
            XCTAssertEqual(profile(text), .profile(.commons, username: name), text)
        }
        XCTAssertNotNil(reason("https://commons.wikimedia.org/wiki/File:Sunset.jpg"))
        XCTAssertNotNil(reason("https://commons.wikimedia.org/wiki/Special:ListFiles"))
        XCTAssertNotNil(reason("https://commons.wikimedia.org/wiki/Main_Page"))
        XCTAssertNotNil(reason("https://commons.wikimedia.org/wiki/User:"))
    }

    func testLinksTheAppCannotUseSayWhatItUnderstands() throws {
        let other = try XCTUnwrap(reason("https://example.com/gallery/alice"))
        XCTAssertEqual(other, "This link goes to example.com, which is not a profile page the app knows.")
        let message = GalleryError.unusableLink(reason: other)
        XCTAssertEqual(message.title, "Not a profile link the app can use")
        for form in ["https://www.deviantart.com/NAME", "https://SERVER/@NAME", "https://bsky.app/profile/HANDLE",
                     "https://commons.wikimedia.org/wiki/User:NAME"] {
            XCTAssertTrue(message.explanation.contains(form), form)
        }
        // Only absolute web links: other schemes, and links whose scheme was left out.
        for text in ["ftp://www.deviantart.com/inkwell", "file:///home/alice/@alice", "javascript://x/%0Aalert(1)",
                     "https:///@alice", "http://[::1/@alice"] {
            XCTAssertEqual(reason(text), "Only web links (http:// and https://) are read.", text)
        }
        XCTAssertEqual(reason("www.deviantart.com/inkwell"), "Paste the whole link, starting with https://.")
        XCTAssertEqual(reason("bsky.app/profile/alice.bsky.social"), "Paste the whole link, starting with https://.")
        XCTAssertEqual(reason("https://x.example/" + String(repeating: "a", count: 3000)), "The link is too long.")
        // Plain usernames stay usernames.
        for name in ["inkwell", "Jane Doe", "Müller", "alice.bsky.social", "", "   "] {
            XCTAssertEqual(ProfileLink.read(name), .username, name)
        }
    }

    func testADeclaredSourceReadsFediverseLinksAndRefusesOtherServices() throws {
        let fediverse = ProfileLink.fediverse(name: "alice", server: "example.social")
        XCTAssertNil(fediverse.target(declared: nil), "without a source, the server is asked")
        XCTAssertEqual(try fediverse.target(declared: .misskey)?.get().source, .misskey)
        XCTAssertEqual(try fediverse.target(declared: .mastodon)?.get().username, "alice@example.social")
        guard case .failure(.unusableLink)? = fediverse.target(declared: .bluesky) else { return XCTFail() }

        let deviantArt = ProfileLink.profile(.deviantArt, username: "inkwell")
        XCTAssertEqual(try deviantArt.target(declared: nil)?.get().source, .deviantArt)
        XCTAssertEqual(try deviantArt.target(declared: .demo)?.get().source, .demo, "the demo speaks DeviantArt's feed")
        guard case .failure(.unusableLink(let reason))? = deviantArt.target(declared: .commons) else { return XCTFail() }
        XCTAssertEqual(reason, "This is a DeviantArt link, not one of Wikimedia Commons.")
    }
}
