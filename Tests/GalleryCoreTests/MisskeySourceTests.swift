import FoundationEssentials
import GObjectBindings
import TestSupport
import XCTest
@testable import GalleryCore

/// MisskeySource without a network: addresses, the POST requests built from them, error replies and notes
/// written from Misskey's schemas (data/fixtures/misskey).
final class MisskeySourceTests: GLibTestCase {
    // MARK: - Addresses

    func testAddressesAreCheckedLikeMastodonsWithMisskeyExamples() throws {
        let source = try MisskeySource(account: " @Alice_B@Misskey.IO ", endpointOverride: nil)
        XCTAssertEqual(source.username, "Alice_B@misskey.io")
        XCTAssertEqual(source.server, "misskey.io")
        XCTAssertEqual(source.endpoint.origin, "https://misskey.io")
        for name in ["alice", "alice@", "@misskey.io", "a&b@misskey.io", "alice@misskey.io/x", "alice@evil.com@misskey.io"] {
            XCTAssertThrowsError(try MisskeySource(account: name, endpointOverride: nil), name) { error in
                guard case .invalidUsername(let reason) = error as? GalleryError else { return XCTFail("\(name): \(error)") }
                XCTAssertTrue(reason.contains("alice@misskey.io"), reason)
            }
        }
    }

    func testSourceKindBuildsTheMisskeySource() throws {
        let source = try SourceKind.misskey.makeSource(username: "alice@misskey.io", endpointOverride: nil)
        XCTAssertTrue(source is MisskeySource)
        XCTAssertEqual(source.kind, .misskey)
        XCTAssertEqual(source.serviceName, "Misskey")
        let request = source.firstRequest()
        XCTAssertEqual(request.url, "https://misskey.io/api/users/show")
        XCTAssertEqual(request.method, "POST")
    }
}
