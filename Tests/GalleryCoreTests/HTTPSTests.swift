import XCTest
import GObjectBindings
import TestSupport
@testable import GalleryCore

/// A certificate no authority signed is refused and reported as such; nothing is bypassed.
final class HTTPSTests: GLibTestCase {
    @MainActor
    private static func startSelfSignedServer() throws -> Soup.Server {
        let server = try Soup.Server(serverHeader: "HTTPSTests", tlsCertificatePEM: Fixtures.path("tls/self-signed.pem"))
        server.addHandler("/") { message in
            message.setStatus(200)
            message.setBody(Bytes("<rss><channel></channel></rss>"), contentType: "application/rss+xml")
        }
        try server.listenLocal(https: true)
        return server
    }

    func testASelfSignedCertificateIsRefusedForImagesAndFeeds() throws {
        try MainActor.assumeIsolated {
            let server = try Self.startSelfSignedServer()
            defer { server.disconnect() }
            let origin = "https://127.0.0.1:\(server.boundPort!)"

            var result: Result<HTTPResponse, HTTPError>?
            let client = HTTPClient()
            client.fetch(HTTPRequest(url: origin + "/x.png", maxBodyBytes: 1000), cancellable: Cancellable()) {
                result = $0
            }
            XCTAssertTrue(iterateMainLoop(until: { result != nil }, timeout: 60))
            guard case .failure(.certificate(let detail))? = result else {
                return XCTFail("expected a certificate error, got \(String(describing: result))")
            }
            XCTAssertFalse(detail.isEmpty)

            let source = try DeviantArtSource(username: "someone", endpointOverride: origin)
            let feed = GalleryFeed(source: source, client: client)
            feed.loadNextPage { _ in XCTFail("no items over an untrusted connection") }
            XCTAssertTrue(iterateMainLoop(until: { if case .failed = feed.state { true } else { false } }, timeout: 60))
            guard case .failed(.certificate(let service, _)) = feed.state else { return XCTFail("\(feed.state)") }
            XCTAssertEqual(service, "DeviantArt")
            XCTAssertEqual(GalleryError.certificate(service: service, detail: "x").title, "Untrusted certificate")
        }
    }
}
