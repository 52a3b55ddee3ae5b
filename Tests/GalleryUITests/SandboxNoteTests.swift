import CGLib
import CGtk
import GObjectBindings
import GtkBindings
import GalleryCore
import TestSupport
import XCTest
@testable import GalleryUI

/// Where bubblewrap cannot create namespaces (some containers), the window says so once, without blocking
/// anything, and the images still decode in helpers without it.
final class SandboxNoteTests: GLibTestCase {
    /// What bubblewrap prints and does where unprivileged user namespaces are not allowed.
    static let refusingBubblewrap = """
        #!/bin/sh
        echo "bwrap: No permissions to creating new namespace, likely because the kernel does not allow non-privileged user namespaces." >&2
        exit 1
        """

    func testTheWindowSaysOnceThatTheNamespaceSandboxIsOffAndImagesStillDecode() throws {
        try MainActor.assumeIsolated {
            let folder = TemporaryFolder(prefix: "gallery-ui-bwrap")
            folder.write(Array(Self.refusingBubblewrap.utf8), to: "bwrap")
            chmod(folder.path + "/bwrap", 0o755)
            let ui = try UIHarness(sandbox: DecoderSandbox(bubblewrapPath: folder.path + "/bwrap"))
            defer { ui.close() }
            let note = ui.window.sandboxNote
            ui.search("aurora")
            XCTAssertTrue(ui.waitForRows(24))
            let pictures = Array(ui.list.visibleRange.filter { $0 < 5 })  // aurora's sixth is a 404 on purpose
            XCTAssertFalse(pictures.isEmpty)
            XCTAssertTrue(try iterateMainLoop(until: { try pictures.allSatisfy { try ui.download($0).state == .loaded } }, timeout: 120),
                          "the thumbnails decode without the namespace sandbox: \(pictures.map { ui.list.download(at: $0)?.state })")
            XCTAssertTrue(iterateMainLoop(until: { note.bar.isRevealed }, timeout: 60), "the window says the sandbox is off")
            XCTAssertTrue(note.label.text.hasPrefix("Images are decoded without the namespace sandbox"), note.label.text)
            XCTAssertTrue(note.label.isVisible && note.closeButton.isVisible)
            XCTAssertEqual(note.bar.accessibleName, "Notice")
            XCTAssertEqual(note.closeButton.accessibleName, "Dismiss")

            // Closed, it stays closed: every helper of the session runs without namespaces, and more images
            // (another gallery's) say nothing again.
            note.closeButton.click()
            XCTAssertTrue(iterateMainLoop(until: { !note.bar.isRevealed }, timeout: 60))
            ui.search("atlas")
            XCTAssertTrue(ui.waitForRows(1))
            let night = Array(ui.list.visibleRange.prefix(3))
            XCTAssertTrue(try iterateMainLoop(until: { try night.allSatisfy { try ui.download($0).state == .loaded } }, timeout: 120),
                          "\(night.map { ui.list.download(at: $0)?.state })")
            XCTAssertFalse(note.bar.isRevealed)
            XCTAssertEqual(note.timesShown, 1, "said once a session")
        }
    }

    func testBubblewrapLeftOutOnPurposeSaysNothing() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness(sandbox: DecoderSandbox(bubblewrapPath: nil))
            defer { ui.close() }
            ui.search("aurora")
            XCTAssertTrue(ui.waitForRows(24))
            let first = try ui.download(0)
            XCTAssertTrue(iterateMainLoop(until: { first.state == .loaded }, timeout: 120))
            // No bubblewrap on purpose (as GALLERY_DECODER_SANDBOX=no-namespaces) is not a failure to report.
            XCTAssertFalse(ui.window.sandboxNote.bar.isRevealed)
            XCTAssertEqual(ui.window.sandboxNote.timesShown, 0)
        }
    }
}
