import CGLib
import GObjectBindings
import GalleryDemoServer
import TestSupport
import XCTest

/// Each `fault=` behaves as the app's failure paths expect.
final class DemoFaultTests: GLibTestCase {
    @MainActor
    private static func imageURL(_ server: DemoServer, fault: DemoFault, thumbnail: Int? = nil) throws -> String {
        let item = try XCTUnwrap(DemoFixture.catalog().user(named: "aurora")?.items.first { $0.fault == fault })
        return server.baseURL + item.imagePath(thumbnailLongSide: thumbnail)
    }

    func testErrorStatusesComeWithHTMLBodies() throws {
        try MainActor.assumeIsolated {
            let server = try DemoFixture.startServer()
            defer { server.stop() }
            let session = makeTestSession()
            for (fault, status) in [(DemoFault.notFound, UInt32(404)), (.serverError, 500)] {
                for thumbnail in [nil, 150, 300] {
                    let url = try Self.imageURL(server, fault: fault, thumbnail: thumbnail)
                    XCTAssertTrue(url.hasSuffix("?fault=\(fault.rawValue)"), url)
                    let result = try fetchOrFail(url, session: session)
                    XCTAssertNil(result.error)
                    XCTAssertEqual(result.status, status, url)
                    XCTAssertEqual(result.mediaType, "text/html")
                    XCTAssertTrue(result.text.contains("<html"))
                }
            }
        }
    }

    func testHTMLInsteadOfAnImage() throws {
        try MainActor.assumeIsolated {
            let server = try DemoFixture.startServer()
            defer { server.stop() }
            let result = try fetchOrFail(try Self.imageURL(server, fault: .html), session: makeTestSession())
            XCTAssertEqual(result.status, 200)
            XCTAssertEqual(result.mediaType, "text/html")
            XCTAssertTrue(result.text.hasPrefix("<!DOCTYPE html>"))
            XCTAssertThrowsError(try decodeImage(result.body).get())
        }
    }

    func testTruncatedBodyIsATransferErrorNotAShortImage() throws {
        try MainActor.assumeIsolated {
            let server = try DemoFixture.startServer()
            defer { server.stop() }
            let session = makeTestSession()
            for thumbnail in [nil, 300] {
                let result = try fetchOrFail(try Self.imageURL(server, fault: .truncate, thumbnail: thumbnail), session: session)
                XCTAssertEqual(result.status, 200)
                XCTAssertEqual(result.mediaType, "image/jpeg")
                let declared = try XCTUnwrap(result.contentLength)
                let error = try XCTUnwrap(result.error, "the client must see an error")
                XCTAssertTrue(error.matches(G_IO_ERROR_PARTIAL_INPUT), "the connection closes early, it does not hang: \(error)")
                XCTAssertGreaterThan(result.body.count, 0)
                XCTAssertLessThan(result.body.count, declared)
                XCTAssertEqual(Double(result.body.count), Double(declared) / 2, accuracy: Double(declared) * 0.1)
            }
            // The connection was dropped, not the server: the next request works.
            XCTAssertEqual(try fetchOrFail(server.feedURL(user: "empty"), session: session).status, 200)
        }
    }

    func testCorruptImageHasFullLengthButDoesNotDecode() throws {
        try MainActor.assumeIsolated {
            let server = try DemoFixture.startServer()
            defer { server.stop() }
            let session = makeTestSession()
            let pngURL = try Self.imageURL(server, fault: .corrupt)
            let corrupt = try fetchOrFail(pngURL, session: session)
            XCTAssertNil(corrupt.error)
            XCTAssertEqual(corrupt.status, 200)
            XCTAssertEqual(corrupt.mediaType, "image/png")
            XCTAssertEqual(corrupt.contentLength, corrupt.body.count)
            let intact = try fetchOrFail(pngURL.replacingOccurrences(of: "?fault=corrupt", with: ""), session: session)
            XCTAssertEqual(corrupt.body.count, intact.body.count)
            XCTAssertEqual(Array(corrupt.body.prefix(8)), Array(intact.body.prefix(8)), "still looks like a PNG")
            XCTAssertNoThrow(try decodeImage(intact.body).get())
            XCTAssertThrowsError(try decodeImage(corrupt.body).get())
            // The fault works on any image, JPEG included.
            let jpeg = try fetchOrFail(try Self.imageURL(server, fault: .truncate).replacingOccurrences(of: "truncate", with: "corrupt"),
                                       session: session)
            XCTAssertEqual(jpeg.mediaType, "image/jpeg")
            XCTAssertEqual(Array(jpeg.body.prefix(2)), [0xFF, 0xD8])
            XCTAssertThrowsError(try decodeImage(jpeg.body).get())
        }
    }

    func testRedirectLeadsToTheRealImageWithNoHTMLMixedIn() throws {
        try MainActor.assumeIsolated {
            let server = try DemoFixture.startServer()
            defer { server.stop() }
            let session = makeTestSession()
            let url = try Self.imageURL(server, fault: .redirect)
            let redirected = try fetchOrFail(url + "&latency=0", session: session)
            XCTAssertNil(redirected.error)
            XCTAssertEqual(redirected.status, 200)
            XCTAssertEqual(redirected.mediaType, "image/jpeg")
            XCTAssertFalse(redirected.finalURL.contains("fault"), redirected.finalURL)
            XCTAssertTrue(redirected.finalURL.contains("latency=0"), "other parameters survive the redirect")
            let direct = try fetchOrFail(url.replacingOccurrences(of: "?fault=redirect", with: ""), session: session)
            XCTAssertEqual(redirected.body, direct.body, "exactly the image bytes")
            XCTAssertEqual(Array(redirected.body.prefix(2)), [0xFF, 0xD8])
            XCTAssertTrue(server.requestLog.contains { $0.contains("fault=redirect") })
        }
    }

    func testStallIsCutByTheClientTimeoutAndLeavesNothingRunning() throws {
        try MainActor.assumeIsolated {
            let server = try DemoFixture.startServer()
            defer { server.stop() }
            let session = makeTestSession(ioTimeoutSeconds: 1)
            let result = try fetchOrFail(try Self.imageURL(server, fault: .stall), session: session)
            XCTAssertEqual(result.status, 200)
            XCTAssertTrue(result.mediaType?.hasPrefix("image/") == true)
            let error = try XCTUnwrap(result.error, "a stall must end in the client's timeout")
            XCTAssertTrue(error.matches(G_IO_ERROR_TIMED_OUT), "\(error)")
            XCTAssertGreaterThanOrEqual(result.elapsed, 0.9)
            XCTAssertEqual(result.body.count, 4096)
            XCTAssertGreaterThan(try XCTUnwrap(result.contentLength), 4096)
            XCTAssertTrue(iterateMainLoop(until: { server.responsesInFlight == 0 }, timeout: 60),
                          "the server lets go of the stalled response once the client is gone")
        }
    }

    func testUnknownFaultIsABadRequest() throws {
        try MainActor.assumeIsolated {
            let server = try DemoFixture.startServer()
            defer { server.stop() }
            let url = try Self.imageURL(server, fault: .notFound).replacingOccurrences(of: "fault=404", with: "fault=explode")
            let result = try fetchOrFail(url, session: makeTestSession())
            XCTAssertEqual(result.status, 400)
            XCTAssertTrue(result.text.contains("stall"), "lists the known faults")
        }
    }
}
