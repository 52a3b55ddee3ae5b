import GObjectBindings
import GalleryDemoServer
import TestSupport
import XCTest
@testable import GalleryCore

/// The Commons source against the demo server on 127.0.0.1, as `--source commons --endpoint DEMO` runs it:
/// the MediaWiki API's allimages listing with imageinfo, paged by merging each reply's `continue` until a
/// reply has none; every demo upload arrives once, newest first, with its date, size and description, the
/// videos and sounds among them as media.
final class DemoCommonsTests: GLibTestCase {
    /// Bounds a run only when something is broken; a healthy one takes well under a second.
    private static let timeout = 120.0

    func testEveryDemoItemArrivesOncePagedByContinue() throws {
        try MainActor.assumeIsolated {
            let server = try startDemoServer()
            defer { server.stop() }
            for name in ["aurora", "atlas"] {
                let user = try XCTUnwrap(server.catalog.user(named: name))
                let source = try CommonsSource(username: name, endpointOverride: server.baseURL)
                XCTAssertEqual(source.username, SourceKind.commons.descriptor.demoUsername(name), "MediaWiki's form of the name")
                let logStart = server.requestLog.count
                let run = loadEveryPage(source, timeout: Self.timeout)
                XCTAssertEqual(run.feed.state, .finished, name)
                let items = run.pages.joined()
                XCTAssertEqual(items.map(\.id), user.items.map { String($0.id) }, "\(name): every picture once, newest first")
                // A sound has no thumbnail; a video's is its still frame (the demo's: the item's picture).
                XCTAssertEqual(items.map(\.thumbnails.first?.url), user.items.map {
                    DemoMedia.commonsUpload($0)?.isSound == true ? nil : server.baseURL + $0.imagePath(thumbnailLongSide: 300)
                })
                XCTAssertGreaterThan(user.items.compactMap(DemoMedia.commonsUpload).count, 1, "\(name) has videos and sounds")
                for (item, demo) in zip(items, user.items) {
                    XCTAssertEqual(item.title, String(demo.fileName.prefix { $0 != "." }), "the file's name")
                    XCTAssertEqual(item.pageURL, server.baseURL + demo.pagePath, "the file's description page")
                    XCTAssertEqual(item.published, demo.published, "the upload's date")
                    XCTAssertEqual(item.altText, demo.altText, "the description")
                    XCTAssertEqual(item.author, source.username)
                    if let media = DemoMedia.commonsUpload(demo) {
                        // Every seventh upload is a WebM video or an Ogg sound: played from its own file.
                        XCTAssertEqual(item.kind, media.isSound ? .audio : .video, demo.fileName)
                        XCTAssertEqual(item.media?.url, server.baseURL + media.path)
                        XCTAssertEqual(item.media?.durationMilliseconds, Int(media.duration * 1000))
                        XCTAssertNil(item.fullImageURL)
                        XCTAssertEqual(item.width, media.size?.width)
                        XCTAssertEqual(item.height, media.size?.height)
                        XCTAssertTrue(item.savedFile()?.isMedia == true, "--download saves the file itself")
                        continue
                    }
                    XCTAssertEqual(item.kind, .image)
                    // Types gdk-pixbuf cannot decode itself are shown through the rendering, as on Commons.
                    let direct = CommonsItemBuilder.directTypes.contains(demo.format.mediaType)
                    XCTAssertEqual(item.fullImageURL, server.baseURL + demo.imagePath(thumbnailLongSide: direct ? nil : 300), demo.fileName)
                    XCTAssertEqual(item.width, demo.width)
                    XCTAssertEqual(item.height, demo.height)
                }

                // Pages of 24 files, each after the first continuing where the last ended; the users list once.
                let pages = Array(server.requestLog.dropFirst(logStart).filter { $0.hasPrefix("/w/api.php?") })
                let expected = (user.items.count + CommonsSource.pageSize - 1) / CommonsSource.pageSize
                XCTAssertEqual(pages.count, expected, "\(name): \(user.items.count) files, \(CommonsSource.pageSize) a page")
                let continued = pages.map { URLText.queryValue("gaicontinue", in: "http://x" + $0) }
                XCTAssertNil(continued.first ?? nil, "the first page starts at the newest upload")
                let starts = stride(from: CommonsSource.pageSize, to: user.items.count, by: CommonsSource.pageSize)
                XCTAssertEqual(continued.dropFirst().map { $0?.split(separator: "|").last.map(String.init) },
                               starts.map { DemoCommons.uploadName(user.items[$0]) }, "each page starts where the last one ended")
            }
        }
    }

    func testMissingEmptyAndBrokenDemoUsersGetTheirMessages() throws {
        try MainActor.assumeIsolated {
            let server = try startDemoServer()
            defer { server.stop() }
            let source = { (name: String) in try CommonsSource(username: name, endpointOverride: server.baseURL) }
            XCTAssertEqual(loadEveryPage(try source("nobody"), timeout: Self.timeout).feed.state,
                           .failed(.noSuchUser(service: "Wikimedia Commons", username: "Nobody")))
            XCTAssertEqual(loadEveryPage(try source("empty"), timeout: Self.timeout).feed.state, .failed(.emptyGallery(username: "Empty")))
            guard case .failed(.malformedResponse(let service, _)) = loadEveryPage(try source("brokenfeed"), timeout: Self.timeout).feed.state
            else { return XCTFail("a cut-off reply is malformed") }
            XCTAssertEqual(service, "Wikimedia Commons")
        }
    }

    /// What the source does not ask for is answered as MediaWiki does: API errors with status 200 and the
    /// `MediaWiki-API-Error` header, which the source turns into messages.
    func testRequestsOutsideTheListingAreAPIErrors() throws {
        try MainActor.assumeIsolated {
            let server = try startDemoServer()
            defer { server.stop() }
            let session = makeTestSession()
            let base = server.baseURL + "/w/api.php?format=json&formatversion=2"
            for query in ["&action=parse&page=Main", "&action=query&list=allusers", "&action=query&generator=allimages&gaiuser=Aurora&gaicontinue=x"] {
                let reply = try XCTUnwrap(fetch(base + query, session: session, timeout: Self.timeout), query)
                XCTAssertEqual(reply.status, 200, query)
                XCTAssertTrue(reply.text.hasPrefix(#"{"error":{"code":""#), reply.text)
            }
            let source = try CommonsSource(username: "aurora", endpointOverride: server.baseURL)
            var request = source.firstRequest()
            request.url += "&gaicontinue=nonsense"
            let run = loadEveryPage(StartingAt(source: source, request: request), timeout: Self.timeout)
            guard case .failed(.malformedResponse(_, let detail)) = run.feed.state else {
                return XCTFail("a continuation the server does not know: \(run.feed.state)")
            }
            XCTAssertTrue(detail.contains("badcontinue"), detail)
        }
    }
}

/// A source that starts at a request of the test's choosing.
private struct StartingAt: GallerySource {
    let source: CommonsSource
    let request: PageRequest
    var kind: SourceKind { source.kind }
    var username: String { source.username }
    var endpoint: Endpoint { source.endpoint }
    func firstRequest() -> PageRequest { request }
    func parse(_ response: HTTPResponse, of request: PageRequest) throws(GalleryError) -> PageResult {
        try source.parse(response, of: request)
    }
    func nextRequestAhead(_ response: HTTPResponse, of request: PageRequest) -> PageRequest? { nil }
}
