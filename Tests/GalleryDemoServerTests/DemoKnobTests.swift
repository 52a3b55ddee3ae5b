import GObjectBindings
import GalleryDemoServer
import TestSupport
import XCTest

/// Latency and bandwidth knobs, server-wide and per request, responses held for a test, and connection counting.
/// Timing assertions are lower bounds (a loaded machine is only ever slower); where an override must beat a
/// server setting, the setting is one no test waits out, so being answered at all is the proof.
final class DemoKnobTests: GLibTestCase {
    /// A feed-listed thumbnail of moderate size, for throttling.
    @MainActor
    private static func mediumImage(_ server: DemoServer) throws -> (url: String, path: String, size: Int) {
        let session = makeTestSession()
        let item = try XCTUnwrap(DemoFixture.catalog().user(named: "aurora")?.items.first {
            $0.fault == nil && $0.format == .jpeg && max($0.width, $0.height) >= 300
        })
        let path = item.imagePath(thumbnailLongSide: 300)
        let size = try fetchOrFail(server.baseURL + path, session: session).body.count
        XCTAssertGreaterThan(size, 8_000)
        return (server.baseURL + path, path, size)
    }

    func testRequestLatencyDelaysTheResponse() throws {
        try MainActor.assumeIsolated {
            let server = try DemoFixture.startServer()
            defer { server.stop() }
            let result = try fetchOrFail(server.feedURL(user: "aurora") + "&latency=400", session: makeTestSession())
            XCTAssertEqual(result.status, 200)
            XCTAssertGreaterThanOrEqual(result.elapsed, 0.38)
        }
    }

    func testServerLatencyAppliesToEveryRequest() throws {
        try MainActor.assumeIsolated {
            let server = try DemoFixture.startServer(options: .init(latencyMilliseconds: 250))
            defer { server.stop() }
            let session = makeTestSession()
            XCTAssertGreaterThanOrEqual(try fetchOrFail(server.feedURL(user: "empty"), session: session).elapsed, 0.23)
            let image = try fetchOrFail(server.baseURL + "/avatars/aurora.png", session: session)
            XCTAssertEqual(image.mediaType, "image/png")
            XCTAssertGreaterThanOrEqual(image.elapsed, 0.23)
        }
    }

    func testBandwidthPacesTheBody() throws {
        try MainActor.assumeIsolated {
            let server = try DemoFixture.startServer()
            defer { server.stop() }
            let session = makeTestSession()
            let image = try Self.mediumImage(server)
            let rate = image.size  // one second's worth
            let result = try fetchOrFail(image.url + "?bandwidth=\(rate)", session: session)
            XCTAssertNil(result.error)
            XCTAssertEqual(result.body.count, image.size, "throttled, not cut")
            XCTAssertGreaterThanOrEqual(result.elapsed, 0.9)
        }
    }

    func testServerBandwidthAppliesAndRequestKnobsOverrideServerOptions() throws {
        try MainActor.assumeIsolated {
            let image: (url: String, path: String, size: Int)
            do {
                let plain = try DemoFixture.startServer()
                defer { plain.stop() }
                image = try Self.mediumImage(plain)
            }
            // Server-wide settings no test waits out (10 minutes of latency, 10 minutes for the image's body):
            // a request that is answered at all within the fetch's bound was sped up by its own knobs.
            let server = try DemoFixture.startServer(options: .init(latencyMilliseconds: 600_000,
                                                                    bandwidthBytesPerSecond: max(1, image.size / 600)))
            defer { server.stop() }
            let session = makeTestSession()
            let path = image.path
            var throttled: FetchResult?
            startFetch(server.baseURL + path + "?latency=0", session: session) { throttled = $0 }
            let fast = try fetchOrFail(server.baseURL + path + "?latency=0&bandwidth=0", session: session, timeout: 120)
            XCTAssertEqual(fast.body.count, image.size, "per-request knobs must win over the server's")
            let delayed = try fetchOrFail(server.feedURL(user: "empty") + "&latency=300&bandwidth=0", session: session,
                                          timeout: 120)
            XCTAssertEqual(delayed.status, 200)
            XCTAssertGreaterThanOrEqual(delayed.elapsed, 0.28)
            // Its body takes 600 s at the server-wide rate; the fetches above are bounded well under that.
            XCTAssertNil(throttled, "the server-wide bandwidth still applies")
            XCTAssertTrue(iterateMainLoop(until: { server.requestCount == 3 }, timeout: 120))
            server.stop()
            XCTAssertTrue(iterateMainLoop(until: { throttled != nil }, timeout: 120), "the throttled body ends with the server")
            XCTAssertLessThan(throttled?.body.count ?? .max, image.size, "throttled, so not all of it was sent")
        }
    }

    func testBadKnobsAreRejected() throws {
        try MainActor.assumeIsolated {
            let server = try DemoFixture.startServer()
            defer { server.stop() }
            let session = makeTestSession()
            XCTAssertEqual(try fetchOrFail(server.feedURL(user: "aurora") + "&latency=-5", session: session).status, 400)
            XCTAssertEqual(try fetchOrFail(server.feedURL(user: "aurora") + "&bandwidth=fast", session: session).status, 400)
        }
    }

    func testHeldResponsesWaitForTheirRelease() throws {
        try MainActor.assumeIsolated {
            let server = try DemoFixture.startServer()
            defer { server.stop() }
            // Room for the two held and one more.
            let session = makeTestSession(maxConnectionsPerHost: 3)
            server.holdsResponse = { $0.contains("offset=24") || $0.hasPrefix("/api/") }
            var held: FetchResult?
            var heldPost: FetchResult?
            startFetch(server.feedURL(user: "aurora", offset: 24), session: session) { held = $0 }
            startFetch(server.baseURL + "/api/users/show", session: session, method: "POST",
                       body: #"{"username":"atlas","host":null}"#) { heldPost = $0 }
            XCTAssertTrue(iterateMainLoop(until: { server.heldResponseCount == 2 }, timeout: 60), "both requests arrived")
            XCTAssertEqual(try fetchOrFail(server.feedURL(user: "aurora"), session: session).status, 200,
                           "a request the test does not hold is answered meanwhile")
            // Both are in the server's hold (counted above), which only the release empties: no window to outwait.
            XCTAssertNil(held, "held until released")
            XCTAssertNil(heldPost, "held until released")
            server.releaseHeldResponses()
            XCTAssertEqual(server.heldResponseCount, 0)
            XCTAssertTrue(iterateMainLoop(until: { held != nil && heldPost != nil }, timeout: 60))
            XCTAssertEqual(held?.status, 200)
            XCTAssertEqual(heldPost?.status, 200)
        }
    }

    func testSequentialRequestsShareAKeptAliveConnection() throws {
        try MainActor.assumeIsolated {
            let server = try DemoFixture.startServer()
            defer { server.stop() }
            let session = makeTestSession()
            let items = try XCTUnwrap(DemoFixture.catalog().user(named: "atlas")).items.prefix(40)
            for item in items {
                XCTAssertEqual(try fetchOrFail(server.baseURL + item.imagePath(thumbnailLongSide: 150), session: session).status, 200)
            }
            XCTAssertEqual(server.requestCount, 40)
            XCTAssertLessThanOrEqual(server.acceptedConnections, 2, "keep-alive: not one connection per request")
            XCTAssertGreaterThanOrEqual(server.acceptedConnections, 1)
            // A new session cannot reuse those connections.
            _ = try fetchOrFail(server.feedURL(user: "empty"), session: makeTestSession())
            XCTAssertEqual(server.requestCount, 41)
            XCTAssertGreaterThan(server.acceptedConnections, 1)
            XCTAssertLessThan(server.diskReads, 41, "the feed is not a file; images come from disk once each")
        }
    }

    func testAServerThatDoesNotRecordCountsAndTellsButKeepsNothing() throws {
        try MainActor.assumeIsolated {
            let server = try DemoFixture.startServer(options: .init(recordsRequests: false))
            defer { server.stop() }
            var told: [String] = []
            server.onRequest = { told.append($0) }
            let session = makeTestSession()
            for _ in 0..<3 { XCTAssertEqual(try fetchOrFail(server.feedURL(user: "empty"), session: session).status, 200) }
            XCTAssertEqual(server.requestCount, 3)
            XCTAssertEqual(told.count, 3, "--log-requests hears each request as it arrives")
            XCTAssertTrue(told.allSatisfy { $0.hasPrefix("/rss.xml?") }, "\(told)")
            XCTAssertEqual(server.requestLog, [], "the app's own demo server keeps no log that grows with the gallery")
            XCTAssertEqual(server.acceptedConnections, 0)
        }
    }

    func testConcurrentRequestsRespectTheSessionsConnectionLimit() throws {
        try MainActor.assumeIsolated {
            let server = try DemoFixture.startServer()
            defer { server.stop() }
            let session = makeTestSession(maxConnectionsPerHost: 2)
            let items = try XCTUnwrap(DemoFixture.catalog().user(named: "atlas")).items.prefix(30)
            var done = 0
            for item in items {
                startFetch(server.baseURL + item.imagePath(thumbnailLongSide: 300), session: session) { result in
                    XCTAssertEqual(result.status, 200)
                    done += 1
                }
            }
            XCTAssertTrue(iterateMainLoop(until: { done == items.count }, timeout: 60))
            XCTAssertEqual(server.requestCount, items.count)
            XCTAssertLessThanOrEqual(server.acceptedConnections, 2)
        }
    }
}
