import GObjectBindings
import GalleryHostileServer
import TestSupport
import XCTest
@testable import GalleryCore

/// No request a feed can turn against the user: credentials in a URL are never sent, a public gallery cannot
/// reach into the user's network, https is never followed to http. Real SoupServers on 127.0.0.1; "public"
/// and "private" come from `AddressGate.treatedAsPublic`, so no public network is needed.
final class RequestSafetyTests: GLibTestCase {
    static let image = PatternBytes.make(count: 20_000, key: "image")
    static let loopback: [UInt8] = [127, 0, 0, 1]

    @MainActor
    private static func fetch(_ url: String, with client: HTTPClient) -> Result<HTTPResponse, HTTPError> {
        var result: Result<HTTPResponse, HTTPError>?
        client.fetch(HTTPRequest(url: url, maxBodyBytes: 1_000_000), cancellable: Cancellable()) { result = $0 }
        XCTAssertTrue(iterateMainLoop(until: { result != nil }, timeout: 120), "\(url) never completed")
        return result ?? .failure(.cancelled)
    }

    @MainActor
    private static func imageServer() throws -> TestHTTPServer {
        let server = try TestHTTPServer()
        server.route("/img") { _ in .bytes(image, contentType: "image/png") }
        return server
    }

    /// libsoup's auth manager would answer each 401 with the URL's user:password (Basic, or Digest and its
    /// crashes); the client has none, and drops the credentials from the URL too.
    func testCredentialsInAURLAreNeverSentNotEvenAfterA401() throws {
        try MainActor.assumeIsolated {
            let server = try TestHTTPServer()
            var authorizations: [String] = []
            for scheme in ["basic", "digest"] {
                server.route("/\(scheme)") { request in
                    if let sent = request.header("Authorization") {
                        authorizations.append(sent)
                        return .bytes(Self.image, contentType: "image/png")
                    }
                    let challenge = scheme == "basic" ? "Basic realm=\"gallery\""
                        : "Digest realm=\"gallery\", nonce=\"0123456789abcdef\", qop=\"auth\", algorithm=MD5"
                    return TestResponse.status(401).header("WWW-Authenticate", challenge)
                }
            }
            let withCredentials = server.baseURL.replacingOccurrences(of: "http://", with: "http://user:secret@")
            server.route("/hop") { _ in .redirect(to: withCredentials + "/basic") }
            let client = HTTPClient()
            for path in ["/basic", "/digest", "/hop"] {
                let result = Self.fetch(withCredentials + path, with: client)
                guard case .success(let response) = result, response.head.status == 401 else {
                    return XCTFail("\(path): the 401 is the answer, not \(result)")
                }
            }
            XCTAssertEqual(authorizations, [], "no credentials were ever sent")
            XCTAssertEqual(server.requestLog, ["/basic", "/digest", "/hop", "/basic"], "no request was repeated with credentials")
        }
    }

    /// The endpoint is "public" (127.0.0.2, counted as public, serves nothing): the image server on 127.0.0.1 is
    /// private, by its address and by a name (localhost) that resolves to it.
    func testAPublicGallerysMediaOnAPrivateAddressIsRefusedAfterNameResolution() throws {
        try MainActor.assumeIsolated {
            let server = try Self.imageServer()
            let client = HTTPClient()
            client.addresses.treatedAsPublic = [[127, 0, 0, 2]]
            client.useEndpoint("http://127.0.0.2:1")
            let named = server.baseURL.replacingOccurrences(of: "127.0.0.1", with: "localhost")
            for url in [server.url("/img"), named + "/img"] {
                guard case .failure(.refused(.privateAddress(let address))) = Self.fetch(url, with: client) else {
                    return XCTFail("\(url) must be refused")
                }
                XCTAssertTrue(["127.0.0.1", "::1"].contains(address), address)
            }
            XCTAssertEqual(server.requestCount, 0, "no connection was made")
            XCTAssertEqual(HTTPError.refused(.privateAddress("127.0.0.1")).message,
                           "Refused: 127.0.0.1 is on a private network, and this gallery is not")
        }
    }

    /// Behind a proxy every connection goes to the proxy (which resolves names itself): its address says
    /// nothing about the request's, so nothing is refused by address then.
    func testBehindAProxyAddressesAreNotJudged() throws {
        try MainActor.assumeIsolated {
            let server = try Self.imageServer()
            let client = HTTPClient()
            client.addresses.treatedAsPublic = [[127, 0, 0, 2]]
            client.useEndpoint("http://127.0.0.2:1")
            guard case .failure(.refused) = Self.fetch(server.url("/img"), with: client) else { return XCTFail("refused without a proxy") }
            // The system's own answer first, so that it cannot come after the one set here.
            XCTAssertTrue(iterateMainLoop(until: { client.addresses.usesProxy != nil }, timeout: 60))
            client.addresses.usesProxy = true
            guard case .success = Self.fetch(server.url("/img"), with: client) else { return XCTFail("not judged behind a proxy") }
        }
    }

    /// A disk-cached answer needs no connection, so no address is checked: a response stored while a private
    /// gallery was open (the endpoint 127.0.0.1) would be served to a public one (127.0.0.2). It is not: for a
    /// private literal, or a name once reached on a private address, a public gallery's request skips the cache
    /// and is refused at its connection.
    func testAPrivateHostsCachedAnswerIsNotServedToAPublicGallery() throws {
        try MainActor.assumeIsolated {
            let server = try TestHTTPServer()
            server.route("/img") { _ in TestResponse.bytes(Self.image, contentType: "image/png").header("Cache-Control", "public, max-age=86400") }
            let folder = TemporaryFolder(prefix: "gallery-cache")
            let (cache, client) = HTTPCacheTests.session(folder)
            client.addresses.treatedAsPublic = [[127, 0, 0, 2]]
            client.useEndpoint(server.baseURL)
            let named = server.baseURL.replacingOccurrences(of: "127.0.0.1", with: "localhost") + "/img"
            for url in [server.url("/img"), named] {
                guard case .success = Self.fetch(url, with: client) else { return XCTFail("\(url) under a private gallery") }
            }
            cache.finishWrites()
            for url in [server.url("/img"), named] {
                guard case .success = Self.fetch(url, with: client) else { return XCTFail("\(url) from the cache") }
            }
            XCTAssertEqual(server.requestCount, 2, "the private gallery's second fetches came from the cache")

            client.useEndpoint("http://127.0.0.2:1")
            for url in [server.url("/img"), named] {
                guard case .failure(.refused(.privateAddress)) = Self.fetch(url, with: client) else {
                    return XCTFail("\(url): a private host's stored answer was served to a public gallery")
                }
            }
            XCTAssertEqual(server.requestCount, 2, "no connection was made")
        }
    }

    /// The same server is the gallery's own endpoint: a private one, so its media may be private too.
    func testAGalleryOnAPrivateAddressMayUsePrivateAddresses() throws {
        try MainActor.assumeIsolated {
            let server = try Self.imageServer()
            let client = HTTPClient()
            client.useEndpoint(server.baseURL)
            let named = server.baseURL.replacingOccurrences(of: "127.0.0.1", with: "localhost")
            for url in [server.url("/img"), named + "/img"] {
                guard case .success(let response) = Self.fetch(url, with: client) else { return XCTFail(url) }
                XCTAssertEqual(response.body.count, Self.image.count)
            }
        }
    }

    /// Through the feed: `GalleryFeed` gives its endpoint to the client, whose policy then refuses the hostile
    /// server's private media (the server itself, on 127.0.0.1, counts as public here).
    func testAFeedsEndpointDecidesAndItsPrivateMediaAreRefused() throws {
        try MainActor.assumeIsolated {
            let server = HostileServer()
            try server.start()
            let client = HTTPClient()
            client.addresses.treatedAsPublic = [Self.loopback]
            let source = try SourceKind.demo.makeSource(username: HostileFeed.privateMedia.rawValue, endpointOverride: server.baseURL)
            let run = loadEveryPage(source, client: client)
            let items = run.pages.flatMap { $0 }
            XCTAssertEqual(items.map(\.id), ["public", "private-0", "private-1", "private-2"])
            let before = server.requestCount
            var refused: [String] = []
            for item in items {
                switch Self.fetch(try XCTUnwrap(item.fullImageURL), with: client) {
                case .success: XCTAssertEqual(item.id, "public")
                case .failure(.refused(.privateAddress(let address))): refused.append(address)
                case .failure(let error): XCTFail("\(item.id): \(error)")
                }
            }
            XCTAssertEqual(refused.count, 3, "\(refused)")
            XCTAssertTrue(refused.contains("10.0.0.1") && refused.contains("::1"), "\(refused)")
            XCTAssertEqual(server.requestCount - before, 1, "only the public image was asked for")
        }
    }

    /// A public image (127.0.0.1 counted as public) that redirects to a private address: refused at the hop.
    func testARedirectToAPrivateAddressIsRefused() throws {
        try MainActor.assumeIsolated {
            let server = try Self.imageServer()
            let port = URLComponents(string: server.baseURL)!.port!
            server.route("/hop") { _ in .redirect(to: "http://10.0.0.1:\(port)/img") }
            server.route("/hop6") { _ in .redirect(to: "http://[::ffff:192.168.0.1]:\(port)/img") }
            let client = HTTPClient()
            client.addresses.treatedAsPublic = [Self.loopback]
            client.useEndpoint(server.baseURL)
            guard case .success = Self.fetch(server.url("/img"), with: client) else { return XCTFail("a public image") }
            let hop = Self.fetch(server.url("/hop"), with: client)
            guard case .failure(.refused(.privateAddress("10.0.0.1"))) = hop else {
                return XCTFail("the redirect to 10.0.0.1 must be refused, not \(hop)")
            }
            guard case .failure(.refused(.privateAddress(let mapped))) = Self.fetch(server.url("/hop6"), with: client) else {
                return XCTFail("the redirect to a v4-mapped private address must be refused")
            }
            XCTAssertTrue(mapped.hasSuffix("192.168.0.1"), mapped)
        }
    }

    /// An endpoint named by a host name is decided once the name is resolved; its own requests go at once,
    /// and a redirect of theirs to another host is judged strictly meanwhile: refused whenever it comes.
    func testARedirectFromAnEndpointByNameIsRefusedBeforeAndAfterTheDecision() throws {
        try MainActor.assumeIsolated {
            let server = try Self.imageServer()
            let port = URLComponents(string: server.baseURL)!.port!
            server.route("/hop") { _ in .redirect(to: "http://10.0.0.1:\(port)/img") }
            let client = HTTPClient()
            client.addresses.treatedAsPublic = [Self.loopback, [UInt8](repeating: 0, count: 15) + [1]]
            client.useEndpoint("http://localhost:\(port)")
            guard case .failure(.refused(.privateAddress("10.0.0.1"))) = Self.fetch("http://localhost:\(port)/hop", with: client) else {
                return XCTFail("the redirect to 10.0.0.1 must be refused")
            }
            XCTAssertTrue(iterateMainLoop(until: { client.addresses.decidedPolicy != nil }, timeout: 60), "decided")
            XCTAssertEqual(client.addresses.policy.allowsPrivateAddresses, false, "localhost counts as public here")
            guard case .success = Self.fetch("http://localhost:\(port)/img", with: client) else { return XCTFail("the endpoint's image") }
            guard case .failure(.refused(.privateAddress("10.0.0.1"))) = Self.fetch("http://localhost:\(port)/hop", with: client) else {
                return XCTFail("the redirect to 10.0.0.1 must be refused after the decision too")
            }
        }
    }

    func testAnHTTPSRequestIsNeverFollowedToHTTP() throws {
        try MainActor.assumeIsolated {
            let plain = try Self.imageServer()
            let secure = try Soup.Server(serverHeader: "RequestSafetyTests", tlsCertificatePEM: Fixtures.path("tls/self-signed.pem"))
            defer { secure.disconnect() }
            secure.addHandler("/") { message in
                if message.path == "/img" {
                    message.setStatus(200)
                    message.setBody(Bytes(Self.image), contentType: "image/png")
                } else {
                    message.setStatus(302)
                    message.setResponseHeader("Location", plain.url("/img"))
                }
            }
            try secure.listenLocal(https: true)
            let origin = "https://127.0.0.1:\(secure.boundPort!)"
            let client = HTTPClient(configuration: .init(trustedCertificatesFile: Fixtures.path("tls/self-signed.pem")))
            guard case .success = Self.fetch(origin + "/img", with: client) else { return XCTFail("the https image itself") }
            guard case .failure(.refused(.insecureRedirect)) = Self.fetch(origin + "/downgrade", with: client) else {
                return XCTFail("https → http must be refused")
            }
            XCTAssertEqual(plain.requestCount, 0, "nothing was asked over http")
        }
    }

    /// At the edges of each range, in each form that carries an IPv4 address.
    func testTheAddressClassification() {
        let privateV4: [[UInt8]] = [[0, 0, 0, 0], [10, 0, 0, 1], [127, 0, 0, 1], [127, 255, 255, 255], [169, 254, 1, 1],
                                    [172, 16, 0, 1], [172, 31, 255, 255], [192, 168, 0, 1], [100, 64, 0, 1], [100, 127, 255, 255],
                                    [224, 0, 0, 1], [255, 255, 255, 255]]
        let publicV4: [[UInt8]] = [[1, 1, 1, 1], [9, 255, 255, 255], [11, 0, 0, 0], [126, 255, 255, 255], [128, 0, 0, 0],
                                   [169, 253, 0, 1], [172, 15, 255, 255], [172, 32, 0, 0], [192, 167, 0, 1], [100, 63, 0, 1],
                                   [100, 128, 0, 0], [223, 255, 255, 255], [93, 184, 216, 34]]
        for address in privateV4 {
            XCTAssertTrue(AddressPolicy.isPrivate(address), "\(address)")
            XCTAssertTrue(AddressPolicy.isPrivate([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF] + address), "mapped \(address)")
            XCTAssertTrue(AddressPolicy.isPrivate([0, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0] + address), "NAT64 \(address)")
            XCTAssertTrue(AddressPolicy.isPrivate([0x20, 0x02] + address + [UInt8](repeating: 0, count: 10)), "6to4 \(address)")
        }
        for address in publicV4 {
            XCTAssertFalse(AddressPolicy.isPrivate(address), "\(address)")
            XCTAssertFalse(AddressPolicy.isPrivate([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF] + address), "mapped \(address)")
        }
        func v6(_ first: UInt8, _ second: UInt8, last: UInt8 = 1) -> [UInt8] { [first, second] + [UInt8](repeating: 0, count: 13) + [last] }
        XCTAssertTrue(AddressPolicy.isPrivate([UInt8](repeating: 0, count: 16)), "::")
        XCTAssertTrue(AddressPolicy.isPrivate([UInt8](repeating: 0, count: 15) + [1]), "::1")
        for address in [v6(0xFC, 0), v6(0xFD, 0xFF), v6(0xFE, 0x80), v6(0xFE, 0xBF), v6(0xFE, 0xC0), v6(0xFF, 0x02)] {
            XCTAssertTrue(AddressPolicy.isPrivate(address), "\(address)")
        }
        for address in [v6(0x20, 0x01), v6(0xFB, 0xFF), v6(0xFE, 0x7F), v6(0x26, 0x00)] {
            XCTAssertFalse(AddressPolicy.isPrivate(address), "\(address)")
        }
        XCTAssertTrue(AddressPolicy.isPrivate([1, 2, 3]), "not an address")
        let policy = AddressPolicy(allowsPrivateAddresses: false, treatedAsPublic: [Self.loopback])
        XCTAssertFalse(policy.refuses(Self.loopback))
        XCTAssertTrue(policy.refuses([127, 0, 0, 2]))
        XCTAssertFalse(AddressPolicy(allowsPrivateAddresses: true).refuses([10, 0, 0, 1]))
    }
}
