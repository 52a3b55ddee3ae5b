import GObjectBindings
import TestSupport
import XCTest
@testable import GalleryCore

/// The throughput floor's window opens when libsoup sends a request, not while the request waits in the
/// session's queue for one of the host's connections.
final class TransferWatchdogTests: GLibTestCase {
    func testARequestWaitingForTheHostsConnectionIsNotTooSlow() throws {
        try MainActor.assumeIsolated {
            let server = try TestHTTPServer()
            // About 4 s on the one connection, well above the floor (1000 B/s against 100).
            server.route("/busy") { _ in
                .bytes(Array(repeating: 7, count: 4000), contentType: "application/octet-stream").throttled(bytesPerSecond: 1000)
            }
            server.route("/quick") { _ in .text("ok") }
            let client = HTTPClient(configuration: .init(maxConnectionsPerHost: 1, minimumBytesPerSecond: 100,
                                                         throughputWindowSeconds: 2))
            var busy: Result<HTTPResponse, HTTPError>?
            var quick: Result<HTTPResponse, HTTPError>?
            client.fetch(HTTPRequest(url: server.url("/busy"), maxBodyBytes: 1_048_576), cancellable: Cancellable()) { busy = $0 }
            client.fetch(HTTPRequest(url: server.url("/quick"), maxBodyBytes: 1_048_576), cancellable: Cancellable()) { quick = $0 }
            XCTAssertTrue(iterateMainLoop(until: { busy != nil && quick != nil }, timeout: 60))
            XCTAssertEqual(try busy?.get().body.count, 4000)
            XCTAssertEqual(try quick?.get().body.count, 2, "waited its turn (longer than a window), then answered at once")
            XCTAssertEqual(server.acceptedConnections, 1, "the second request waited for the first one's connection")
        }
    }
}
