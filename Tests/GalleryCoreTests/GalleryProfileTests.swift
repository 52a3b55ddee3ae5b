import GObjectBindings
import TestSupport
import XCTest
@testable import GalleryCore

/// The owner's public profile (name and avatar) from the replies the sources already ask for, written from
/// the services' docs (data/fixtures): Mastodon's account lookup, Bluesky's getProfile, Misskey's users/show,
/// DeviantArt's author credits.
/// Whatever a server sends there is bounded and cleaned, and only an https avatar is kept.
final class GalleryProfileTests: XCTestCase {
    func testMastodonsAccountLookupCarriesTheProfile() throws {
        let source = try MastodonSource(account: "alice@mastodon.social", endpointOverride: nil)
        let result = try source.parse(reply(Fixtures.text("mastodon/account.json"), url: source.firstRequest().url),
                                      of: source.firstRequest())
        XCTAssertEqual(result.profile, GalleryProfile(
            displayName: "Alice ✿ Draws",
            avatarURL: "https://files.mastodon.social/accounts/avatars/109/876/543/210/987/654/original/0a1b2c3d4e5f6789.png"))
        XCTAssertNotNil(result.next, "the gallery goes on as before")
    }

    func testBlueskysProfileCarriesIt() throws {
        let source = try BlueskySource(actor: "alice.bsky.social", endpointOverride: nil)
        let result = try source.parse(reply(Fixtures.text("bluesky/profile.json"), url: source.firstRequest().url),
                                      of: source.firstRequest())
        XCTAssertEqual(result.profile?.displayName, "Alice ✿ Draws")
        XCTAssertEqual(result.profile?.avatarURL, "https://cdn.bsky.app/img/avatar/plain/did:plc:gmoqedkttnau72v3gujfn4b6/bafkrei6rcksjjbtla4mzuota4wcvcvn4ua3drjdlgfkqwxorpjvuqkeeit@jpeg")
        XCTAssertNotNil(result.next)
    }

    func testMisskeysUserCarriesIt() throws {
        let source = try MisskeySource(account: "alice@misskey.io", endpointOverride: nil)
        let result = try source.parse(reply(Fixtures.text("misskey/users-show.json"), url: source.firstRequest().url),
                                      of: source.firstRequest())
        XCTAssertEqual(result.profile, GalleryProfile(displayName: "Alice ✿ Draws", avatarURL: "https://misskey.io/identicon/9tjzq2vq7o"))
    }

    /// DeviantArt's feed has no channel image, but each item credits its author twice: the name, then the
    /// avatar's URL. The owner's is the one of their own gallery's items; no display name.
    func testDeviantArtsAuthorCreditCarriesTheAvatar() throws {
        let body = Fixtures.bytes("deviantart/gallery-page1.xml")
        let own = try DeviantArtSource(username: "Inkwell", endpointOverride: nil)
        let reply = HTTPResponse(head: HTTPResponseHead(status: 200, reason: "OK", url: own.firstRequest().url,
                                                        mediaType: "application/rss+xml"), body: body)
        XCTAssertEqual(try own.parse(reply, of: own.firstRequest()).profile,
                       GalleryProfile(displayName: nil, avatarURL: "https://a.deviantart.net/avatars/i/n/inkwell.png"))
        let other = try DeviantArtSource(username: "someone-else", endpointOverride: nil)
        XCTAssertNil(try other.parse(reply, of: other.firstRequest()).profile, "another author's avatar is not the owner's")
    }

    func testPagesOfItemsCarryNone() throws {
        let source = try MastodonSource(account: "alice@mastodon.social", endpointOverride: nil)
        let statuses = PageRequest(url: "https://mastodon.social/api/v1/accounts/109876543210987654321/statuses?limit=40",
                                   stage: MastodonSource.Stage.statuses)
        XCTAssertNil(try source.parse(reply(Fixtures.text("mastodon/statuses-page1.json"), url: statuses.url), of: statuses).profile)
    }

    /// Names are cleaned and cut like the store's; avatars that are not absolute https addresses (or carry
    /// credentials, or control characters) are left out; a reply with neither has no profile.
    func testHostileValuesAreBoundedOrLeftOut() throws {
        let endpoint = Endpoint(canonical: "https://mastodon.social")
        let long = String(repeating: "x", count: 10_000)
        let named = GalleryProfile.fromReply(displayName: "\u{202E}Eve\u{1B}[31m\n" + long, avatar: nil, endpoint: endpoint)
        XCTAssertEqual(named?.displayName, DisplayText.clean("Eve [31m " + long, limit: FollowLimits.maxDisplayNameLength))
        XCTAssertFalse(named?.displayName?.contains("\u{1B}") ?? true)
        for avatar in ["http://files.example/a.png", "javascript:alert(1)", "file:///etc/passwd", "/avatars/a.png",
                       "https://user:secret@files.example/a.png", "https://files.example/a\u{1B}[2J.png",
                       "https://files.example/" + long] {
            XCTAssertNil(GalleryProfile.fromReply(displayName: nil, avatar: avatar, endpoint: endpoint), avatar)
        }
        XCTAssertNil(GalleryProfile.fromReply(displayName: "  \u{200F} ", avatar: "", endpoint: endpoint))
        XCTAssertEqual(GalleryProfile.fromReply(displayName: nil, avatar: " https://files.example/a.png\n", endpoint: endpoint),
                       GalleryProfile(displayName: nil, avatarURL: "https://files.example/a.png"))
    }

    /// On an http endpoint (the demo or a test server on 127.0.0.1) its own http avatars are taken, as its
    /// media are.
    func testAnHTTPEndpointTakesHTTPAvatars() throws {
        let local = Endpoint(canonical: "https://mastodon.social", override: "http://127.0.0.1:8080")
        XCTAssertEqual(GalleryProfile.fromReply(displayName: nil, avatar: "http://127.0.0.1:8080/a.png", endpoint: local)?.avatarURL,
                       "http://127.0.0.1:8080/a.png")
    }

    /// A field of the wrong type does not sink the lookup: the gallery goes on without a profile.
    func testAGarbledProfileDoesNotSinkTheGallery() throws {
        let source = try MastodonSource(account: "alice@mastodon.social", endpointOverride: nil)
        let body = #"{"id": "42", "display_name": 7, "avatar": ["https://files.example/a.png"]}"#
        let result = try source.parse(reply(body, url: source.firstRequest().url), of: source.firstRequest())
        XCTAssertNil(result.profile)
        XCTAssertNotNil(result.next)
    }

    private func reply(_ body: String, url: String) -> HTTPResponse {
        HTTPResponse(head: HTTPResponseHead(status: 200, reason: "OK", url: url, mediaType: "application/json"), body: Bytes(body))
    }
}
