import GalleryCore
import TestSupport
import XCTest
@testable import GalleryUI

extension UIHarness {
    /// Runs `body` with a real window whose follow store lives in a folder of its own, and the window's
    /// Following watch; `before` may put a store or a file into the folder before the window opens. The window
    /// is closed and the folder removed after `body`, whether it returned or threw. A failure of the set-up is
    /// reported at the test's line.
    static func withFollowing(before: (TemporaryFolder) throws -> Void = { _ in }, file: StaticString = #filePath,
                              line: UInt = #line, _ body: (UIHarness, FollowingWatch) throws -> Void) throws {
        let folder = TemporaryFolder()
        defer { withExtendedLifetime(folder) {} }
        try before(folder)
        let ui = try UIHarness(followDirectory: folder.path)
        defer { ui.close() }
        try body(ui, try XCTUnwrap(ui.window.following, "a window given a follow store watches it", file: file, line: line))
    }
}
