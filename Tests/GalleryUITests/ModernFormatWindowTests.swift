import CGLib
import CGtk
import GalleryCore
import GtkBindings
import TestSupport
import XCTest
@testable import GalleryUI

/// The demo gallery's WebP and AVIF items, in the real window: their thumbnails (WebP and AVIF files too) are
/// decoded and shown like any JPEG's.
final class ModernFormatWindowTests: GLibTestCase {
    func testWebPAndAVIFThumbnailsShowInTheirRows() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            ui.search("aurora")
            XCTAssertTrue(ui.waitForRows(24))
            // aurora's items 12 and 15 are WebP, 14 and 17 AVIF (data/demo/users.json).
            let expected = [11: ".webp", 13: ".avif", 14: ".webp", 16: ".avif"]
            ui.scroll(toRow: 11)
            for (index, suffix) in expected.sorted(by: { $0.key < $1.key }) {
                XCTAssertTrue(ui.waitUntilSettled(index, timeout: 60), "row \(index)")
                XCTAssertEqual(try ui.download(index).state, .loaded, "row \(index) (\(suffix))")
                let row = try ui.row(index)
                XCTAssertTrue(row.detailLabel.text.contains(suffix), row.detailLabel.text)
                XCTAssertEqual(row.thumbnailStack.visibleChildName, "image")
                XCTAssertTrue([Image.Content.pixbuf, .surface].contains(row.thumbnail.content),
                              "row \(index): the thumbnail is shown")
            }
            let thumbnails = ui.thumbnailRequests()
            XCTAssertTrue(thumbnails.contains { $0.hasSuffix("-tide-pools-at-dawn.webp") }, "\(thumbnails)")
            XCTAssertTrue(thumbnails.contains { $0.hasSuffix("-copper-canyon.avif") }, "\(thumbnails)")
        }
    }
}
