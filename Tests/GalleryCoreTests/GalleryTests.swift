import Foundation
import XCTest
import GObjectBindings
import TestSupport
@testable import GalleryCore

final class GalleryTests: GLibTestCase {
    private static func item(_ guid: String, _ url: String) -> String {
        """
        <item><guid>\(guid)</guid><title>\(guid)</title>
        <media:content url="\(url)" medium="image"/></item>
        """
    }

    func testTheSameImageTwiceGetsOneRowButTheSameFileNameDoesNot() throws {
        try MainActor.assumeIsolated {
            let server = try TestHTTPServer()
            // Pleroma and Akkoma store every upload as ".../<id>/image.png": same name, different images.
            let feed = """
                <rss xmlns:media="http://search.yahoo.com/mrss/"><channel>
                \(Self.item("a", server.url("/img/sunset.jpg")))
                \(Self.item("b", server.url("/img/sunset.jpg")))
                \(Self.item("c", server.url("/elsewhere/SUNSET.jpg")))
                \(Self.item("d", server.url("/media/1/image.png")))
                \(Self.item("e", server.url("/media/2/image.png")))
                \(Self.item("d", server.url("/media/3/image.png")))
                </channel></rss>
                """
            server.route("/rss.xml") { _ in .text(feed, contentType: "application/rss+xml") }
            let client = HTTPClient()
            let gallery = Gallery(source: try DeviantArtSource(username: "x", endpointOverride: server.baseURL),
                                  client: client, pipeline: ImagePipeline(client: client))
            gallery.start()
            XCTAssertTrue(iterateMainLoop(until: { gallery.feed.state == .finished }, timeout: 60))
            XCTAssertEqual(gallery.downloads.map(\.item.id), ["a", "c", "d", "e"],
                           "the same URL or the same id is one row; the same file name is not")
            XCTAssertEqual(gallery.duplicatesSkipped, 2)
            XCTAssertEqual(gallery.summary, "4 images")
        }
    }

    func testTheLastSearchIsRememberedPrivatelyAndWithoutBlocking() throws {
        try MainActor.assumeIsolated {
            let folder = TemporaryFolder()
            defer { withExtendedLifetime(folder) {} }  // removed only once the test is done with it
            let directory = folder.path + "/gallery-viewer"
            let store = RecentSearchStore(path: directory + "/state.ini")
            var saves: [GLibError?] = []
            store.onSaved = { saves.append($0) }
            XCTAssertNil(store.lastSearch)
            store.save(RecentSearch(source: .mastodon, username: "alice@mastodon.social"))
            XCTAssertEqual(saves.count, 0, "written on GIO's threads, after save() returned")
            store.save(RecentSearch(source: .commons, username: "Müller = [x]; #y"))
            XCTAssertTrue(iterateMainLoop(until: { saves.count == 2 }, timeout: 60), "both saves end")
            XCTAssertEqual(saves.compactMap { $0 }.count, 0)
            XCTAssertEqual(RecentSearchStore(path: store.path).lastSearch, RecentSearch(source: .commons, username: "Müller = [x]; #y"),
                           "the newest wins; key-file special characters survive")
            XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: directory)[.posixPermissions] as? Int, 0o700)
            XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: directory + "/state.ini")[.posixPermissions] as? Int,
                           0o600)
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory)
            XCTAssertEqual(leftovers, ["state.ini"], "no temporary file is left behind")
        }
    }

    func testTheViewModeIsRememberedBesideTheLastSearch() throws {
        try MainActor.assumeIsolated {
            let folder = TemporaryFolder()
            defer { withExtendedLifetime(folder) {} }
            let path = folder.path + "/gallery-viewer/state.ini"
            let store = RecentSearchStore(path: path)
            var saves = 0
            store.onSaved = { _ in saves += 1 }
            XCTAssertNil(store.viewMode, "no file: the list, the app's default")
            store.save(viewMode: .grid)
            store.save(RecentSearch(source: .demo, username: "aurora"))
            XCTAssertTrue(iterateMainLoop(until: { saves == 2 }, timeout: 60))
            let reread = RecentSearchStore(path: path)
            XCTAssertEqual(reread.viewMode, .grid, "a later search does not undo the view")
            XCTAssertEqual(reread.lastSearch, RecentSearch(source: .demo, username: "aurora"))

            // The next launch saves a search only: the view it started with stays.
            reread.onSaved = { _ in saves += 1 }
            reread.save(RecentSearch(source: .mastodon, username: "alice@mastodon.social"))
            XCTAssertTrue(iterateMainLoop(until: { saves == 3 }, timeout: 60))
            XCTAssertEqual(RecentSearchStore(path: path).viewMode, .grid)
            reread.save(viewMode: .list)
            XCTAssertTrue(iterateMainLoop(until: { saves == 4 }, timeout: 60))
            let third = RecentSearchStore(path: path)
            XCTAssertEqual(third.viewMode, .list)
            XCTAssertEqual(third.lastSearch, RecentSearch(source: .mastodon, username: "alice@mastodon.social"),
                           "and the view does not undo the search")
            let text = try String(contentsOfFile: path, encoding: .utf8)
            XCTAssertTrue(text.contains("[view]\nmode=list"), text)
        }
    }

    /// A launch opens the New view again when it was on screen last, and the last search once one followed it.
    func testTheNewViewIsRememberedUntilTheNextSearch() {
        MainActor.assumeIsolated {
            let folder = TemporaryFolder()
            defer { withExtendedLifetime(folder) {} }
            let path = folder.path + "/gallery-viewer/state.ini"
            let store = RecentSearchStore(path: path)
            var saves = 0
            store.onSaved = { _ in saves += 1 }
            XCTAssertFalse(store.showedNewImages)
            store.save(RecentSearch(source: .demo, username: "aurora"))
            store.saveShowingNewImages()
            XCTAssertTrue(iterateMainLoop(until: { saves == 2 }, timeout: 60))
            let reread = RecentSearchStore(path: path)
            XCTAssertTrue(reread.showedNewImages)
            XCTAssertEqual(reread.lastSearch, RecentSearch(source: .demo, username: "aurora"), "the search stays for the entry")
            reread.onSaved = { _ in saves += 1 }
            reread.save(RecentSearch(source: .demo, username: "atlas"))
            XCTAssertTrue(iterateMainLoop(until: { saves == 3 }, timeout: 60))
            XCTAssertFalse(RecentSearchStore(path: path).showedNewImages, "a search after it: the gallery opens next time")
        }
    }

    func testTheSlideshowIntervalIsRememberedAndAnUnofferedOneIsIgnored() throws {
        try MainActor.assumeIsolated {
            let folder = TemporaryFolder()
            defer { withExtendedLifetime(folder) {} }
            let path = folder.path + "/gallery-viewer/state.ini"
            let store = RecentSearchStore(path: path)
            var saves = 0
            store.onSaved = { _ in saves += 1 }
            XCTAssertNil(store.slideshowInterval, "no file: the app's default")
            store.save(viewMode: .grid)
            store.save(slideshowInterval: .long)
            XCTAssertTrue(iterateMainLoop(until: { saves == 2 }, timeout: 60))
            let reread = RecentSearchStore(path: path)
            XCTAssertEqual(reread.slideshowInterval, .long)
            XCTAssertEqual(reread.viewMode, .grid, "the interval keeps the view")
            let text = try String(contentsOfFile: path, encoding: .utf8)
            XCTAssertTrue(text.contains("[slideshow]\ninterval=10"), text)

            try "[slideshow]\ninterval=1\n".write(toFile: path, atomically: true, encoding: .utf8)
            XCTAssertNil(RecentSearchStore(path: path).slideshowInterval, "one second is not offered: the default")
        }
    }

    func testAnUnknownViewModeMeansTheList() throws {
        let folder = TemporaryFolder()
        defer { withExtendedLifetime(folder) {} }
        let path = folder.path + "/state.ini"
        try Data("[view]\nmode=mosaic\n[last-search]\nsource=demo\nusername=x\n".utf8).write(to: URL(fileURLWithPath: path))
        MainActor.assumeIsolated {
            let store = RecentSearchStore(path: path)
            XCTAssertNil(store.viewMode, "a mode a later version wrote")
            XCTAssertEqual(store.lastSearch, RecentSearch(source: .demo, username: "x"), "the rest of the file still counts")
        }
    }

    func testACorruptStateFileMeansDefaults() throws {
        let folder = TemporaryFolder()
        defer { withExtendedLifetime(folder) {} }
        let directory = folder.path
        for (name, contents) in [("binary", Data([0xFF, 0xFE, 0x00, 0x9B, 0x1B])),
                                 ("unknown-source", Data("[last-search]\nsource=myspace\nusername=x\n".utf8)),
                                 ("half", Data("[last-search]\nsource=mast".utf8))] {
            let path = directory + "/" + name
            try contents.write(to: URL(fileURLWithPath: path))
            MainActor.assumeIsolated {
                let store = RecentSearchStore(path: path)
                XCTAssertNil(store.lastSearch, name)
                XCTAssertEqual(store.cacheSettings, CacheSettings(), name)
                XCTAssertNil(store.viewMode, name)
            }
        }
    }
}
