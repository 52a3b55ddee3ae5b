import CGLib
import GObjectBindings
import TestSupport
import XCTest
@testable import GalleryCore

/// The app's cache directory (private, one process at a time), its size setting in the state file, and
/// Clear Cache over both the HTTP cache and the saved page.
final class DiskCacheTests: GLibTestCase {
    static func mode(_ path: String) -> UInt32? {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o777 : nil
    }

    func testTheDirectoryIsPrivateAndBelongsToOneProcessAtATime() throws {
        try MainActor.assumeIsolated {
            let folder = TemporaryFolder(prefix: "gallery-disk")
            let directory = folder.path + "/cache/gallery-viewer"
            let cache = try XCTUnwrap(DiskCache.open(directory: directory, settings: .init()))
            XCTAssertEqual(Self.mode(directory), 0o700)
            XCTAssertEqual(cache.http.maxBytes, 256 * 1_048_576)
            XCTAssertNil(DiskCache.open(directory: directory, settings: .init()),
                         "a second user of the same directory (another process) gets none")
            XCTAssertTrue(iterateMainLoop(until: { cache.http.isReady }, timeout: 60))
        }
    }

    func testWhatAKilledProcessLeftOfItsWritesIsRemovedWhenTheCacheOpens() throws {
        try MainActor.assumeIsolated {
            let folder = TemporaryFolder(prefix: "gallery-disk")
            let directory = folder.path + "/gallery-viewer"
            XCTAssertTrue(FileSystem.makePrivateDirectory(directory + "/http"))
            // As g_file_set_contents and GIO's replace leave them when the process dies before the rename.
            let leftovers = [directory + "/last-gallery.thumbnails.AbC123", directory + "/last-gallery.json.dEf456",
                             directory + "/.goutputstream-GhI789", directory + "/http/soup.cache2.JkL012"]
            let hourAgo = timeval(tv_sec: time(nil) - 3600, tv_usec: 0)
            for path in leftovers {
                XCTAssertTrue(g_file_set_contents(path, "partial", -1, nil) != 0, path)
                XCTAssertEqual(utimes(path, [hourAgo, hourAgo]), 0, path)
            }
            let cache = try XCTUnwrap(DiskCache.open(directory: directory, settings: .init()))
            XCTAssertTrue(iterateMainLoop(until: { cache.http.isReady && leftovers.allSatisfy { DirectoryScan.fileBytes(at: $0) == nil } },
                                          timeout: 60), "left: \(leftovers.filter { DirectoryScan.fileBytes(at: $0) != nil })")
        }
    }

    func testAnOldWiderDirectoryIsNarrowedAndZeroTurnsTheCacheOff() {
        MainActor.assumeIsolated {
            let folder = TemporaryFolder(prefix: "gallery-disk")
            let directory = folder.path + "/gallery-viewer"
            g_mkdir_with_parents(directory, 0o755)
            XCTAssertNil(DiskCache.open(directory: directory, settings: CacheSettings(megabytes: 0)))
            let cache = DiskCache.open(directory: directory, settings: CacheSettings(megabytes: 1))
            XCTAssertEqual(Self.mode(directory), 0o700)
            XCTAssertEqual(cache?.http.maxBytes, 1_048_576)
            if let cache { XCTAssertTrue(iterateMainLoop(until: { cache.http.isReady }, timeout: 60)) }
        }
    }

    func testClearEmptiesTheHTTPCacheAndTheSavedPageAndSaysHowMuch() throws {
        try MainActor.assumeIsolated {
            let server = try TestHTTPServer()
            let image = [UInt8](repeating: 7, count: 30_000)
            server.route("/img/*") { _ in TestResponse.bytes(image, contentType: "image/png").header("Cache-Control", "max-age=600") }
            let folder = TemporaryFolder(prefix: "gallery-disk")
            let cache = try XCTUnwrap(DiskCache.open(directory: folder.path + "/gallery-viewer", settings: .init()))
            let client = HTTPClient(cache: cache.http)
            for name in ["a", "b", "c"] { XCTAssertNotNil(try fetch(server.url("/img/\(name).png"), with: client)?.get()) }
            cache.http.finishWrites()
            var saved = false
            cache.snapshots.onSaved = { _ in saved = true }
            let reply = FeedSnapshot.Reply(request: PageRequest(url: server.url("/feed")),
                                           response: HTTPResponse(head: .init(status: 200, reason: "OK", url: server.url("/feed")),
                                                                  body: Bytes(Array(repeating: 65, count: 5_000))))
            cache.snapshots.save(FeedSnapshot(firstURL: server.url("/feed"), savedAt: 0, replies: [reply]))
            XCTAssertTrue(iterateMainLoop(until: { saved }, timeout: 60))

            var measured: Int?
            cache.measureBytes { measured = $0 }
            XCTAssertTrue(iterateMainLoop(until: { measured != nil }, timeout: 60))
            XCTAssertGreaterThan(measured ?? 0, 95_000, "three images and the page")

            var freed: Int?
            cache.clear(through: client) { freed = $0 }
            XCTAssertTrue(iterateMainLoop(until: { freed != nil }, timeout: 60))
            XCTAssertEqual(freed, measured)
            XCTAssertNil(DirectoryScan.fileBytes(at: cache.snapshots.path))
            XCTAssertEqual(DirectoryScan.names(in: cache.http.directory), [])
            XCTAssertNotNil(try fetch(server.url("/img/a.png"), with: client)?.get())
            XCTAssertEqual(server.requestLog.filter { $0.hasPrefix("/img/") }.count, 4, "asked for again after the clear")
        }
    }

    func testTheSizeSettingIsReadFromTheStateFile() {
        XCTAssertEqual(CacheSettings.parse(""), CacheSettings(megabytes: 256))
        XCTAssertEqual(CacheSettings.parse("[cache]\nmax-size-mb=64\n").maxBytes, 64 * 1_048_576)
        XCTAssertFalse(CacheSettings.parse("[cache]\nmax-size-mb=0\n").isEnabled)
        XCTAssertEqual(CacheSettings.parse("[cache]\nmax-size-mb=lots\n").megabytes, 256, "not a number: the default")
        XCTAssertEqual(CacheSettings.parse("[cache]\nmax-size-mb=-5\n").megabytes, 256)
        XCTAssertEqual(CacheSettings.parse("[cache]\nmax-size-mb=99999999999\n").maxBytes, 4095 * 1_048_576, "libsoup's limit")
        XCTAssertEqual(CacheSettings.parse("\u{FF}\u{0}garbage").megabytes, 256)
    }

    func testSavingTheLastSearchKeepsTheSettingAndCommentsAndShowsTheDefault() {
        MainActor.assumeIsolated {
            let folder = TemporaryFolder(prefix: "gallery-state")
            folder.write(Array("# mine\n[cache]\nmax-size-mb=64\n\n[last-search]\nsource=demo\nusername=old\n".utf8), to: "state.ini")
            let store = RecentSearchStore(path: folder.path + "/state.ini")
            XCTAssertEqual(store.lastSearch, RecentSearch(source: .demo, username: "old"))
            var saved = false
            store.onSaved = { _ in saved = true }
            store.save(RecentSearch(source: .mastodon, username: "alice@mastodon.social"))
            XCTAssertTrue(iterateMainLoop(until: { saved }, timeout: 60))
            let text = String(decoding: folder.contents("state.ini") ?? [], as: UTF8.self)
            XCTAssertTrue(text.contains("# mine"), text)
            XCTAssertEqual(store.cacheSettings.megabytes, 64, "read with the search, from the same text")
            let reread = RecentSearchStore(path: folder.path + "/state.ini")
            XCTAssertEqual(reread.cacheSettings.megabytes, 64, text)
            XCTAssertEqual(reread.lastSearch, RecentSearch(source: .mastodon, username: "alice@mastodon.social"))

            let fresh = TemporaryFolder(prefix: "gallery-state")
            let newStore = RecentSearchStore(path: fresh.path + "/state.ini")
            saved = false
            newStore.onSaved = { _ in saved = true }
            newStore.save(RecentSearch(source: .demo, username: "aurora"))
            XCTAssertTrue(iterateMainLoop(until: { saved }, timeout: 60))
            let written = String(decoding: fresh.contents("state.ini") ?? [], as: UTF8.self)
            XCTAssertTrue(written.contains("max-size-mb=256"), "the setting is there to be found: \(written)")
            XCTAssertTrue(written.contains("# Disk cache size in MB"), written)
        }
    }
}
