import CGLib
import GObjectBindings
@testable import GalleryDemoServer
import TestSupport
import XCTest

final class DemoCatalogTests: GLibTestCase {
    private func catalog() throws -> DemoCatalog {
        try DemoCatalog(contentsOf: DemoGalleryLocation.catalogPath(in: DemoGalleryLocation.sourceTreeDataDirectory))
    }

    func testAuroraHasTheAwkwardCasesANewcomerShouldSee() throws {
        let aurora = try XCTUnwrap(try catalog().user(named: "aurora"))
        XCTAssertEqual(try catalog().defaultUserName, "aurora")
        XCTAssertEqual(aurora.items.count, 60)
        let longSides = aurora.items.map { max($0.width, $0.height) }
        XCTAssertEqual(longSides.min(), 200)
        XCTAssertEqual(longSides.max(), 4000)
        XCTAssertGreaterThanOrEqual(longSides.filter { $0 >= 3000 }.count, 2)
        XCTAssertEqual(Set(aurora.items.map(\.format)), [.jpeg, .png, .webp, .avif, .gif])
        XCTAssertEqual(Set(aurora.items.filter { $0.frames > 1 }.map(\.format)), [.gif, .webp], "an animation of each")
        XCTAssertTrue(aurora.items.contains { $0.width > $0.height })
        XCTAssertTrue(aurora.items.contains { $0.width < $0.height })
        XCTAssertTrue(aurora.items.contains { $0.width == $0.height })
        XCTAssertTrue(aurora.items.contains { $0.title.contains("&") })
        XCTAssertEqual(aurora.items.filter { $0.title.isEmpty }.count, 1)
        XCTAssertTrue(aurora.items.contains { $0.title == "Café Ωmega 🌊" })
        XCTAssertEqual(aurora.items.filter { $0.rating == .adult }.count, 2)
        XCTAssertEqual(aurora.items.compactMap(\.fault).sorted { $0.rawValue < $1.rawValue },
                       DemoFault.allCases.sorted { $0.rawValue < $1.rawValue }, "each fault exactly once")
        XCTAssertTrue(aurora.items.prefix(DemoFeed.pageSize).contains { $0.fault == .stall },
                      "failures belong on the first page, where a newcomer looks")
    }

    func testOtherUsers() throws {
        let catalog = try catalog()
        let atlas = try XCTUnwrap(catalog.user(named: "atlas"))
        XCTAssertGreaterThanOrEqual(atlas.items.count, 300)
        XCTAssertTrue(atlas.items.allSatisfy { (240...1200).contains(max($0.width, $0.height)) })
        XCTAssertEqual(catalog.user(named: "empty")?.items.count, 0)
        XCTAssertEqual(catalog.user(named: "brokenfeed")?.feedIsBroken, true)
        XCTAssertNil(catalog.user(named: "nobody"))
        XCTAssertNotNil(catalog.user(named: "Aurora"), "user names are case-insensitive, as on DeviantArt")
    }

    func testDerivationIsDeterministic() throws {
        let first = try catalog()
        let second = try catalog()
        XCTAssertEqual(first.allItems, second.allItems)
        XCTAssertEqual(first.fingerprint, second.fingerprint)
        let item = try XCTUnwrap(first.user(named: "aurora")?.items.first)
        XCTAssertEqual(item.fileName, "aurora-001-aurora-over-the-harbour.jpg")
        XCTAssertEqual(item.id, 113_610_001)
        XCTAssertEqual(item.pagePath, "/art/aurora-over-the-harbour-113610001")
    }

    func testNamesAndIDsAreUniqueAndURLSafe() throws {
        let items = try catalog().allItems
        XCTAssertEqual(Set(items.map(\.fileName)).count, items.count)
        XCTAssertEqual(Set(items.map(\.id)).count, items.count)
        for item in items {
            XCTAssertTrue(item.fileName.unicodeScalars.allSatisfy { $0.isASCII && !" ?#%&\"'<>".unicodeScalars.contains($0) },
                          item.fileName)
            XCTAssertTrue(item.fileName.hasSuffix(".\(item.format.fileExtension)"))
        }
        XCTAssertEqual(DemoCatalog.makeSlug("<b>Bold</b> \"Quotes\""), "b-bold-b-quotes")
        XCTAssertEqual(DemoCatalog.makeSlug(""), "untitled")
        XCTAssertEqual(DemoCatalog.makeSlug("🌊"), "untitled")
    }

    func testThumbnailSizes() throws {
        let items = try catalog().allItems
        let big = try XCTUnwrap(items.first { $0.width == 4000 })
        let thumbnail = big.thumbnailSize(longSide: 300)
        XCTAssertEqual(thumbnail.width, 300)
        XCTAssertEqual(Double(thumbnail.height), Double(big.height) * 300 / 4000, accuracy: 1)
        let tiny = try XCTUnwrap(items.first { max($0.width, $0.height) == 200 })
        XCTAssertEqual(tiny.thumbnailSize(longSide: 300).width, tiny.width, "never upscaled")
        XCTAssertEqual(tiny.thumbnailSize(longSide: 150).width, 150)
    }

    func testInvalidSpecsAreRejectedWithAReason() {
        let bad = #"{"defaultUser": "a", "users": [{"name": "A B", "count": 1, "seed": 1}]}"#
        XCTAssertThrowsError(try DemoCatalog(json: Data(bad.utf8))) { error in
            XCTAssertTrue("\(error)".contains("lower-case"), "\(error)")
        }
        let outside = #"{"defaultUser": "a", "users": [{"name": "a", "count": 2, "seed": 1, "special": [{"index": 3}]}]}"#
        XCTAssertThrowsError(try DemoCatalog(json: Data(outside.utf8)))
    }

    func testXMLEscaping() {
        XCTAssertEqual(XMLEscaping.text("a & b < c > d \"q\""), "a &amp; b &lt; c &gt; d \"q\"")
        XCTAssertEqual(XMLEscaping.attribute("\"it's\" & <x>"), "&quot;it&#39;s&quot; &amp; &lt;x&gt;")
        XCTAssertEqual(XMLEscaping.text("bell\u{7}tab\tnull\u{0}ok"), "belltab\tnullok", "XML 1.0 cannot carry C0 controls")
        XCTAssertEqual(XMLEscaping.text("Café Ωmega 🌊"), "Café Ωmega 🌊")
    }

    func testRFC822Dates() {
        XCTAssertEqual(RFC822Date.format(secondsSince1970: 0), "Thu, 01 Jan 1970 00:00:00 GMT")
        XCTAssertEqual(RFC822Date.format(secondsSince1970: 1_717_243_200), "Sat, 01 Jun 2024 12:00:00 GMT")
        XCTAssertEqual(RFC822Date.format(secondsSince1970: 951_782_400 + 3_723), "Tue, 29 Feb 2000 01:02:03 GMT")
        XCTAssertEqual(RFC822Date.format(secondsSince1970: -1), "Wed, 31 Dec 1969 23:59:59 GMT")
    }

    func testLRUCacheEvictsLeastRecentlyUsedByCost() {
        let cache = LRUCache<String, Int>(capacity: 10)
        cache.insert(1, for: "a", cost: 4)
        cache.insert(2, for: "b", cost: 4)
        XCTAssertEqual(cache.value(for: "a"), 1)  // a is now the most recent
        cache.insert(3, for: "c", cost: 4)  // over capacity: b goes
        XCTAssertNil(cache.value(for: "b"))
        XCTAssertEqual(cache.value(for: "a"), 1)
        XCTAssertEqual(cache.value(for: "c"), 3)
        XCTAssertEqual(cache.totalCost, 8)
        cache.insert(4, for: "huge", cost: 11)
        XCTAssertNil(cache.value(for: "huge"), "bigger than the whole cache: not kept")
        cache.insert(5, for: "a", cost: 2)
        XCTAssertEqual(cache.totalCost, 6)
        XCTAssertEqual(cache.count, 2)
    }
}

final class DemoGalleryLocationTests: GLibTestCase {
    private func makeDataDirectory() throws -> String {
        let directory = try XCTUnwrap(takeString(g_dir_make_tmp("demo-data-XXXXXX", nil)))
        g_mkdir_with_parents(directory + "/demo", 0o755)
        let catalog = try XCTUnwrap(try? Data(contentsOf: URL(fileURLWithPath:
            DemoGalleryLocation.catalogPath(in: DemoGalleryLocation.sourceTreeDataDirectory))))
        try catalog.write(to: URL(fileURLWithPath: DemoGalleryLocation.catalogPath(in: directory)))
        addTeardownBlock { try? FileManager.default.removeItem(atPath: directory) }
        return directory
    }

    func testEnvironmentWinsThenTheSourceTree() throws {
        let directory = try makeDataDirectory()
        g_setenv(DemoGalleryLocation.environmentVariable, directory, 1)
        defer { g_unsetenv(DemoGalleryLocation.environmentVariable) }
        XCTAssertEqual(DemoGalleryLocation.defaultDataDirectory(), directory)
        g_unsetenv(DemoGalleryLocation.environmentVariable)
        XCTAssertEqual(DemoGalleryLocation.defaultDataDirectory(), DemoGalleryLocation.sourceTreeDataDirectory)
        XCTAssertTrue(DemoGalleryLocation.candidates().contains { $0.hasSuffix("/../share/gallery-viewer") })
    }

    func testMissingImagesSayHowToMakeThem() throws {
        let directory = try makeDataDirectory()
        try MainActor.assumeIsolated {
            XCTAssertThrowsError(try DemoServer(dataDirectory: directory)) { error in
                XCTAssertTrue("\(error)".contains("make demo-data"), "\(error)")
            }
            g_mkdir_with_parents(DemoGalleryLocation.imagesDirectory(in: directory), 0o755)
            XCTAssertTrue(g_file_set_contents(DemoGalleryLocation.stampPath(in: directory), "catalog 0\n", -1, nil) != 0)
            XCTAssertThrowsError(try DemoServer(dataDirectory: directory)) { error in
                XCTAssertTrue("\(error)".contains("another catalog"), "stale images are refused too: \(error)")
            }
            XCTAssertThrowsError(try DemoServer(dataDirectory: directory + "/nowhere"))
        }
    }
}
