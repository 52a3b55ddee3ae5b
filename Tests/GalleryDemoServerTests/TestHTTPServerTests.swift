import CGLib
import GObjectBindings
import TestSupport
import XCTest

/// The route-based test server other test suites build on.
final class TestHTTPServerTests: GLibTestCase {
    func testRoutesSeeQueryAndHeaders() throws {
        try MainActor.assumeIsolated {
            let server = try TestHTTPServer()
            var seen: TestRequest?
            server.route("/echo") { request in
                seen = request
                return .text("q=\(request.query["q"] ?? "-")").header("X-Route", "echo")
            }
            server.route("/files/*") { request in .text("file \(request.path)") }
            let session = makeTestSession()
            let echo = try XCTUnwrap(fetch(server.url("/echo?q=a%20b&n=1"), session: session, headers: ["X-Test": "1"]))
            XCTAssertEqual(echo.status, 200)
            XCTAssertEqual(echo.text, "q=a b")
            XCTAssertEqual(echo.mediaType, "text/plain")
            XCTAssertEqual(seen?.query, ["q": "a b", "n": "1"])
            XCTAssertEqual(seen?.header("x-test"), "1")
            XCTAssertEqual(seen?.method, "GET")
            XCTAssertEqual(try XCTUnwrap(fetch(server.url("/files/a/b.png"), session: session)).text, "file /files/a/b.png")
            let missing = try XCTUnwrap(fetch(server.url("/nowhere"), session: session))
            XCTAssertEqual(missing.status, 404)
            XCTAssertEqual(server.requestLog, ["/echo?q=a%20b&n=1", "/files/a/b.png", "/nowhere"])
            XCTAssertEqual(server.requestCount, 3)
            XCTAssertEqual(server.acceptedConnections, 1, "one kept-alive connection")
            XCTAssertTrue(server.baseURL.hasPrefix("http://127.0.0.1:"))
        }
    }

    /// A whole body answers a Range request with just the range, as real servers do (resumed downloads).
    func testARangeRequestGetsThePartAndItsLength() throws {
        try MainActor.assumeIsolated {
            let server = try TestHTTPServer()
            let body = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
            server.route("/file") { _ in .bytes(body, contentType: "image/png") }
            let session = makeTestSession()
            let part = try XCTUnwrap(fetch(server.url("/file"), session: session, headers: ["Range": "bytes=4000-"], timeout: 60),
                                     "the response never ended")
            XCTAssertNil(part.error)
            XCTAssertEqual(part.status, 206)
            XCTAssertEqual(part.contentLength, 6_000)
            XCTAssertEqual(part.body, Array(body[4000...]))
            let whole = try XCTUnwrap(fetch(server.url("/file"), session: session))
            XCTAssertEqual(whole.status, 200)
            XCTAssertEqual(whole.body, body)
        }
    }

    func testBinaryAndNonASCIIBodiesRoundTripByteExact() throws {
        try MainActor.assumeIsolated {
            let server = try TestHTTPServer()
            let binary = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
            let text = "Grüße, Café Ωmega 🌊 \u{0}\r\n end"
            server.route("/binary") { _ in .bytes(binary, contentType: "application/octet-stream") }
            server.route("/text") { _ in .text(text) }
            server.route("/slow-binary") { _ in .bytes(binary, contentType: "image/png").throttled(bytesPerSecond: 500_000) }
            let session = makeTestSession()
            XCTAssertEqual(try XCTUnwrap(fetch(server.url("/binary"), session: session)).body, binary)
            XCTAssertEqual(try XCTUnwrap(fetch(server.url("/text"), session: session)).body, Array(text.utf8))
            let slow = try XCTUnwrap(fetch(server.url("/slow-binary"), session: session))
            XCTAssertEqual(slow.body, binary, "chunked pacing must not reorder or drop bytes")
            XCTAssertEqual(slow.contentLength, binary.count)
        }
    }

    func testRedirectFollowsToTheTargetBody() throws {
        try MainActor.assumeIsolated {
            let server = try TestHTTPServer()
            server.route("/old") { _ in .redirect(to: "/new") }
            server.route("/new") { _ in .bytes([1, 2, 3], contentType: "image/png") }
            let result = try XCTUnwrap(fetch(server.url("/old"), session: makeTestSession()))
            XCTAssertEqual(result.status, 200)
            XCTAssertEqual(result.body, [1, 2, 3], "no redirect HTML mixed in")
            XCTAssertEqual(result.finalURL, server.url("/new"))
            XCTAssertEqual(server.requestLog, ["/old", "/new"])
        }
    }

    func testDelayedResponse() throws {
        try MainActor.assumeIsolated {
            let server = try TestHTTPServer()
            server.route("/slow") { _ in .text("late").delayed(milliseconds: 300) }
            let result = try XCTUnwrap(fetch(server.url("/slow"), session: makeTestSession()))
            XCTAssertEqual(result.text, "late")
            XCTAssertGreaterThanOrEqual(result.elapsed, 0.28)
        }
    }

    func testThrottledResponse() throws {
        try MainActor.assumeIsolated {
            let server = try TestHTTPServer()
            server.route("/trickle") { _ in .bytes([UInt8](repeating: 9, count: 20_000), contentType: "image/jpeg")
                .throttled(bytesPerSecond: 20_000) }
            let result = try XCTUnwrap(fetch(server.url("/trickle"), session: makeTestSession()))
            XCTAssertNil(result.error)
            XCTAssertEqual(result.body.count, 20_000)
            XCTAssertGreaterThanOrEqual(result.elapsed, 0.9)
        }
    }

    func testTruncatedResponseIsAClientError() throws {
        try MainActor.assumeIsolated {
            let server = try TestHTTPServer()
            server.route("/cut") { _ in .bytes([UInt8](repeating: 5, count: 50_000), contentType: "image/jpeg")
                .truncated(afterBytes: 10_000) }
            server.route("/after") { _ in .text("fine") }
            let session = makeTestSession()
            let result = try XCTUnwrap(fetch(server.url("/cut"), session: session))
            XCTAssertEqual(result.status, 200)
            XCTAssertEqual(result.contentLength, 50_000)
            XCTAssertEqual(result.body.count, 10_000)
            XCTAssertTrue(result.error?.matches(G_IO_ERROR_PARTIAL_INPUT) == true,
                          "closed early, not hanging: \(String(describing: result.error))")
            XCTAssertEqual(try XCTUnwrap(fetch(server.url("/after"), session: session)).text, "fine")
            XCTAssertTrue(iterateMainLoop(until: { server.responsesInFlight == 0 }, timeout: 60))
        }
    }

    func testStalledResponseEndsAtTheClientTimeout() throws {
        try MainActor.assumeIsolated {
            let server = try TestHTTPServer()
            server.route("/stuck") { _ in .bytes([UInt8](repeating: 5, count: 50_000), contentType: "image/jpeg")
                .stalled(afterBytes: 2_000) }
            let result = try XCTUnwrap(fetch(server.url("/stuck"), session: makeTestSession(ioTimeoutSeconds: 1)))
            XCTAssertEqual(result.body.count, 2_000)
            XCTAssertTrue(result.error?.matches(G_IO_ERROR_TIMED_OUT) == true, "\(String(describing: result.error))")
            XCTAssertGreaterThanOrEqual(result.elapsed, 0.9)
            XCTAssertTrue(iterateMainLoop(until: { server.responsesInFlight == 0 }, timeout: 60),
                          "nothing of the stalled response outlives the client")
        }
    }

    func testDelayedResponseToAClientThatLeftLeavesNothingBehind() throws {
        try MainActor.assumeIsolated {
            let server = try TestHTTPServer()
            server.route("/never") { _ in .text("too late").delayed(milliseconds: 60_000) }
            let result = try XCTUnwrap(fetch(server.url("/never"), session: makeTestSession(ioTimeoutSeconds: 1)))
            XCTAssertNotNil(result.error)
            XCTAssertTrue(iterateMainLoop(until: { server.responsesInFlight == 0 }, timeout: 60),
                          "the 60 s timer must go when the client goes")
        }
    }

    func testStopClosesTheServer() throws {
        try MainActor.assumeIsolated {
            let server = try TestHTTPServer()
            server.route("/") { _ in .text("up") }
            let session = makeTestSession()
            XCTAssertEqual(try XCTUnwrap(fetch(server.url("/"), session: session)).text, "up")
            server.stop()
            let after = try XCTUnwrap(fetch(server.url("/"), session: makeTestSession()))
            XCTAssertNotNil(after.error, "connection refused after stop()")
        }
    }
}
