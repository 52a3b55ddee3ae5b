import FoundationEssentials
import GObjectBindings
import TestSupport
import XCTest
@testable import GalleryCore

/// BlueskySource without a network: handles and DIDs, the requests built from them, statuses and replies
/// written from the lexicons (data/fixtures/bluesky).
final class BlueskySourceTests: GLibTestCase {
    // MARK: - Handles and DIDs

    func testHandlesAndDIDsAreAccepted() throws {
        let accepted = [
            "alice.bsky.social": "alice.bsky.social", "@Alice.BSKY.Social ": "alice.bsky.social",
            "xn--ls8h.test": "xn--ls8h.test", "a.co": "a.co", "jay.bsky.team": "jay.bsky.team",
            "did:plc:ewvi7nxzyoun6zhxrhs64oiz": "did:plc:ewvi7nxzyoun6zhxrhs64oiz",
            "did:web:example.com": "did:web:example.com", "did:web:localhost.test%3A8080": "did:web:localhost.test%3A8080",
        ]
        for (typed, kept) in accepted {
            XCTAssertEqual(try BlueskySource(actor: typed, endpointOverride: nil).username, kept, typed)
        }
    }

    func testBrokenOrHostileNamesAreRefused() {
        let refused = [
            "", "@", "alice", "alice.", ".alice.bsky.social", "alice..bsky.social", "-alice.bsky.social",
            "alice-.bsky.social", "alice.bsky.123", "al ice.bsky.social", "alice.bsky.social/x", "alice.bsky.social?x=1",
            "alice.bsky.social#x", "alice@bsky.social", "ålice.bsky.social", "alice_b.bsky.social",
            String(repeating: "a", count: 64) + ".bsky.social", String(repeating: "a.", count: 127) + "com",
            "did:plc:short", "did:plc:EWVI7NXZYOUN6ZHXRHS64OIZ", "did:plc:ewvi7nxzyoun6zhxrhs64oi1",
            "did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK", "did:web:", "did:web:evil.com/x", "did:",
            "did:plc:ewvi7nxzyoun6zhxrhs64oiz/../x",
        ]
        for name in refused {
            XCTAssertThrowsError(try BlueskySource(actor: name, endpointOverride: nil), name) { error in
                guard case .invalidUsername = error as? GalleryError else { return XCTFail("\(name): \(error)") }
            }
        }
    }

    func testABareNameIsToldTheFullHandle() {
        XCTAssertThrowsError(try BlueskySource(actor: "alice", endpointOverride: nil)) { error in
            XCTAssertEqual(error as? GalleryError, .invalidUsername(
                reason: "A Bluesky handle is a domain name. Type the full handle, like alice.bsky.social."))
        }
    }

    func testSourceKindBuildsTheBlueskySource() throws {
        let source = try SourceKind.bluesky.makeSource(username: "@alice.bsky.social", endpointOverride: nil)
        XCTAssertTrue(source is BlueskySource)
        XCTAssertEqual(source.kind, .bluesky)
        XCTAssertEqual(source.serviceName, "Bluesky")
        XCTAssertEqual(source.firstRequest().url,
                       "https://public.api.bsky.app/xrpc/app.bsky.actor.getProfile?actor=alice.bsky.social")
        let did = try SourceKind.bluesky.makeSource(username: "did:plc:ewvi7nxzyoun6zhxrhs64oiz", endpointOverride: nil)
        XCTAssertEqual(did.firstRequest().url,
                       "https://public.api.bsky.app/xrpc/app.bsky.actor.getProfile?actor=did%3Aplc%3Aewvi7nxzyoun6zhxrhs64oiz")
    }

    func testOverrideReplacesTheOrigin() throws {
        let source = try BlueskySource(actor: "alice.bsky.social", endpointOverride: "http://127.0.0.1:8080/x")
        XCTAssertEqual(source.firstRequest().url, "http://127.0.0.1:8080/xrpc/app.bsky.actor.getProfile?actor=alice.bsky.social")
        XCTAssertEqual(source.endpoint.canonicalOrigin, "https://public.api.bsky.app")
    }
}
