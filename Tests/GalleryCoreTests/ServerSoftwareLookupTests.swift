import CGLib
import GObjectBindings
import GalleryDemoServer
import TestSupport
import XCTest
@testable import GalleryCore

/// Telling Mastodon from Misskey for a `/@NAME` link by NodeInfo, against a real local SoupServer: the
/// endpoint override stands for the link's server (`askingAt`), as it does in the app.
final class ServerSoftwareLookupTests: GLibTestCase {
    static func document(software: String, version: String = "2.1") -> String {
        NodeInfoFixture.document(software: software, version: version)
    }

    static func discovery(_ links: [(version: String, href: String)]) -> String { NodeInfoFixture.discovery(links) }

    /// A server whose discovery links to `/nodeinfo/2.1` on the link's own host (as real servers write it).
    @MainActor
    static func server(software: String) throws -> TestHTTPServer {
        let server = try TestHTTPServer()
        server.route("/.well-known/nodeinfo") { _ in
            .text(discovery([("2.0", "https://example.social/nodeinfo/2.0"), ("2.1", "https://example.social/nodeinfo/2.1")]),
                  contentType: "application/json")
        }
        server.route("/nodeinfo/2.1") { _ in .text(document(software: software), contentType: "application/json") }
        server.route("/nodeinfo/2.0") { _ in .text(document(software: "wrong-version", version: "2.0"), contentType: "application/json") }
        return server
    }

    /// The lookup's own deadline (10 s) is a product limit, not a bound on the machine's speed: the tests
    /// that are not about it give it two minutes, as long as they wait (a 1 MB discovery document parsed under
    /// AddressSanitizer on a loaded machine took longer than 10 s).
    nonisolated static let patientLimits = ServerSoftwareLookup.Limits(deadlineMilliseconds: 120_000)

    @MainActor
    static func lookUp(_ server: TestHTTPServer, limits: ServerSoftwareLookup.Limits = patientLimits,
                       host: String = "example.social") -> Result<SourceKind, GalleryError>? {
        var result: Result<SourceKind, GalleryError>?
        let lookup = ServerSoftwareLookup(client: HTTPClient(), limits: limits)
        lookup.sourceKind(forServer: host, askingAt: server.baseURL) { result = $0 }
        iterateMainLoop(until: { result != nil }, timeout: 180)
        return result
    }

    func testMastodonAndMisskeyFamiliesAreToldApart() throws {
        try MainActor.assumeIsolated {
            for (software, kind) in [("mastodon", SourceKind.mastodon), ("misskey", .misskey), ("sharkey", .misskey),
                                     ("firefish", .misskey), ("Iceshrimp.NET", .mastodon), ("akkoma", .mastodon),
                                     ("gotosocial", .mastodon), ("pleroma", .mastodon), ("cherrypick", .misskey)] {
                let server = try Self.server(software: software)
                XCTAssertEqual(try Self.lookUp(server)?.get(), kind, software)
                XCTAssertEqual(server.requestLog, ["/.well-known/nodeinfo", "/nodeinfo/2.1"],
                               "\(software): the highest schema version, on the override")
            }
        }
    }

    func testOtherSoftwareIsNamedNotGuessed() throws {
        try MainActor.assumeIsolated {
            let server = try Self.server(software: "lemmy")
            let failure = Self.lookUp(server).failureValue()
            XCTAssertEqual(failure, .unsupportedServer(server: "example.social", software: "lemmy"))
            XCTAssertEqual(failure?.title, "example.social runs lemmy")
        }
    }

    func testBrokenHugeAndMissingRepliesSayWhy() throws {
        try MainActor.assumeIsolated {
            let cases: [(String, @MainActor @Sendable (TestRequest) -> TestResponse, String)] = [
                ("404", { _ in .status(404) }, "It has no NodeInfo (HTTP 404 Not Found)."),
                ("html", { _ in .html("<html>Welcome</html>") }, "Its NodeInfo could not be read."),
                ("no links", { _ in .text(#"{"links":[]}"#, contentType: "application/json") },
                 "Its NodeInfo links to no document the app reads."),
                ("odd scheme", { _ in
                    .text(Self.discovery([("2.1", "javascript:alert(1)")]), contentType: "application/json") },
                 "Its NodeInfo links to no document the app reads."),
                ("other host", { _ in
                    .text(Self.discovery([("2.1", "https://elsewhere.example/nodeinfo/2.1")]), contentType: "application/json") },
                 "Its NodeInfo links to no document the app reads."),
                ("huge", { _ in .text(String(repeating: " ", count: 200_000) + "{}", contentType: "application/json") },
                 "Its NodeInfo is far larger than any real one."),
            ]
            for (name, discovery, detail) in cases {
                let server = try TestHTTPServer()
                server.route("/.well-known/nodeinfo", discovery)
                XCTAssertEqual(Self.lookUp(server).failureValue(),
                               .unidentifiedServer(server: "example.social", detail: detail), name)
            }
            // A document without a software name, and a name that is no name.
            for body in [#"{"version":"2.1","software":{}}"#, #"{"software":{"name":"\u0000\u0007"}}"#, "[1,2"] {
                let server = try Self.server(software: "unused")
                server.route("/nodeinfo/2.1") { _ in .text(body, contentType: "application/json") }
                XCTAssertNotNil(Self.lookUp(server).failureValue(), body)
            }
            // Links are decoded up to a cap, not all of a million.
            let flood = Self.discovery(Array(repeating: ("9.9", "https://example.social/x"), count: 20_000)
                                       + [("2.1", "https://example.social/nodeinfo/2.1")])
            let server = try Self.server(software: "mastodon")
            server.route("/.well-known/nodeinfo") { _ in .text(flood, contentType: "application/json") }
            XCTAssertEqual(Self.lookUp(server, limits: .init(maxDiscoveryBytes: 4_000_000, deadlineMilliseconds: 120_000)).failureValue(),
                           .unidentifiedServer(server: "example.social", detail: "Its NodeInfo links to no document the app reads."),
                           "the link past the cap is not read")
        }
    }

    func testASlowServerMeetsTheDeadline() throws {
        try MainActor.assumeIsolated {
            let server = try Self.server(software: "mastodon")
            server.route("/nodeinfo/2.1") { _ in
                // Longer than any bound of the test: only the lookup's own deadline can end it.
                TestResponse.text(Self.document(software: "mastodon"), contentType: "application/json").delayed(milliseconds: 600_000)
            }
            let started = g_get_monotonic_time()
            let failure = Self.lookUp(server, limits: .init(deadlineMilliseconds: 500)).failureValue()
            XCTAssertEqual(failure, .unidentifiedServer(server: "example.social", detail: "It did not answer within 1 second."))
            XCTAssertLessThan(Double(g_get_monotonic_time() - started) / 1_000_000, 120, "not the server's 600 s")
            XCTAssertTrue(iterateMainLoop(until: { server.responsesInFlight == 0 }, timeout: 60), "the request was dropped")
        }
    }

    func testARedirectIsFollowedAndAnUnreachableServerIsANetworkError() throws {
        try MainActor.assumeIsolated {
            let server = try Self.server(software: "misskey")
            server.route("/.well-known/nodeinfo") { _ in .redirect(to: "/moved/nodeinfo") }
            server.route("/moved/nodeinfo") { _ in
                .text(Self.discovery([("2.0", "/nodeinfo/2.1")]), contentType: "application/json")
            }
            XCTAssertEqual(try Self.lookUp(server)?.get(), .misskey, "a relative href is resolved against the reply")
            server.stop()
            guard case .failure(.network(let service, _))? = Self.lookUp(server) else { return XCTFail("not a network error") }
            XCTAssertEqual(service, "example.social")
        }
    }

    func testACancelledLookupNeverCallsBack() throws {
        try MainActor.assumeIsolated {
            let server = try Self.server(software: "mastodon")
            var called = false
            let lookup = ServerSoftwareLookup(client: HTTPClient())
            let request = lookup.sourceKind(forServer: "example.social", askingAt: server.baseURL) { _ in called = true }
            request.cancel()
            // The same lookup asked again, to the end: the cancelled one's answers would have come by then.
            var again: Result<SourceKind, GalleryError>?
            lookup.sourceKind(forServer: "example.social", askingAt: server.baseURL) { again = $0 }
            XCTAssertTrue(iterateMainLoop(until: { again != nil && server.responsesInFlight == 0 }, timeout: 60))
            XCTAssertEqual(try again?.get(), .mastodon)
            XCTAssertFalse(called)
        }
    }

    func testTheDemoServerSaysWhatItSpeaks() throws {
        try MainActor.assumeIsolated {
            let demo = try startDemoServer()
            var result: Result<SourceKind, GalleryError>?
            let lookup = ServerSoftwareLookup(client: HTTPClient())
            lookup.sourceKind(forServer: "demo.example", askingAt: demo.baseURL) { result = $0 }
            iterateMainLoop(until: { result != nil }, timeout: 60)
            XCTAssertEqual(try result?.get(), .misskey)
        }
    }
}
