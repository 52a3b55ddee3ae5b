import GObjectBindings
import TestSupport
import XCTest
@testable import GalleryCore

/// The DID document lookup that finds an account's PDS, where its videos' originals are
/// (data/fixtures/bluesky/did-plc.json, shaped as the PLC directory answers).
final class BlueskyIdentityTests: GLibTestCase {
    let did = BlueskySourceTests.did
    let pds = "https://morel.us-east.host.bsky.network"

    func testDocumentsAreAskedWhereEachDIDMethodKeepsThem() {
        XCTAssertEqual(BlueskyIdentity.documentURL(of: did, endpointOverride: nil), "https://plc.directory/\(did)")
        XCTAssertEqual(BlueskyIdentity.documentURL(of: "did:web:art.example.com", endpointOverride: nil),
                       "https://art.example.com/.well-known/did.json")
        XCTAssertEqual(BlueskyIdentity.documentURL(of: "did:web:art.example.com%3A8443", endpointOverride: nil),
                       "https://art.example.com:8443/.well-known/did.json")
        XCTAssertEqual(BlueskyIdentity.documentURL(of: did, endpointOverride: "http://127.0.0.1:8080"), "http://127.0.0.1:8080/\(did)")
        for unusable in ["did:key:z6Mk", "did:web:a.com/evil", "did:web:user@a.com", "did:web:", "did:plc:../../admin",
                         "did:plc:gmoqedkttnau72v3gujfn4b6/x", "did:plc:short"] {
            XCTAssertNil(BlueskyIdentity.documentURL(of: unusable, endpointOverride: nil), unusable)
        }
    }

    func testThePDSIsTheAtprotoPersonalDataServerEntry() {
        XCTAssertEqual(personalDataServer(document()), pds, "the labeler entry before it is not the PDS")
        XCTAssertEqual(personalDataServer(document(endpoint: pds + "/")), pds)
        XCTAssertEqual(personalDataServer(document(endpoint: "https://PDS.Example.com:8443")), "https://pds.example.com:8443")
    }

    func testDocumentsThatNameNoUsablePDSGiveNone() {
        XCTAssertNil(personalDataServer(document(), about: "did:plc:ewvi7nxzyoun6zhxrhs64oiz"), "a document about another DID")
        XCTAssertNil(personalDataServer(document(endpoint: "http://morel.us-east.host.bsky.network")), "plain http for an https gallery")
        XCTAssertNotNil(personalDataServer(document(endpoint: "http://127.0.0.1:8080"), allowsHTTP: true), "a local test server")
        for endpoint in ["https://pds.example.com/xrpc", "https://pds.example.com?x=1", "https://user:secret@pds.example.com",
                         "file:///etc/passwd", "javascript:alert(1)", "//pds.example.com", "",
                         "https://" + String(repeating: "a", count: 3000) + ".com"] {
            XCTAssertNil(personalDataServer(document(endpoint: endpoint)), endpoint)
        }
        let wrongType = BlueskySourceTests.fixture("did-plc.json").replacingOccurrences(of: "\"AtprotoPersonalDataServer\"", with: "\"Other\"")
        XCTAssertNil(personalDataServer(wrongType))
        for body in ["", "{", "[]", #"{"id":"\#(did)"}"#, #"{"id":"\#(did)","service":"x"}"#, "<html>Not found</html>"] {
            XCTAssertNil(personalDataServer(body), body)
        }
    }

    func testBlobURLsTakeOnlyCIDs() {
        XCTAssertEqual(BlueskyIdentity.blobURL(pds: pds, did: did, cid: "bafkreigxhlre56sfxx5sx3rt5f54fqroq4htkpfgbhwpwjvwjnph5ngax6"),
                       "\(pds)/xrpc/com.atproto.sync.getBlob?did=did%3Aplc%3Agmoqedkttnau72v3gujfn4b6&cid=bafkreigxhlre56sfxx5sx3rt5f54fqroq4htkpfgbhwpwjvwjnph5ngax6")
        for cid in ["", "bafy", "bafkrei&did=other", "BAFKREIGXHLRE56", "bafkrei/../x", String(repeating: "b", count: 200)] {
            XCTAssertNil(BlueskyIdentity.blobURL(pds: pds, did: did, cid: cid), cid)
        }
    }

    func testTheFeedPlaysVideosFromThePDSTheDocumentNamed() throws {
        let source = try BlueskySource(actor: "alice.bsky.social", endpointOverride: nil)
        let identity = try XCTUnwrap(try source.parse(response(BlueskySourceTests.fixture("profile.json")), of: source.firstRequest()).next)
        let first = try XCTUnwrap(try source.parse(response(BlueskySourceTests.fixture("did-plc.json")), of: identity).next)
        XCTAssertEqual(first.context, pds)
        let page = try source.parse(response(BlueskySourceTests.fixture("author-feed-page1.json")), of: first)
        let video = try XCTUnwrap(page.items.first { $0.kind == .video })
        XCTAssertEqual(video.media?.url, "\(pds)/xrpc/com.atproto.sync.getBlob?did=did%3Aplc%3Agmoqedkttnau72v3gujfn4b6&cid=bafkreigxhlre56sfxx5sx3rt5f54fqroq4htkpfgbhwpwjvwjnph5ngax6")
        XCTAssertEqual(video.savedFile()?.url, video.media?.url, "saved from the PDS too")
        XCTAssertEqual(page.next?.context, pds, "every page knows the PDS")

        // A failed lookup (404, an error page, another DID's document) is the feed without a PDS.
        for failed in [response("{}", status: 404), response("<html>Bad gateway</html>", status: 502),
                       response(BlueskySourceTests.fixture("did-plc.json").replacingOccurrences(of: "gmoqedkttnau72v3gujfn4b6\"", with: "ewvi7nxzyoun6zhxrhs64oiz\""))] {
            let next = try XCTUnwrap(try source.parse(failed, of: identity).next)
            XCTAssertEqual(next.url, first.url)
            XCTAssertNil(next.context)
            let withoutPDS = try source.parse(response(BlueskySourceTests.fixture("author-feed-page1.json")), of: next)
            let still = try XCTUnwrap(withoutPDS.items.first { $0.kind == .video })
            XCTAssertNil(still.media, "the video opens the post")
            XCTAssertNotNil(still.pageURL)
        }
    }

    // MARK: - Helpers

    private func document(endpoint: String? = nil) -> String {
        let text = BlueskySourceTests.fixture("did-plc.json")
        guard let endpoint else { return text }
        return text.replacingOccurrences(of: "\"\(pds)\"", with: "\"\(endpoint)\"")
    }

    private func personalDataServer(_ body: String, about subject: String? = nil, allowsHTTP: Bool = false) -> String? {
        BlueskyIdentity.personalDataServer(in: Bytes(body), did: subject ?? did, allowsHTTP: allowsHTTP)
    }

    private func response(_ body: String, status: UInt32 = 200) -> HTTPResponse {
        HTTPResponse(head: HTTPResponseHead(status: status, reason: "", url: "https://plc.directory/\(did)", headers: [:],
                                            mediaType: "application/json"), body: Bytes(body))
    }
}
