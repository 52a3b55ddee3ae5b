import GObjectBindings
import GalleryDemoServer
import TestSupport
import XCTest
@testable import GalleryCore

/// The registry agrees with the parts that read it: every kind has its own descriptor, every link host is
/// read back as that service, every fediverse service is found from its server's software name, every parser
/// has its fuzz target and seeds, and the demo server answers for every service.
final class ServiceRegistryTests: GLibTestCase {
    func testEveryKindHasItsOwnDescriptor() {
        XCTAssertEqual(SourceKind.descriptors.map(\.kind), SourceKind.allCases)
        let names = SourceKind.allCases.map(\.displayName)
        XCTAssertEqual(Set(names).count, names.count, "one name per service: \(names)")
        for kind in SourceKind.allCases {
            XCTAssertFalse(kind.displayName.isEmpty, "\(kind)")
            XCTAssertFalse(kind.usernamePlaceholder.isEmpty, "\(kind)")
            XCTAssertEqual(SourceKind(rawValue: kind.rawValue), kind, "the state file's name reads back")
        }
    }

    func testEveryLinkHostReadsBackAsItsService() throws {
        var hostsSeen: [String: SourceKind] = [:]
        for service in SourceKind.descriptors where service.readLink != nil {
            let example = try XCTUnwrap(service.profileLinkExample, "\(service.kind): a link reader says what links it reads")
            let exampleHost = try XCTUnwrap(URLComponents(string: example)?.host, example)
            XCTAssertTrue(service.ownsLinkHost(exampleHost), "\(service.kind): its example is on one of its hosts")
            XCTAssertFalse(service.linkHosts.isEmpty)
            var hosts = service.linkHosts
            if service.linkSubdomains { hosts.append("www." + service.linkHosts[0]) }
            for host in hosts {
                if let other = hostsSeen.updateValue(service.kind, forKey: host) {
                    XCTFail("\(host) is claimed by \(other) and \(service.kind)")
                }
                let link = example.replacingOccurrences(of: "://\(exampleHost)/", with: "://\(host)/")
                    .replacingOccurrences(of: "NAME", with: "someone").replacingOccurrences(of: "HANDLE", with: "someone")
                XCTAssertEqual(ProfileLink.read(link), .link(.profile(service.kind, username: "someone")), link)
                // Not a profile: the message shows the service's own example.
                guard case .unusable(.unusableLink(let reason)) = ProfileLink.read("https://\(host)/") else {
                    XCTFail("https://\(host)/ is not a profile")
                    continue
                }
                XCTAssertTrue(reason.contains(example), reason)
            }
        }
        XCTAssertEqual(Set(hostsSeen.values), [.deviantArt, .bluesky, .commons])
        guard case .unusable = ProfileLink.read("https://example.org/someone") else {
            return XCTFail("a host no service owns is not read as a profile")
        }
    }

    func testFediverseServicesAreFoundFromTheirServersSoftware() throws {
        for service in SourceKind.descriptors {
            let fediverse = service.features.contains(.fediverseAddresses)
            XCTAssertEqual(!service.serverSoftware.isEmpty, fediverse, "\(service.kind)")
            for name in service.serverSoftware {
                XCTAssertEqual(ServerSoftware.sourceKind(for: name), service.kind, name)
                XCTAssertEqual(ServerSoftware.sourceKind(for: " \(name.uppercased()) "), service.kind, name)
            }
            // A fediverse link is searched with the source the user chose only when it reads addresses.
            let link = ProfileLink.fediverse(name: "someone", server: "example.org")
            switch link.target(declared: service.kind) {
            case .success(let target)?:
                XCTAssertTrue(fediverse, "\(service.kind)")
                XCTAssertEqual(target.source, service.kind)
                XCTAssertEqual(target.username, "someone@example.org")
            case .failure?: XCTAssertFalse(fediverse, "\(service.kind)")
            case nil: XCTFail("\(service.kind): a declared source decides")
            }
        }
        XCTAssertNil(ServerSoftware.sourceKind(for: "wordpress"))
    }

    func testEveryDescriptorBuildsItsSourceAndComparesNamesItsWay() throws {
        for service in SourceKind.descriptors {
            let source = try service.makeSource(service.demoUsername("aurora"), "http://127.0.0.1:9")
            XCTAssertEqual(source.kind, service.kind)
            XCTAssertEqual(source.endpoint.origin, "http://127.0.0.1:9")
            XCTAssertEqual(try service.kind.makeSource(username: source.username, endpointOverride: nil).kind, service.kind)
            let same = RecentSearch(source: service.kind, username: source.username)
            XCTAssertTrue(same.isSameGallery(as: RecentSearch(source: service.kind, username: source.username)))
            let other = SourceKind.allCases.first { $0 != service.kind }!
            XCTAssertFalse(same.isSameGallery(as: RecentSearch(source: other, username: source.username)))
            let upper = RecentSearch(source: service.kind, username: source.username.uppercased())
            XCTAssertEqual(same.isSameGallery(as: upper), service.usernameMatching != .exact, "\(service.kind)")
        }
        let did = RecentSearch(source: .bluesky, username: "did:plc:abc")
        XCTAssertFalse(did.isSameGallery(as: RecentSearch(source: .bluesky, username: "did:plc:ABC")), "DIDs are exact")
    }

    /// Every parser the network feeds is fuzzed (`make fuzz`), seeded from its recorded replies.
    func testEveryServiceParserHasItsFuzzTargetAndSeeds() throws {
        let root = String(Fixtures.directory.dropLast("/data/fixtures".count))
        let runScript = String(decoding: try XCTUnwrap(fileBytes(atPath: root + "/Tests/Fuzz/run.sh")), as: UTF8.self)
        let manifest = String(decoding: try XCTUnwrap(fileBytes(atPath: root + "/Package.swift")), as: UTF8.self)
        // `targets=(A B \
        //          C)`: what `make fuzz` runs when given no target.
        let list = try XCTUnwrap(runScript.firstRange(of: "|| targets=(").map { runScript[$0.upperBound...] })
        let defaultTargets = list.prefix { $0 != ")" }.split(whereSeparator: { $0 == " " || $0 == "\\" || $0 == "\n" }).map(String.init)
        for service in SourceKind.descriptors {
            guard let target = service.fuzzTarget else {
                XCTAssertNil(service.fixtureFolder, "\(service.kind)")
                continue
            }
            XCTAssertNotNil(fileBytes(atPath: "\(root)/Tests/Fuzz/\(target)/main.swift"), target)
            XCTAssertTrue(manifest.contains("\"\(target)\""), "\(target) is built by Package.swift")
            let folder = try XCTUnwrap(service.fixtureFolder, "\(service.kind)")
            XCTAssertTrue(runScript.contains("\(target)) ls data/fixtures/\(folder)/"), "\(target) is seeded in run.sh")
            XCTAssertTrue(defaultTargets.contains(target), "\(target) is in run.sh's default list \(defaultTargets)")
            XCTAssertFalse(DirectoryScan.names(in: Fixtures.path(folder)).isEmpty, "data/fixtures/\(folder) has replies")
        }
    }

    /// `--source KIND --endpoint DEMO` shows the demo gallery for every service, under the name the descriptor
    /// gives the demo user, which is the one the demo server answers to.
    func testTheDemoServerSpeaksEveryService() throws {
        XCTAssertEqual(SourceKind.bluesky.descriptor.demoUsername("aurora"), DemoBluesky.handle(of: "aurora"))
        XCTAssertEqual(SourceKind.commons.descriptor.demoUsername("aurora"), DemoCommons.username(of: "aurora"))
        try MainActor.assumeIsolated {
            let server = try startDemoServer()
            defer { server.stop() }
            let atlas = try XCTUnwrap(server.catalog.user(named: "atlas"))
            for service in SourceKind.descriptors {
                let source = try service.makeSource(service.demoUsername(atlas.name), server.baseURL)
                // Bounds the run only when something is broken; a healthy one takes well under a second.
                let run = loadEveryPage(source, timeout: 120)
                XCTAssertEqual(run.feed.state, .finished, "\(service.kind)")
                // Each service's rows name the picture's file in their thumbnail's URL (its size varies).
                let files = run.pages.joined().map { $0.thumbnails.first?.url.split(separator: "?").first?.split(separator: "/").last }
                // Commons' sound uploads have no picture (its videos' stills are the items' pictures).
                let expected = atlas.items.map { item in
                    service.kind == .commons && DemoMedia.commonsUpload(item)?.isSound == true ? nil : item.fileName
                }
                XCTAssertEqual(files.map { $0.map(String.init) }, expected, "\(service.kind)")
                XCTAssertGreaterThan(run.pages.count, 1, "\(service.kind) pages (\(service.paging))")
            }
        }
    }
}
