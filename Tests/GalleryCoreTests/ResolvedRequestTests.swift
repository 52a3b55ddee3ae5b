import GObjectBindings
import TestSupport
import XCTest
@testable import GalleryCore

/// The sources with a lookup (Mastodon, Bluesky, Misskey) say what it resolved, start from that without the
/// lookup (`firstRequest(resolved:)`), refuse a resolution they cannot use, and answer a stale one (the
/// account gone, or its handle now another's) with `staleResolution`; the sources without a lookup have none.
final class ResolvedRequestTests: GLibTestCase {
    func testMastodonRemembersTheAccountIDAndAsksForItsStatuses() throws {
        let source = try MastodonSource(account: "alice@mastodon.social", endpointOverride: nil)
        let lookup = try source.parse(response(Fixtures.text("mastodon/account.json")), of: source.firstRequest())
        let resolution = try XCTUnwrap(lookup.resolution)
        XCTAssertEqual(resolution, SourceResolution(accountID: MastodonSourceTests.accountID))
        let first = try XCTUnwrap(source.firstRequest(resolved: resolution))
        XCTAssertEqual(first.url, lookup.next?.url, "the request the lookup led to, so its validators apply")
        XCTAssertEqual(first.stage, MastodonSource.Stage.resolvedStatuses)
        let link = "<https://mastodon.social\(MastodonSourceTests.statusesPath)?limit=40&max_id=1>; rel=\"next\""
        let page = try source.parse(response(Fixtures.text("mastodon/statuses-page1.json"), headers: ["link": link]), of: first)
        XCTAssertFalse(page.items.isEmpty)
        XCTAssertFalse(page.resolutionIsStale)
        XCTAssertEqual(page.next?.stage, MastodonSource.Stage.statuses, "only the first request is the remembered one")

        for status: UInt32 in [404, 410] {
            XCTAssertTrue(try source.parse(response(#"{"error":"Record not found"}"#, status: status), of: first).resolutionIsStale)
            // After a lookup the same answer is the account's problem, as before.
            XCTAssertThrowsError(try source.parse(response(#"{"error":"Record not found"}"#, status: status), of: lookup.next!))
        }
        XCTAssertThrowsError(try source.parse(response("{}", status: 503), of: first), "a server error is no stale account")
        for hostile in ["", "..", "1/../admin", "1?x=1", "1%2F2"] {
            XCTAssertNil(source.firstRequest(resolved: SourceResolution(accountID: hostile)), hostile)
        }
    }

    func testBlueskyRemembersTheDIDAndPDSAndAsksForTheFeed() throws {
        let source = try BlueskySource(actor: "alice.bsky.social", endpointOverride: nil)
        let profile = try source.parse(response(Fixtures.text("bluesky/profile.json")), of: source.firstRequest())
        XCTAssertEqual(profile.resolution, SourceResolution(accountID: BlueskySourceTests.did))
        let identity = try XCTUnwrap(profile.next)
        let document = try source.parse(response(Fixtures.text("bluesky/did-plc.json")), of: identity)
        let resolution = try XCTUnwrap(document.resolution)
        XCTAssertEqual(resolution.accountID, BlueskySourceTests.did)
        XCTAssertEqual(resolution.context, document.next?.context, "the PDS the feed's videos are played from")
        XCTAssertNotNil(resolution.context)

        let first = try XCTUnwrap(source.firstRequest(resolved: resolution))
        XCTAssertEqual(first.url, document.next?.url)
        XCTAssertEqual(first.context, resolution.context)
        XCTAssertEqual(first.stage, BlueskySource.Stage.resolvedFeed)
        let page = try source.parse(response(Fixtures.text("bluesky/author-feed-page1.json")), of: first)
        XCTAssertFalse(page.resolutionIsStale)
        XCTAssertFalse(page.items.isEmpty)

        // Gone: the AppView's not-found and account errors. Moved: the DID's posts name another handle.
        for fixture in ["error-profile-not-found.json", "error-account-deactivated.json"] {
            XCTAssertTrue(try source.parse(response(Fixtures.text("bluesky/\(fixture)"), status: 400), of: first).resolutionIsStale)
        }
        let renamed = Fixtures.text("bluesky/author-feed-page1.json").replacingOccurrences(of: "\"alice.bsky.social\"",
                                                                                           with: "\"someone.else.example\"")
        XCTAssertTrue(try source.parse(response(renamed), of: first).resolutionIsStale)
        let byDID = try BlueskySource(actor: BlueskySourceTests.did, endpointOverride: nil)
        XCTAssertFalse(try byDID.parse(response(renamed), of: XCTUnwrap(byDID.firstRequest(resolved: resolution))).resolutionIsStale,
                       "a gallery followed by DID follows the account whatever its handle")

        XCTAssertNil(source.firstRequest(resolved: SourceResolution(accountID: "alice.bsky.social")))
        XCTAssertNil(byDID.firstRequest(resolved: SourceResolution(accountID: "did:plc:ewvi7nxzyoun6zhxrhs64oiz")),
                     "not the DID followed")
        XCTAssertNil(source.firstRequest(resolved: SourceResolution(accountID: BlueskySourceTests.did, context: "http://pds.example/x")),
                     "only a bare https origin is a PDS to play videos from; without one the account is looked up")
    }

    func testABlueskyResolutionWithoutItsPDSIsNotStartedFrom() throws {
        let source = try BlueskySource(actor: "alice.bsky.social", endpointOverride: nil)
        let profile = try source.parse(response(Fixtures.text("bluesky/profile.json")), of: source.firstRequest())
        let identity = try XCTUnwrap(profile.next)
        // The feed goes on without the DID document (the profile's resolution, or a failed document's), but a
        // check starting from that resolution would never learn the PDS: it looks the account up again.
        let failed = try source.parse(response(#"{"message":"busy"}"#, status: 503), of: identity)
        for partial in [profile.resolution, failed.resolution] {
            XCTAssertEqual(partial, SourceResolution(accountID: BlueskySourceTests.did))
            XCTAssertNil(source.firstRequest(resolved: try XCTUnwrap(partial)))
        }
        XCTAssertNotNil(failed.next, "the gallery itself goes on")
    }

    func testABlueskyHandleThatFailedVerificationIsNoRename() throws {
        let source = try BlueskySource(actor: "alice.bsky.social", endpointOverride: nil)
        let first = try XCTUnwrap(source.firstRequest(resolved: SourceResolution(accountID: BlueskySourceTests.did,
                                                                                 context: "https://pds.example")))
        let unverified = Fixtures.text("bluesky/author-feed-page1.json").replacingOccurrences(of: "\"alice.bsky.social\"",
                                                                                              with: "\"handle.invalid\"")
        XCTAssertNotEqual(unverified, Fixtures.text("bluesky/author-feed-page1.json"))
        let page = try source.parse(response(unverified), of: first)
        XCTAssertFalse(page.resolutionIsStale, "handle.invalid says nothing of whose the handle is now")
        XCTAssertFalse(page.items.isEmpty)
    }

    func testMisskeyRemembersTheUserIDAndAsksForItsNotes() throws {
        let source = try MisskeySource(account: "alice@misskey.io", endpointOverride: nil)
        let show = try source.parse(response(Fixtures.text("misskey/users-show.json")), of: source.firstRequest())
        let resolution = try XCTUnwrap(show.resolution)
        XCTAssertEqual(resolution, SourceResolution(accountID: "9tjzq2vq7o"))
        let first = try XCTUnwrap(source.firstRequest(resolved: resolution))
        XCTAssertEqual(first.key, show.next?.key, "the same POST the lookup led to")
        XCTAssertEqual(first.stage, MisskeySource.Stage.resolvedNotes)
        let page = try source.parse(response(Fixtures.text("misskey/users-notes-page1.json")), of: first)
        XCTAssertFalse(page.resolutionIsStale)
        XCTAssertEqual(page.next?.stage, MisskeySource.Stage.notes)
        XCTAssertTrue(try source.parse(response(Fixtures.text("misskey/error-no-such-user.json"), status: 400), of: first)
            .resolutionIsStale)
        XCTAssertThrowsError(try source.parse(response(Fixtures.text("misskey/error-credential-required.json"), status: 401), of: first))
        XCTAssertNil(source.firstRequest(resolved: SourceResolution(accountID: "9tj/../x")))
    }

    func testSourcesWithoutALookupHaveNoResolvedRequest() throws {
        let resolution = SourceResolution(accountID: "1")
        XCTAssertNil(try DeviantArtSource(username: "aurora", endpointOverride: nil).firstRequest(resolved: resolution))
        XCTAssertNil(try SourceKind.commons.makeSource(username: "Aurora", endpointOverride: nil).firstRequest(resolved: resolution))
    }

    private func response(_ body: String, status: UInt32 = 200, headers: [String: String] = [:]) -> HTTPResponse {
        HTTPResponse(head: HTTPResponseHead(status: status, reason: "", url: "https://mastodon.social/x", headers: headers,
                                            mediaType: "application/json"),
                     body: Bytes(body))
    }
}
