import CGLib
import CGtk
import GObjectBindings
@_spi(GtkInterop) import GtkBindings
@testable import GalleryCore
import TestSupport
import XCTest
@testable import GalleryUI

/// A New view of many images in the real window: it fills a slice per main-loop turn and ends with every image,
/// newest first; Mark All as Seen marks only the images it had by then; a check's additions replace it only
/// once they are all there, the view kept where it was; and a window closed mid-fill lets go cleanly.
final class FollowingNewViewFillTests: GLibTestCase {
    static let galleries = ["aurora", "atlas", "huge-50"]
    static let perGallery = 500
    static var total: Int { galleries.count * perGallery }

    /// A window following three demo galleries, past its launch check, with `perGallery` new images each
    /// written as a check would (newest first across the galleries: image k is gallery k % 3's).
    @MainActor
    private static func prepare(_ ui: UIHarness) throws -> FollowingWatch {
        let watch = try XCTUnwrap(ui.window.following)
        let store = try XCTUnwrap(ui.following?.store)
        watch.isWindowActive = { true }
        for name in galleries {
            XCTAssertEqual(try FollowingWindowTests.wait { store.follow(.init(source: .demo, username: name), displayName: name, completion: $0) }, true)
        }
        XCTAssertTrue(iterateMainLoop(until: { !(ui.following?.checker.isChecking ?? true) && watch.menu.galleries.count == galleries.count },
                                      timeout: 60))
        try record(store, images: 0..<total, server: ui.server.baseURL)
        watch.refresh()
        XCTAssertTrue(iterateMainLoop(until: { watch.newCount == total }, timeout: 60), "\(watch.newCount) new")
        return watch
    }

    /// Images `range` as new, image k published k seconds before the newest.
    @MainActor
    static func record(_ store: FollowStore, images range: Range<Int>, server: String) throws {
        let now = FollowStore.now()
        for (offset, name) in galleries.enumerated() {
            let items = range.filter { $0 % galleries.count == offset }.map { index in
                GalleryItem(id: "new-\(index)", title: "New \(index)", thumbnails: [.init(url: server + "/thumbs/150/missing-\(index).jpg")],
                            fullImageURL: server + "/images/missing-\(index).jpg", published: 1_800_000_000 - index)
            }
            let record = FollowCheckRecord(key: .init(source: .demo, username: name), time: now, problem: nil, newestItem: nil,
                                           validators: nil, keepsValidators: true, displayName: nil, avatarURL: nil, newItems: items)
            XCTAssertEqual(try FollowingWindowTests.wait { store.record(record, completion: $0) }?.count, items.count)
        }
    }

    /// Opens the New view and waits for its first slice.
    @MainActor
    private static func openNew(_ ui: UIHarness, _ watch: FollowingWatch) throws -> Gallery {
        watch.showNew()
        XCTAssertTrue(iterateMainLoop(until: { ui.window.gallery?.isKnownItems == true }, timeout: 60))
        return try XCTUnwrap(ui.window.gallery)
    }

    func testManyNewImagesFillOverSeveralTurnsAndEndNewestFirst() throws {
        try MainActor.assumeIsolated {
            try UIHarness.withFollowing { ui, _ in
                let watch = try Self.prepare(ui)
                let view = try Self.openNew(ui, watch)
                XCTAssertLessThanOrEqual(ui.list.rowCount, 64, "a slice at first, not all \(Self.total)")
                XCTAssertEqual(ui.list.selectedIndex, 0, "the keyboard is on the newest")
                var counts: Set<Int> = [ui.list.rowCount]
                XCTAssertTrue(iterateMainLoop(until: {
                    counts.insert(ui.list.rowCount)
                    return !view.mayHaveMore
                }, timeout: 60))
                XCTAssertGreaterThanOrEqual(counts.count, Self.total / 64, "filled over many turns: \(counts.sorted())")
                XCTAssertEqual(ui.list.rowCount, Self.total)
                XCTAssertEqual(view.downloads.map(\.item.id), (0..<Self.total).map { "new-\($0)" }, "newest first")
                XCTAssertEqual(view.downloads[4].origin, "atlas on Demo")
                XCTAssertEqual(ui.list.selectedIndex, 0)
                XCTAssertTrue(ui.waitForRows(Self.total))
                // The window's status follows at idle after the last slice (coalesced, as for any gallery).
                XCTAssertTrue(iterateMainLoop(until: { ui.list.footerText == "End of gallery · \(Self.total) images" }, timeout: 60),
                              ui.list.footerText)
            }
        }
    }

    func testMarkAllWhileItFillsMarksOnlyWhatTheViewHad() throws {
        try MainActor.assumeIsolated {
            try UIHarness.withFollowing { ui, _ in
                let watch = try Self.prepare(ui)
                let view = try Self.openNew(ui, watch)
                XCTAssertTrue(view.mayHaveMore, "still filling")
                let taken = view.knownItemsTaken
                g_action_group_activate_action(OpaquePointer(ui.window.window.widget.raw), "mark-all-seen", nil)
                XCTAssertTrue(iterateMainLoop(until: { watch.newCount == Self.total - taken }, timeout: 60),
                              "\(taken) marked, not all: \(watch.newCount) new")
                // The view shows what is still new, from the first image the old one had not had.
                XCTAssertTrue(iterateMainLoop(until: { ui.window.gallery !== view && ui.window.gallery?.mayHaveMore == false }, timeout: 60))
                XCTAssertEqual(ui.list.rowCount, Self.total - taken)
                XCTAssertEqual(try ui.download(0).item.id, "new-\(taken)")
            }
        }
    }

    func testACheckReplacesAFullViewOnlyOnceItHasEverythingKeepingThePlace() throws {
        try MainActor.assumeIsolated {
            try UIHarness.withFollowing { ui, _ in
                let watch = try Self.prepare(ui)
                let view = try Self.openNew(ui, watch)
                XCTAssertTrue(iterateMainLoop(until: { !view.mayHaveMore }, timeout: 60))
                // The keyboard landed on the newest; the view was scrolled away from it.
                XCTAssertEqual(ui.list.selectedIndex, 0)
                ui.list.scroll(toItem: 990)
                XCTAssertTrue(ui.waitForCells())
                let top = try XCTUnwrap(ui.list.download(at: ui.list.visibleRange.lowerBound)).item.id

                // Two newer images, taken in as a check's would be.
                let store = try XCTUnwrap(ui.following?.store)
                let now = FollowStore.now()
                let newest = [GalleryItem(id: "newest-a", title: "A", fullImageURL: ui.server.baseURL + "/images/a.jpg", published: 1_900_000_001),
                              GalleryItem(id: "newest-b", title: "B", fullImageURL: ui.server.baseURL + "/images/b.jpg", published: 1_900_000_000)]
                let record = FollowCheckRecord(key: .init(source: .demo, username: "atlas"), time: now, problem: nil, newestItem: nil,
                                               validators: nil, keepsValidators: true, displayName: nil, avatarURL: nil, newItems: newest)
                XCTAssertEqual(try FollowingWindowTests.wait { store.record(record, completion: $0) }?.count, 2)
                watch.showNew(replacing: true)
                var fewest = ui.list.rowCount
                XCTAssertTrue(iterateMainLoop(until: {
                    fewest = min(fewest, ui.list.rowCount)
                    return ui.window.gallery !== view
                }, timeout: 60))
                XCTAssertEqual(fewest, Self.total, "the view on screen stayed whole while the new one filled")
                XCTAssertEqual(ui.list.rowCount, Self.total + 2)
                XCTAssertEqual(try ui.download(0).item.id, "newest-a")
                XCTAssertEqual(ui.list.selectedDownload?.item.id, "new-0", "the selection stayed on its image, scrolled away")
                XCTAssertTrue(ui.waitForCells())
                XCTAssertEqual(ui.list.download(at: ui.list.visibleRange.lowerBound)?.item.id, top, "the view stayed where it was")
            }
        }
    }

    func testAWindowClosedWhileTheNewViewFillsLetsGo() throws {
        try MainActor.assumeIsolated {
            let folder = TemporaryFolder()
            defer { withExtendedLifetime(folder) {} }
            let ui = try UIHarness(followDirectory: folder.path)
            let watch = try Self.prepare(ui)
            let view = try Self.openNew(ui, watch)
            let taken = view.knownItemsTaken
            XCTAssertLessThan(taken, Self.total, "still filling")
            ui.close()
            // The mechanism: closing cancels the gallery, and with it the source that hands the next slice.
            // The main loop's turns after it only confirm that nothing else hands one.
            XCTAssertTrue(view.isCancelled, "the window's going cancelled the fill")
            iterateMainLoop(for: 0.2)
            XCTAssertEqual(view.knownItemsTaken, taken, "no slice after the window went")
        }
    }

    func testAWindowClosedWhileACheckFillsBehindTheNewViewLetsGo() throws {
        try MainActor.assumeIsolated {
            let folder = TemporaryFolder()
            defer { withExtendedLifetime(folder) {} }
            let ui = try UIHarness(followDirectory: folder.path)
            let watch = try Self.prepare(ui)
            let view = try Self.openNew(ui, watch)
            XCTAssertTrue(iterateMainLoop(until: { !view.mayHaveMore }, timeout: 60))
            watch.showNew(replacing: true)
            XCTAssertTrue(iterateMainLoop(until: { ui.window.newReplacement.filling != nil }, timeout: 60))
            let filling = try XCTUnwrap(ui.window.newReplacement.filling)
            let taken = filling.knownItemsTaken
            XCTAssertLessThan(taken, Self.total, "still filling")
            ui.close()
            // As above: the mechanism is the cancellation; the turns after it only confirm it.
            XCTAssertTrue(filling.isCancelled, "the window's going cancelled the fill behind the view")
            iterateMainLoop(for: 0.2)
            XCTAssertEqual(filling.knownItemsTaken, taken, "no slice after the window went")
            XCTAssertNil(ui.window.newReplacement.filling)
        }
    }
}
