import GObjectBindings
import TestSupport
import XCTest
@testable import GalleryCore

/// The followed galleries as OPML: what the export writes for each service, the round trip through a real
/// store, and the lists feed readers write (data/fixtures/opml, in the forms of Thunderbird and GNOME Feeds).
final class FollowOpmlTests: GLibTestCase {
    /// One gallery of every source, with names that need escaping.
    private static let galleries: [FollowedGallery] = [
        FollowedGallery(key: .init(source: .deviantArt, username: "Aurora"), displayName: "Aurora & <Friends>", followedAt: 1),
        FollowedGallery(key: .init(source: .mastodon, username: "alice@example.social"),
                        displayName: "Alice \"A\" O'Neil", followedAt: 2),
        FollowedGallery(key: .init(source: .misskey, username: "bob@misskey.example"), displayName: "ボブ 🎨", followedAt: 3),
        FollowedGallery(key: .init(source: .bluesky, username: "carol.bsky.social"), displayName: "carol.bsky.social", followedAt: 4),
        FollowedGallery(key: .init(source: .bluesky, username: "did:plc:z72i7hdynmk6r22z27h6tvur"), displayName: "Team", followedAt: 5),
        FollowedGallery(key: .init(source: .commons, username: "Some user"), displayName: "Some user", followedAt: 6),
        FollowedGallery(key: .init(source: .demo, username: "atlas"), displayName: "atlas", followedAt: 7),
    ]

    private var galleries: [FollowedGallery] { Self.galleries }

    func testEachServiceGetsItsPublicFeedAndProfilePage() throws {
        let document = FollowOpml.export(galleries, endpointOverride: { _ in nil })
        let outlines = try outlineAttributes(document)
        XCTAssertEqual(outlines.first?["text"], "Gallery Viewer", "the one top outline")
        let feeds = outlines.dropFirst().map { [$0["type"], $0["xmlUrl"], $0["htmlUrl"]] }
        XCTAssertEqual(feeds, [
            ["rss", "https://backend.deviantart.com/rss.xml?type=deviation&q=gallery%3AAurora", "https://www.deviantart.com/Aurora"],
            ["rss", "https://example.social/@alice/media.rss", "https://example.social/@alice"],
            ["rss", "https://misskey.example/@bob.rss", "https://misskey.example/@bob"],
            ["rss", "https://bsky.app/profile/carol.bsky.social/rss", "https://bsky.app/profile/carol.bsky.social"],
            ["rss", "https://bsky.app/profile/did:plc:z72i7hdynmk6r22z27h6tvur/rss",
             "https://bsky.app/profile/did:plc:z72i7hdynmk6r22z27h6tvur"],
            ["rss", "https://commons.wikimedia.org/w/api.php?action=feedcontributions&user=Some%20user&namespace=6&newonly=1&feedformat=atom",
             "https://commons.wikimedia.org/wiki/User:Some_user"],
            // The demo gallery has no address to give without a demo server: a plain outline.
            [nil, nil, nil],
        ])
        XCTAssertTrue(outlines[6]["description"]?.contains("no uploads feed") == true, "Commons' feed is said to be an approximation")
        XCTAssertEqual(outlines.dropFirst().map { $0["gv:source"] }, galleries.map(\.key.source.rawValue))
        XCTAssertEqual(outlines.dropFirst().map { $0["text"] }, galleries.map(\.displayName), "names escaped and read back whole")
        XCTAssertEqual(outlines.dropFirst().map { $0["title"] }, galleries.map(\.displayName))
    }

    func testTheEndpointOverrideMovesTheLinksOfItsSourceOnly() throws {
        let override = "http://127.0.0.1:8080"
        let document = FollowOpml.export(galleries, endpointOverride: { $0 == .mastodon || $0 == .demo ? override : nil })
        let outlines = try outlineAttributes(document)
        XCTAssertEqual(outlines[2]["xmlUrl"], "http://127.0.0.1:8080/@alice/media.rss")
        XCTAssertEqual(outlines[7]["xmlUrl"], "http://127.0.0.1:8080/rss.xml?type=deviation&q=gallery%3Aatlas",
                       "the demo gallery's feed on its server")
        XCTAssertEqual(outlines[7]["type"], "rss")
        XCTAssertEqual(outlines[3]["xmlUrl"], "https://misskey.example/@bob.rss", "another source keeps its own server")
        let bluesky = FollowOpml.export([galleries[3]], endpointOverride: { _ in override })
        XCTAssertEqual(try outlineAttributes(bluesky)[1]["xmlUrl"], "http://127.0.0.1:8080/profile/carol.bsky.social/rss")
    }

    func testRoundTripThroughAnEmptyStoreBringsBackTheSameGalleries() throws {
        try MainActor.assumeIsolated {
            let galleries = Self.galleries
            let document = FollowOpml.export(galleries, endpointOverride: { _ in nil })
            let list = try answer { FollowOpml.parse(Array(document.utf8), completion: $0) }.get()
            XCTAssertEqual(list.galleries, galleries.map { FollowOpml.Entry(key: $0.key, displayName: $0.displayName) })
            XCTAssertEqual(list.fediverseAccounts, [])
            XCTAssertEqual(list.notRecognised, 0)

            let store = FollowStore(directory: TemporaryFolder().path)
            let first = answer { done in FollowOpml.follow(list.galleries, in: store) { done(($0, $1)) } }
            XCTAssertEqual(first.0, FollowOpml.Followed(added: galleries.count, alreadyFollowed: 0))
            XCTAssertNil(first.1)
            let followed = try answer { store.following(completion: $0) }.get()
            XCTAssertEqual(followed.map(\.key), galleries.map(\.key))
            XCTAssertEqual(followed.map(\.displayName), galleries.map(\.displayName))
            // Importing the same list again adds nothing.
            let again = answer { done in FollowOpml.follow(list.galleries, in: store) { done(($0, $1)) } }
            XCTAssertEqual(again.0, FollowOpml.Followed(added: 0, alreadyFollowed: galleries.count))
        }
    }

    /// Another program's copy of our list keeps the feeds but may drop the `gv:` attributes: the feeds alone
    /// still name the galleries (Misskey's `/@USER.rss` is shared with Mastodon, so its server must say).
    func testTheFeedsAloneNameTheGalleries() throws {
        var document = FollowOpml.export(galleries, endpointOverride: { _ in nil })
        document = document.replacing(try Regex(#" gv:[a-z]+="[^"]*""#), with: "")
        XCTAssertFalse(document.contains("gv:source"))
        let list = try FollowOpml.read(Array(document.utf8))
        XCTAssertEqual(list.galleries.map(\.key), galleries.filter { $0.key.source != .misskey && $0.key.source != .demo }.map(\.key))
        XCTAssertEqual(list.fediverseAccounts, [.init(name: "bob", server: "misskey.example")])
        XCTAssertEqual(list.notRecognised, 0, "the demo gallery's plain outline reads as a folder")
    }

    func testThunderbirdsNestedFolders() throws {
        let list = try FollowOpml.read(Fixtures.bytes("opml/thunderbird-nested.opml").array)
        XCTAssertEqual(list.galleries.map(\.key), [
            .init(source: .deviantArt, username: "aurora"),
            .init(source: .mastodon, username: "Gargron@mastodon.social"),
            .init(source: .bluesky, username: "did:plc:z72i7hdynmk6r22z27h6tvur"),
            .init(source: .commons, username: "Example"),
        ])
        XCTAssertEqual(list.galleries.map(\.displayName), list.galleries.map(\.key.username),
                       "a feed's title is not the account's name: the username stands until a check learns it")
        XCTAssertEqual(list.fediverseAccounts, [.init(name: "syuilo", server: "misskey.io")])
        XCTAssertEqual(list.notRecognised, 1, "LWN's feed")
    }

    func testGnomeFeedsFlatList() throws {
        let list = try FollowOpml.read(Fixtures.bytes("opml/gnome-feeds-flat.opml").array)
        XCTAssertEqual(list.galleries.map(\.key), [
            .init(source: .bluesky, username: "alice.bsky.social"),
            .init(source: .deviantArt, username: "atlas"),
            .init(source: .mastodon, username: "gnome@fosstodon.org"),
            // A bridge's feed the app does not know, with the profile page beside it.
            .init(source: .deviantArt, username: "fox"),
        ], "Alice's second spelling is the same account")
        XCTAssertEqual(list.notRecognised, 2, "the blog, and the ftp:// feed")
    }

    func testOurAttributesCountOnlyInOurNamespace() throws {
        let document = """
            <opml version="2.0" xmlns:gv="https://example.org/not-ours"><head/><body>
            <outline text="x" gv:source="deviantart" gv:username="mallory"/>
            <outline text="y" xmlns:v="\(FollowOpml.namespace)" v:source="deviantart" v:username="trudy"/>
            </body></opml>
            """
        let list = try FollowOpml.read(Array(document.utf8))
        XCTAssertEqual(list.galleries, [.init(key: .init(source: .deviantArt, username: "trudy"), displayName: "y")])
    }

    func testParseAnswersOnTheMainLoopAfterItReturns() throws {
        try MainActor.assumeIsolated {
            var outcome: Result<FollowOpml.Import, FollowOpmlError>?
            FollowOpml.parse(Fixtures.bytes("opml/gnome-feeds-flat.opml").array) { outcome = $0 }
            XCTAssertNil(outcome, "the parse runs on a worker")
            XCTAssertTrue(iterateMainLoop(until: { outcome != nil }, timeout: 30))
            XCTAssertEqual(try outcome?.get().galleries.count, 4)
        }
    }

    /// Every `<outline>`'s attributes in document order, as GMarkup reads them back.
    private func outlineAttributes(_ document: String) throws -> [[String: String]] {
        final class Collector: MarkupParserDelegate {
            var outlines: [[String: String]] = []
            func startElement(_ name: String, attributes: [String: String]) throws {
                if name == "outline" { outlines.append(attributes) }
            }
            func endElement(_ name: String) throws {}
            func text(_ text: String) throws {}
        }
        let collector = Collector()
        try MarkupParser.parse(Bytes(document), delegate: collector)
        return collector.outlines
    }
}
