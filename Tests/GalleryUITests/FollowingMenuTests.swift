import CGLib
import GObjectBindings
import GalleryCore
import TestSupport
import XCTest
@testable import GalleryUI

/// The Following list as a check of many galleries refreshes it: only the rows whose gallery changed are
/// written again, and when the popover opens every row says again when it was checked.
final class FollowingMenuTests: GLibTestCase {
    func testARefreshRewritesOnlyTheChangedRowsAndOpeningSaysEveryAgeAgain() throws {
        try MainActor.assumeIsolated {
            try UIHarness.withFollowing { ui, watch in
                let store = try XCTUnwrap(ui.following?.store)
                for name in ["aurora", "atlas"] {
                    XCTAssertEqual(try FollowingWindowTests.wait { store.follow(.init(source: .demo, username: name), displayName: name, completion: $0) }, true)
                }
                let menu = watch.menu
                // Checked once both are followed (the launch check may have run before): a check asked for while one
                // runs joins it, so only once none does.
                XCTAssertTrue(iterateMainLoop(until: {
                    guard let checker = ui.following?.checker, !checker.isChecking else { return false }
                    if menu.galleries.count == 2, menu.galleries.allSatisfy({ $0.lastCheckedAt != nil }) { return true }
                    watch.checkNow()
                    return false
                }, timeout: 60))
                watch.stop()
                // The rows are made as the list first opens; closed again, they stay.
                menu.button.isActive = true
                XCTAssertTrue(iterateMainLoop(until: { menu.popover.isOpen && menu.rows.count == 2 }, timeout: 60))
                menu.button.isActive = false
                XCTAssertTrue(iterateMainLoop(until: { !menu.popover.isOpen }, timeout: 60))
                for label in menu.detailLabels { label.text = "stale" }

                var galleries = menu.galleries
                galleries[1].newCount = 3
                menu.show(galleries, newCount: 3)
                XCTAssertEqual(menu.detailLabels[0].text, "stale", "aurora's row, unchanged, is not written again")
                XCTAssertTrue(menu.detailLabels[1].text.hasPrefix("Demo · 3 new · checked "), menu.detailLabels[1].text)
                XCTAssertEqual(menu.newButton.label, "_New Images (3)")

                menu.button.isActive = true
                XCTAssertTrue(iterateMainLoop(until: { menu.popover.isOpen && menu.rows[1].isMapped }, timeout: 60))
                XCTAssertTrue(menu.detailLabels[0].text.hasPrefix("Demo · checked "), "opened: \(menu.detailLabels[0].text)")
                menu.popover.popDown()
            }
        }
    }

    /// Hundreds of followed galleries: the list opens with one slice of rows made and fills in over the next
    /// main-loop turns, in order; a check's changes reach the rows made before them and those made after, and
    /// an unfollow or a follow, then or later, keeps the other rows.
    func testAListOfManyGalleriesOpensWithASliceAndFillsInBehind() throws {
        try MainActor.assumeIsolated {
            try UIHarness.withFollowing { ui, watch in
                // Nothing but this test shows galleries in the menu from here on.
                watch.stop()
                let menu = watch.menu
                let count = FollowingMenu.rowsPerSlice * 5 / 2
                var galleries = (0..<count).map {
                    FollowedGallery(key: .init(source: .demo, username: "user\($0)"), displayName: "user \($0)", followedAt: 1)
                }
                menu.show(galleries, newCount: 0)
                XCTAssertTrue(menu.rows.isEmpty, "no row before the list first opens")
                menu.button.isActive = true
                XCTAssertEqual(menu.rows.count, FollowingMenu.rowsPerSlice, "the opening makes one slice of rows")
                XCTAssertFalse(menu.isFilled)

                let first = menu.rows[0]
                galleries[1].newCount = 2
                galleries[count - 1].newCount = 5
                menu.show(galleries, newCount: 7)
                XCTAssertTrue(menu.rows[0] === first, "a check's change keeps the rows made")
                XCTAssertTrue(menu.detailLabels[1].text.hasPrefix("Demo · 2 new"), menu.detailLabels[1].text)
                // Unfollowed while the list fills: one whose row is made, one whose row is not yet.
                galleries.remove(at: count - 2)
                galleries.remove(at: 2)
                menu.show(galleries, newCount: 7)
                XCTAssertTrue(menu.rows[0] === first)
                XCTAssertTrue(iterateMainLoop(until: { menu.isFilled }, timeout: 60))
                XCTAssertEqual(menu.rows.map(\.accessibleName), galleries.map { FollowingMenu.title(of: $0) }, "in order, each once")
                XCTAssertTrue(menu.detailLabels.last?.text.hasPrefix("Demo · 5 new") == true, menu.detailLabels.last?.text ?? "")

                // Once filled, an unfollow removes one row and a follow adds one below: the others stay where they are.
                var rowsBefore = menu.rows
                galleries.remove(at: 5)
                menu.show(galleries, newCount: 7)
                rowsBefore.remove(at: 5)
                XCTAssertTrue(menu.isFilled)
                XCTAssertTrue(zip(menu.rows, rowsBefore).allSatisfy { $0 === $1 } && menu.rows.count == rowsBefore.count,
                              "an unfollow keeps the other rows")
                galleries.append(FollowedGallery(key: .init(source: .demo, username: "new"), displayName: "new", followedAt: 2))
                menu.show(galleries, newCount: 7)
                XCTAssertTrue(iterateMainLoop(until: { menu.isFilled }, timeout: 60))
                XCTAssertEqual(menu.rows.map(\.accessibleName), galleries.map { FollowingMenu.title(of: $0) })
                XCTAssertTrue(zip(menu.rows, rowsBefore).allSatisfy { $0 === $1 }, "a follow keeps the rows above")
                XCTAssertTrue(iterateMainLoop(until: { menu.popover.isOpen && menu.rows.last?.isMapped == true }, timeout: 60))
                menu.popover.popDown()
            }
        }
    }
}
