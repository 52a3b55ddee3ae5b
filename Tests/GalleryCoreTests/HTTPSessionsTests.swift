import CGLib
import GObjectBindings
import TestSupport
import XCTest
@testable import GalleryCore

/// The sessions an `HTTPClient` replaced (cache cleared, address policy narrowed) finish what they carry and
/// are then let go, against a real SoupServer on 127.0.0.1.
final class HTTPSessionsTests: GLibTestCase {
    func testReplacedSessionsFinishTheirRequestsAndAreThenLetGo() throws {
        try MainActor.assumeIsolated {
            let server = try TestHTTPServer()
            let body = Bytes(PatternBytes.make(count: 200_000, key: "kept"))
            server.route("/img/*") { _ in TestResponse.bytes(body, contentType: "image/png") }
            let sessions = HTTPSessions(configuration: .init(), cache: nil)
            // Each session's requests stay in flight until the test reads their bodies: their headers came,
            // 200 KB do not fit in the socket buffers, so the server is still sending.
            var streams: [ReadableStream] = []
            var failures: [String] = []
            var replaced: [WeakObject] = []
            for round in 0..<4 {
                for index in 0..<2 {
                    let message = try XCTUnwrap(Soup.Message(url: server.url("/img/\(round)-\(index).png")))
                    sessions.current.send(message, cancellable: Cancellable()) { result in
                        switch result {
                        case .success(let stream): streams.append(stream)
                        case .failure(let error): failures.append(error.message)
                        }
                    }
                }
                XCTAssertTrue(iterateMainLoop(until: { streams.count + failures.count == 2 * (round + 1) }, timeout: 60))
                replaced.append(WeakObject(sessions.current.ref.pointer))
                sessions.replace()
            }
            XCTAssertEqual(failures, [])
            drainMainLoop()
            XCTAssertEqual(sessions.keptSessionCount, 5, "each replaced session is kept while its requests are in flight")
            XCTAssertTrue(replaced.allSatisfy(\.isAlive))

            // Read every body to its end: each arrives whole (nothing was aborted), and each session goes once
            // its last request is done with.
            var received: [Int] = []
            for stream in streams { Self.readToEnd(stream) { received.append($0) } }
            XCTAssertTrue(iterateMainLoop(until: { received.count == streams.count }, timeout: 120))
            XCTAssertEqual(received, Array(repeating: body.count, count: 8), "every response arrived whole")
            streams.removeAll()
            XCTAssertTrue(iterateMainLoop(until: { sessions.keptSessionCount == 1 }, timeout: 60),
                          "only the current session is kept: \(sessions.keptSessionCount)")
            XCTAssertTrue(iterateMainLoop(until: { !replaced.contains(where: \.isAlive) }, timeout: 60),
                          "the replaced sessions were finalized")

            // A session replaced with nothing in flight goes at once; the current one still works.
            let idle = WeakObject(sessions.current.ref.pointer)
            sessions.replace()
            XCTAssertTrue(iterateMainLoop(until: { sessions.keptSessionCount == 1 && !idle.isAlive }, timeout: 60))
            let message = try XCTUnwrap(Soup.Message(url: server.url("/img/last.png")))
            var last: Int?
            sessions.current.send(message, cancellable: Cancellable()) { result in
                guard case .success(let stream) = result else { return last = -1 }
                Self.readToEnd(stream) { last = $0 }
            }
            XCTAssertTrue(iterateMainLoop(until: { last != nil }, timeout: 60))
            XCTAssertEqual(last, body.count)
            XCTAssertEqual(sessions.keptSessionCount, 1)
        }
    }

    /// Reads `stream` to its end and calls back with the bytes read (-1 on an error).
    @MainActor
    static func readToEnd(_ stream: ReadableStream, count: Int = 0, completion: @escaping @MainActor (Int) -> Void) {
        stream.read(maxBytes: 65_536, cancellable: Cancellable()) { result in
            switch result {
            case .success(let bytes) where bytes.count == 0:
                stream.close()
                completion(count)
            case .success(let bytes): readToEnd(stream, count: count + bytes.count, completion: completion)
            case .failure: completion(-1)
            }
        }
    }
}

/// A GLib weak reference: whether an object was finalized.
@MainActor
final class WeakObject {
    private let reference = UnsafeMutablePointer<GWeakRef>.allocate(capacity: 1)

    init(_ object: UnsafeMutableRawPointer) { g_weak_ref_init(reference, object) }

    var isAlive: Bool {
        guard let object = g_weak_ref_get(reference) else { return false }
        g_object_unref(object)
        return true
    }

    isolated deinit {
        g_weak_ref_clear(reference)
        reference.deallocate()
    }
}
