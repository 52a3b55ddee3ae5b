import CGLib
import GObjectBindings
import TestSupport
import XCTest
@testable import GalleryCore

/// The disk cache (libsoup's SoupCache through HTTPClient) against a real SoupServer on 127.0.0.1: what is
/// stored, what comes back in the next session without a request, the size cap, clearing, and stored copies
/// standing in when the server cannot be reached.
final class HTTPCacheTests: GLibTestCase {
    /// Bytes that differ per URL, so a body served for the wrong URL shows: what `PatternBodies` serves.
    static func body(for path: String, size: Int) -> [UInt8] { PatternBytes.make(count: size, key: path) }

    /// Serves `/img/NAME` as `size` bytes with `cacheControl` (nil: no header), `/feed?page=N` as uncacheable text.
    @MainActor
    static func server(cacheControl: String? = "public, max-age=86400", size: Int = 8_000) throws -> TestHTTPServer {
        let server = try TestHTTPServer()
        let bodies = PatternBodies(size: size)
        server.route("/img/*") { request in
            var response = TestResponse.bytes(bodies.body(for: request.path), contentType: "image/png")
            if let cacheControl { response = response.header("Cache-Control", cacheControl) }
            return response
        }
        return server
    }

    @MainActor
    static func imageRequests(_ server: TestHTTPServer) -> Int { server.requestLog.filter { $0.hasPrefix("/img/") }.count }

    /// A session: a new cache on `folder` (its index read from disk) and a client using it.
    @MainActor
    static func session(_ folder: TemporaryFolder, maxBytes: Int = 10_000_000,
                        maxEntries: Int = HTTPCache.defaultMaxEntriesAfterTrim) -> (HTTPCache, HTTPClient) {
        let cache = HTTPCache(directory: folder.path + "/http", maxBytes: maxBytes, maxEntriesAfterTrim: maxEntries)
        return (cache, HTTPClient(cache: cache))
    }

    @MainActor
    static func fetchAll(_ paths: [String], from server: TestHTTPServer, with client: HTTPClient,
                         file: StaticString = #filePath, line: UInt = #line) {
        for path in paths {
            let result = fetch(server.url(path), with: client)
            XCTAssertTrue(try result?.get().body.array == body(for: path, size: 8_000),
                          "\(path): \(String(describing: result.map { $0.map(\.body.count) }))", file: file, line: line)
        }
    }

    /// A session that fetches `paths`, lets them reach the disk and quits (writes the index).
    @MainActor
    static func storeAndQuit(_ paths: [String], from server: TestHTTPServer, in folder: TemporaryFolder,
                             maxBytes: Int = 10_000_000) {
        let (cache, client) = session(folder, maxBytes: maxBytes)
        fetchAll(paths, from: server, with: client)
        cache.finishWrites()
        cache.dump()
    }

    /// Numbered entry files in the cache directory (libsoup names them by the URL's hash).
    static func entryFiles(_ directory: String) -> [String] {
        DirectoryScan.names(in: directory).filter { $0.first?.isNumber == true }
    }

    // MARK: Tests

    func testWhatWasFetchedOnceComesFromDiskInTheNextSessionWithoutARequest() throws {
        try MainActor.assumeIsolated {
            let server = try Self.server()
            let folder = TemporaryFolder(prefix: "gallery-cache")
            let paths = (1...12).map { "/img/\($0).png" }
            do {
                let (cache, client) = Self.session(folder)
                Self.fetchAll(paths, from: server, with: client)
                XCTAssertEqual(Self.imageRequests(server), 12)
                cache.finishWrites()
                Self.fetchAll(paths, from: server, with: client)
                XCTAssertEqual(Self.imageRequests(server), 12, "fresh entries are answered from disk in the same session")
                cache.dump()
            }
            XCTAssertTrue(DirectoryScan.names(in: folder.path + "/http").contains("soup.cache2"), "the index was written")

            let (cache, client) = Self.session(folder)
            XCTAssertFalse(cache.isReady, "the index is read on a worker")
            // Sent before the index is read: the request waits for it instead of going to the network.
            Self.fetchAll(paths, from: server, with: client)
            XCTAssertTrue(cache.isReady)
            XCTAssertEqual(Self.imageRequests(server), 12, "the second session asked the server for nothing")
            XCTAssertEqual(cache.loadReport?.trim?.entriesAfter, 12, "nothing to trim in a cache this empty")
        }
    }

    func testWithoutTheIndexTheNextSessionAsksAgain() throws {
        try MainActor.assumeIsolated {
            let server = try Self.server()
            let folder = TemporaryFolder(prefix: "gallery-cache")
            let paths = (1...4).map { "/img/\($0).png" }
            do {
                let (cache, client) = Self.session(folder)
                Self.fetchAll(paths, from: server, with: client)
                cache.finishWrites()
                // No dump: a crash, or a quit that never reached the app's shutdown.
            }
            let (cache, client) = Self.session(folder)
            Self.fetchAll(paths, from: server, with: client)
            XCTAssertEqual(Self.imageRequests(server), 8, "nothing was kept without the index")
            cache.finishWrites()
            XCTAssertEqual(Self.entryFiles(folder.path + "/http").count, 4,
                           "the files the lost index named were deleted when the index was read, then stored anew")
        }
    }

    func testResponsesTheServerForbidsToStoreAreAskedForEveryTime() throws {
        try MainActor.assumeIsolated {
            let server = try Self.server(cacheControl: "no-store")
            let folder = TemporaryFolder(prefix: "gallery-cache")
            let (cache, client) = Self.session(folder)
            for _ in 1...3 {
                Self.fetchAll(["/img/a.png"], from: server, with: client)
                cache.finishWrites()
            }
            XCTAssertEqual(Self.imageRequests(server), 3)
            XCTAssertEqual(Self.entryFiles(folder.path + "/http"), [])
        }
    }

    func testTheSizeCapHoldsWithinASession() throws {
        try MainActor.assumeIsolated {
            let server = try Self.server()
            let folder = TemporaryFolder(prefix: "gallery-cache")
            // libsoup stores nothing over a tenth of the cap: 8 KB entries fit a 100 KB cache, twelve at most.
            let (cache, client) = Self.session(folder, maxBytes: 100_000)
            let paths = (1...40).map { "/img/\($0).png" }
            Self.fetchAll(paths, from: server, with: client)
            cache.finishWrites()
            // libsoup makes room for a new entry by evicting stored ones, but passes over an entry whose file is
            // still being written (its cancel reaches no write) and stores the new one anyway. Its write
            // callbacks run at G_PRIORITY_LOW, which back-to-back fetches on a loaded core can starve for the
            // whole run, so that every entry is kept. Once the writes are done, the next response stored evicts
            // back to the cap: that is the bound the app has.
            Self.fetchAll(["/img/next.png"], from: server, with: client)
            cache.finishWrites()
            let stored = DirectoryScan.totalFileBytes(in: folder.path + "/http")
            XCTAssertLessThanOrEqual(stored, 100_000, "the cache stays under its cap")
            XCTAssertGreaterThanOrEqual(stored, 80_000, "and is used up to it")

            server.resetCounters()
            Self.fetchAll(paths, from: server, with: client)
            XCTAssertGreaterThanOrEqual(Self.imageRequests(server), 28, "what did not fit was asked for again")
        }
    }

    func testEachStartTrimsTheOldestEntriesToLeaveRoom() throws {
        try MainActor.assumeIsolated {
            let server = try Self.server()
            let folder = TemporaryFolder(prefix: "gallery-cache")
            let paths = (1...20).map { "/img/\($0).png" }
            // 160 KB in a 200 KB cache: over the three quarters the next start trims it to.
            Self.storeAndQuit(paths, from: server, in: folder, maxBytes: 200_000)
            let (cache, client) = Self.session(folder, maxBytes: 200_000)
            XCTAssertTrue(iterateMainLoop(until: { cache.isReady }, timeout: 60))
            let trim = try XCTUnwrap(cache.loadReport?.trim)
            XCTAssertEqual(trim.entriesBefore, 20)
            XCTAssertEqual(trim.entriesAfter, 18, "two 8 KB entries make 144 KB of 150 KB")
            XCTAssertLessThanOrEqual(trim.bytesAfter, 150_000)
            XCTAssertEqual(Self.entryFiles(folder.path + "/http").count, 18, "the dropped entries' files are set aside")
            XCTAssertTrue(iterateMainLoop(until: {
                !DirectoryScan.names(in: folder.path + "/http").contains { $0.hasPrefix(Soup.CacheIndex.droppedFilePrefix) }
            }, timeout: 60), "and deleted once the cache is in use")
            XCTAssertEqual(DirectoryScan.names(in: folder.path + "/http").count, 19, "18 entries and the index")

            server.resetCounters()
            Self.fetchAll(Array(paths.suffix(18)), from: server, with: client)
            XCTAssertEqual(Self.imageRequests(server), 0, "the newest entries are kept")
            Self.fetchAll(Array(paths.prefix(2)), from: server, with: client)
            XCTAssertEqual(Self.imageRequests(server), 2, "the oldest were dropped")
        }
    }

    func testEachStartKeepsAtMostTheNewestEntriesItReadsQuickly() throws {
        try MainActor.assumeIsolated {
            let server = try Self.server()
            let folder = TemporaryFolder(prefix: "gallery-cache")
            let paths = (1...20).map { "/img/\($0).png" }
            Self.storeAndQuit(paths, from: server, in: folder)
            let (cache, client) = Self.session(folder, maxEntries: 12)
            XCTAssertTrue(iterateMainLoop(until: { cache.isReady }, timeout: 60))
            XCTAssertEqual(cache.loadReport?.trim?.entriesAfter, 12, "well under the bytes, over the entries")
            XCTAssertEqual(Self.entryFiles(folder.path + "/http").count, 12)
            server.resetCounters()
            Self.fetchAll(Array(paths.suffix(12)), from: server, with: client)
            XCTAssertEqual(Self.imageRequests(server), 0, "the newest twelve are kept")
        }
    }

    func testTheTrimChoosesTheOldestAndOfOneSecondTheLaterInTheIndex() {
        typealias Entry = Soup.CacheIndex.Entry
        // Index order is libsoup's: of two entries stored in the same second the later one is the older.
        let entries = [Entry(storedAt: 300, bodyBytes: 10), Entry(storedAt: 100, bodyBytes: 10),
                       Entry(storedAt: 200, bodyBytes: 10), Entry(storedAt: 200, bodyBytes: 10),
                       Entry(storedAt: 400, bodyBytes: 10)]
        XCTAssertEqual(HTTPCacheTrim.entriesToDrop(entries, toBytes: 50, maxEntries: 5), [], "within both limits")
        XCTAssertEqual(HTTPCacheTrim.entriesToDrop(entries, toBytes: 40, maxEntries: 5), [1], "the oldest")
        XCTAssertEqual(HTTPCacheTrim.entriesToDrop(entries, toBytes: 30, maxEntries: 5), [1, 3])
        XCTAssertEqual(HTTPCacheTrim.entriesToDrop(entries, toBytes: 1_000, maxEntries: 2), [1, 3, 2], "by count alone")
        XCTAssertEqual(HTTPCacheTrim.entriesToDrop(entries, toBytes: 0, maxEntries: 5).count, 5)
        let big = [Entry(storedAt: 1, bodyBytes: 5), Entry(storedAt: 2, bodyBytes: 100), Entry(storedAt: 3, bodyBytes: 5)]
        XCTAssertEqual(HTTPCacheTrim.entriesToDrop(big, toBytes: 50, maxEntries: 10), [0, 1],
                       "by age, not by size: the newest small one stays")
    }

    func testClearRemovesEverythingAndSaysHowMuch() throws {
        try MainActor.assumeIsolated {
            let server = try Self.server()
            let folder = TemporaryFolder(prefix: "gallery-cache")
            let (cache, client) = Self.session(folder)
            let paths = (1...10).map { "/img/\($0).png" }
            Self.fetchAll(paths, from: server, with: client)
            cache.finishWrites()
            var measured: Int?
            cache.measureBytes { measured = $0 }
            XCTAssertTrue(iterateMainLoop(until: { measured != nil }, timeout: 60))
            XCTAssertGreaterThanOrEqual(measured ?? 0, 80_000)

            var freed: Int?
            client.clearCache { freed = $0 }
            XCTAssertTrue(iterateMainLoop(until: { freed != nil }, timeout: 60))
            XCTAssertEqual(freed, measured, "the bytes freed are the bytes stored")
            XCTAssertEqual(DirectoryScan.names(in: folder.path), ["http"], "nothing left beside the (new, empty) cache")
            XCTAssertEqual(DirectoryScan.names(in: folder.path + "/http"), [])

            Self.fetchAll(paths, from: server, with: client)
            XCTAssertEqual(Self.imageRequests(server), 20, "everything is asked for again")
            cache.finishWrites()
            Self.fetchAll(paths, from: server, with: client)
            XCTAssertEqual(Self.imageRequests(server), 20, "and the new cache stores it")
        }
    }

    func testClearingWithRequestsInFlightLetsThemFinish() throws {
        try MainActor.assumeIsolated {
            let server = try TestHTTPServer()
            let bodies = PatternBodies(size: 8_000)
            server.route("/slow/*") { request in
                TestResponse.bytes(bodies.body(for: request.path), contentType: "image/png")
                    .header("Cache-Control", "max-age=600").throttled(bytesPerSecond: 20_000)
            }
            let folder = TemporaryFolder(prefix: "gallery-cache")
            let (cache, client) = Self.session(folder)
            XCTAssertTrue(iterateMainLoop(until: { cache.isReady }, timeout: 60))
            var results: [String: Result<HTTPResponse, HTTPError>] = [:]
            let paths = (1...4).map { "/slow/\($0).png" }
            for path in paths {
                client.fetch(HTTPRequest(url: server.url(path), maxBodyBytes: 100_000), cancellable: Cancellable()) {
                    results[path] = $0
                }
            }
            XCTAssertTrue(iterateMainLoop(until: { server.requestCount == 4 }, timeout: 60))
            var freed: Int?
            client.clearCache { freed = $0 }
            XCTAssertTrue(iterateMainLoop(until: { results.count == 4 && freed != nil }, timeout: 60))
            for path in paths {
                XCTAssertTrue(try results[path]?.get().body.array == Self.body(for: path, size: 8_000), "\(path) finished")
            }
            // The new cache works, and clears again.
            server.route("/img/*") { request in
                TestResponse.bytes(bodies.body(for: request.path), contentType: "image/png")
                    .header("Cache-Control", "max-age=600")
            }
            Self.fetchAll(["/img/a.png"], from: server, with: client)
            cache.finishWrites()
            Self.fetchAll(["/img/a.png"], from: server, with: client)
            XCTAssertEqual(Self.imageRequests(server), 1)
            freed = nil
            client.clearCache { freed = $0 }
            XCTAssertTrue(iterateMainLoop(until: { freed != nil }, timeout: 60))
            Self.fetchAll(["/img/a.png"], from: server, with: client)
            XCTAssertEqual(Self.imageRequests(server), 2)
            // The last fetch's entry is written before the folder goes.
            cache.finishWrites()
        }
    }

    func testAStoredCopyStandsInWhenTheServerCannotBeReached() throws {
        try MainActor.assumeIsolated {
            // Stale at once: while the server answers, every request goes to it.
            let server = try Self.server(cacheControl: "max-age=0")
            let folder = TemporaryFolder(prefix: "gallery-cache")
            let (cache, client) = Self.session(folder)
            Self.fetchAll(["/img/kept.png"], from: server, with: client)
            cache.finishWrites()
            Self.fetchAll(["/img/kept.png"], from: server, with: client)
            cache.finishWrites()
            XCTAssertEqual(Self.imageRequests(server), 2, "a stale entry is not used while the server answers")

            let keptURL = server.url("/img/kept.png")
            let neverURL = server.url("/img/never.png")
            server.stop()
            let kept = fetch(keptURL, with: client)
            XCTAssertTrue(try kept?.get().body.array == Self.body(for: "/img/kept.png", size: 8_000),
                          "the stored copy, however stale: \(String(describing: kept.map { $0.map(\.body.count) }))")
            let never = fetch(neverURL, with: client)
            XCTAssertEqual(never?.failureValue?.isUnreachable, true, "nothing stored: the network error")
        }
    }

    /// Only a GET can have a stored copy: a POST that times out is not sent a second time (Misskey's API).
    func testAPostThatCannotBeAnsweredIsNotSentTwice() throws {
        try MainActor.assumeIsolated {
            let server = try TestHTTPServer()
            var methods: [String] = []
            server.route("/api/slow") { request in
                methods.append(request.method + " " + request.body)
                return TestResponse.text("[]", contentType: "application/json").delayed(milliseconds: 3000)
            }
            let folder = TemporaryFolder(prefix: "gallery-cache")
            let cache = HTTPCache(directory: folder.path + "/http", maxBytes: 10_000_000)
            let client = HTTPClient(configuration: .init(ioTimeoutSeconds: 1), cache: cache)
            let post = fetch(server.url("/api/slow"), with: client, method: "POST", body: #"{"a":1}"#)
            XCTAssertEqual(post?.failureValue?.isUnreachable, true, "\(String(describing: post))")
            XCTAssertEqual(methods, [#"POST {"a":1}"#], "the body went, once")
            methods.removeAll()
            let get = fetch(server.url("/api/slow"), with: client)
            XCTAssertEqual(get?.failureValue?.isUnreachable, true)
            XCTAssertEqual(methods, ["GET ", "GET "], "a GET is asked once more for a stored copy")
            // The server drops each delayed answer once its client has gone.
            XCTAssertTrue(iterateMainLoop(until: { server.responsesInFlight == 0 }, timeout: 60))
        }
    }

    func testWithoutACacheNothingStandsIn() throws {
        try MainActor.assumeIsolated {
            let server = try Self.server()
            let client = HTTPClient()
            Self.fetchAll(["/img/a.png"], from: server, with: client)
            let url = server.url("/img/a.png")
            server.stop()
            XCTAssertEqual(fetch(url, with: client)?.failureValue?.isUnreachable, true)
        }
    }
}
