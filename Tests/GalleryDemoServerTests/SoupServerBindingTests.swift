import CGLib
import GObjectBindings
import TestSupport
import XCTest

/// The Soup.Server binding itself, without the demo on top.
final class SoupServerBindingTests: GLibTestCase {
    func testRequestDetailsReachTheHandler() throws {
        try MainActor.assumeIsolated {
            let server = Soup.Server(serverHeader: "BindingTest")
            defer { server.disconnect() }
            let port = try server.listenLocal()
            XCTAssertGreaterThan(port, 0)
            XCTAssertEqual(server.boundPort, port)
            var seen: (method: String, path: String, query: [String: String], raw: String?, header: String?, remote: String)?
            server.addHandler("/a") { message in
                seen = (message.method, message.path, message.query, message.rawQuery, message.requestHeader("X-Probe"),
                        message.remoteAddress)
                message.setStatus(201)
                message.setResponseHeader("X-Answer", "42")
                message.setBody(Bytes("made"), contentType: "text/plain")
            }
            let result = try XCTUnwrap(fetch("http://127.0.0.1:\(port)/a/b%20c?x=1&y=caf%C3%A9+au+lait&empty=",
                                             session: makeTestSession(), headers: ["X-Probe": "yes"]))
            XCTAssertEqual(result.status, 201)
            XCTAssertEqual(result.text, "made")
            XCTAssertEqual(result.headers["Server"], "BindingTest")
            let request = try XCTUnwrap(seen)
            XCTAssertEqual(request.method, "GET")
            XCTAssertEqual(request.path, "/a/b c", "paths arrive decoded")
            XCTAssertEqual(request.query, ["x": "1", "y": "café au lait", "empty": ""])
            XCTAssertEqual(request.raw, "x=1&y=caf%C3%A9+au+lait&empty=")
            XCTAssertEqual(request.header, "yes")
            XCTAssertTrue(request.remote.hasPrefix("127.0.0.1:"), request.remote)
        }
    }

    func testPausedMessageIsAnsweredLater() throws {
        try MainActor.assumeIsolated {
            let server = Soup.Server()
            defer { server.disconnect() }
            let port = try server.listenLocal()
            server.addHandler(nil) { message in
                message.pause()
                MainLoopSource.after(milliseconds: 150) {
                    message.setStatus(200)
                    message.setBody(Bytes("later"), contentType: "text/plain")
                    message.unpause()
                }
            }
            let result = try XCTUnwrap(fetch("http://127.0.0.1:\(port)/", session: makeTestSession()))
            XCTAssertEqual(result.text, "later")
            XCTAssertGreaterThanOrEqual(result.elapsed, 0.12)
        }
    }

    func testCallsAfterFinishAreIgnored() throws {
        // Run with G_DEBUG=fatal-criticals: touching a finished SoupMessage would abort the test process.
        try MainActor.assumeIsolated {
            let server = Soup.Server()
            defer { server.disconnect() }
            let port = try server.listenLocal()
            var finishedMessage: Soup.ServerMessage?
            server.addHandler(nil) { message in
                message.setStatus(200)
                message.setBody(Bytes("done"), contentType: "text/plain")
                message.onFinished { finishedMessage = message }
            }
            XCTAssertEqual(try XCTUnwrap(fetch("http://127.0.0.1:\(port)/", session: makeTestSession())).text, "done")
            XCTAssertTrue(iterateMainLoop(until: { finishedMessage != nil }, timeout: 60))
            let message = try XCTUnwrap(finishedMessage)
            XCTAssertTrue(message.isFinished)
            message.pause()
            message.unpause()
            message.setStatus(500)
            message.appendBody(Bytes("x"), range: 0..<1)
            message.completeBody()
            message.abortConnection()
            message.abortWhenClientDisconnects()
            var late = false
            message.onFinished { late = true }
            XCTAssertTrue(late, "onFinished after the fact runs at once")
        }
    }

    func testAbortedConnectionIsAnErrorForTheClient() throws {
        try MainActor.assumeIsolated {
            let server = Soup.Server()
            defer { server.disconnect() }
            let port = try server.listenLocal()
            let payload = Bytes([UInt8](repeating: 7, count: 100_000))
            server.addHandler(nil) { message in
                message.setStatus(200)
                message.beginStreamingBody(contentType: "application/octet-stream", contentLength: payload.count)
                message.onWroteChunk { MainLoopSource.idle { message.abortConnection() } }
                message.appendBody(payload, range: 0..<30_000)
            }
            let result = try XCTUnwrap(fetch("http://127.0.0.1:\(port)/", session: makeTestSession()))
            XCTAssertEqual(result.status, 200)
            XCTAssertEqual(result.contentLength, 100_000)
            XCTAssertTrue(result.error?.matches(G_IO_ERROR_PARTIAL_INPUT) == true,
                          "a short body must be an error, not a short image: \(String(describing: result.error))")
            XCTAssertEqual(result.body.count, 30_000)
        }
    }

    func testClientHangingUpFinishesAStuckResponse() throws {
        try MainActor.assumeIsolated {
            let server = Soup.Server()
            defer { server.disconnect() }
            let port = try server.listenLocal()
            var finished = false
            server.addHandler(nil) { message in
                message.setStatus(200)
                message.beginStreamingBody(contentType: "application/octet-stream", contentLength: 10_000)
                message.appendBody(Bytes([UInt8](repeating: 1, count: 10_000)), range: 0..<100)
                message.onFinished { finished = true }
                message.abortWhenClientDisconnects()
            }
            let result = try XCTUnwrap(fetch("http://127.0.0.1:\(port)/", session: makeTestSession(ioTimeoutSeconds: 1)))
            XCTAssertNotNil(result.error)
            XCTAssertTrue(iterateMainLoop(until: { finished }, timeout: 60),
                          "the server must notice the client left (libsoup alone does not while the body waits)")
        }
    }

    func testDisconnectEndsPausedResponses() throws {
        try MainActor.assumeIsolated {
            let server = Soup.Server()
            let port = try server.listenLocal()
            var paused: Soup.ServerMessage?
            var finished = false
            server.addHandler(nil) { message in
                message.pause()
                message.onFinished { finished = true }
                paused = message
            }
            var result: FetchResult?
            let session = makeTestSession()
            startFetch("http://127.0.0.1:\(port)/", session: session) { result = $0 }
            XCTAssertTrue(iterateMainLoop(until: { paused != nil }, timeout: 60))
            server.disconnect()
            XCTAssertTrue(iterateMainLoop(until: { finished && result != nil }, timeout: 60))
            XCTAssertNotNil(result?.error)
            XCTAssertNil(server.boundPort, "no longer listening")
        }
    }
}
