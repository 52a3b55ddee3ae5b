import CGLib
import CGtk
import GObjectBindings
import GtkBindings
import GalleryCore
import TestSupport
import XCTest
@testable import GalleryUI

/// Print…: Ctrl+P in the large view opens GTK's print dialog, and printing from it with GTK's own "Print to
/// File" printer writes a real PDF of one page carrying the image (as the JPEG the app prepared); the page
/// layout is checked on its own.
final class PrintTests: GLibTestCase {
    func testCtrlPPrintsThePhotoOnOnePageThroughTheDialog() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            _ = ui.openPhoto()
            let folder = TemporaryFolder(prefix: "gallery-print")
            let output = folder.path + "/printed.pdf"
            // As if the last print this session went to a file: the dialog opens on that printer.
            let initial = PrintSettings.printToFile(output)
            PrintOperation.lastSettings = initial
            defer { PrintOperation.lastSettings = nil }

            // Turned as the view shows it: the landscape photo goes on a portrait page.
            ui.press(GDK_KEY_r)
            ui.press(GDK_KEY_p, GDK_CONTROL_MASK)
            let dialog = try XCTUnwrap(Self.waitForPrintDialog(), "Ctrl+P opens the print dialog")
            XCTAssertTrue(iterateMainLoop(until: { Self.selectedPrinterName(dialog) == "Print to File" }, timeout: 60),
                          "the dialog chose the printer of the last print")
            gtk_dialog_response(dialog.raw.as(GtkDialog.self), GTK_RESPONSE_OK.rawValue)

            XCTAssertTrue(iterateMainLoop(until: { Self.isCompletePDF(output) }, timeout: 60), "the PDF was written")
            let pdf = try XCTUnwrap(fileBytes(atPath: output))
            let text = String(decoding: pdf, as: UTF8.self)
            XCTAssertEqual(Self.count("/Type /Page", in: text) - Self.count("/Type /Pages", in: text), 1, "one page")
            XCTAssertTrue(text.contains("/DCTDecode"), "the image travels as the JPEG prepared on a worker")
            XCTAssertTrue(text.contains("/Width 4000"), "at full resolution")
            XCTAssertTrue(text.contains("/Height 2667"))
            let page = try XCTUnwrap(Self.mediaBox(in: text), "the page's size")
            XCTAssertLessThan(page.width, page.height, "a portrait page for the turned photo")
            XCTAssertTrue(iterateMainLoop(until: { PrintOperation.lastSettings !== initial }, timeout: 60),
                          "the settings the print was made with are kept for the next one")
            XCTAssertEqual(PrintOperation.lastSettings?.printer, "Print to File")
            XCTAssertNil(Self.printDialog(), "the dialog closed")
        }
    }

    func testCancellingThePrintDialogPrintsNothingAndSaysNothing() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            _ = ui.openPhoto()
            PrintOperation.lastSettings = nil
            ui.press(GDK_KEY_p, GDK_CONTROL_MASK)
            let dialog = try XCTUnwrap(Self.waitForPrintDialog(), "Ctrl+P opens the print dialog")
            gtk_dialog_response(dialog.raw.as(GtkDialog.self), GTK_RESPONSE_CANCEL.rawValue)
            XCTAssertTrue(iterateMainLoop(until: { Self.printDialog() == nil }, timeout: 60), "cancelling closed it")
            XCTAssertNil(UIHarness.toplevel(ofType: gtk_message_dialog_get_type()), "no error message")
            XCTAssertNil(PrintOperation.lastSettings, "a cancelled print keeps no settings")
        }
    }

    func testAnImageWithTransparencyIsPrintedOnWhite() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()  // a display, as the app always has (cairo surfaces are made for its screen)
            defer { ui.close() }
            // Half-transparent red: on white paper it is pink, never the black a dropped alpha would give.
            let image = Pixbuf.filled(width: 300, height: 200, rgba: 0xFF000080)
            var prepared: Result<ImagePrint.Printable, GLibError>?
            ImagePrint.prepare(image, cancellable: Cancellable()) { prepared = $0 }
            XCTAssertTrue(iterateMainLoop(until: { prepared != nil }, timeout: 60))
            let printable = try XCTUnwrap(prepared).get()
            XCTAssertEqual(printable.width, 300)
            XCTAssertEqual(printable.height, 200)
            // What the page paints: half of white shows through, opaque.
            let pixel = printable.surface.argb(x: 150, y: 100)
            XCTAssertEqual(pixel >> 24, 0xFF, "opaque")
            XCTAssertEqual(Double((pixel >> 16) & 0xFF), 255, accuracy: 1)
            XCTAssertEqual(Double((pixel >> 8) & 0xFF), 127, accuracy: 2)
            XCTAssertEqual(Double(pixel & 0xFF), 127, accuracy: 2)

            let folder = TemporaryFolder(prefix: "gallery-print")
            let output = folder.path + "/export.pdf"
            XCTAssertEqual(ImagePrint.operation(for: printable, title: "Pink").exportPDF(to: output), .printed)
            let text = String(decoding: try XCTUnwrap(fileBytes(atPath: output)), as: UTF8.self)
            XCTAssertTrue(text.hasPrefix("%PDF"))
            XCTAssertTrue(text.contains("/DCTDecode"))
            PrintOperation.lastSettings = nil
        }
    }

    func testThePageLayoutFitsCentresAndNeverEnlarges() {
        // A landscape photo on a landscape A4 page's printable area, with a one-line caption.
        let photo = ImagePrint.Placement(imageWidth: 4000, imageHeight: 2667, pageWidth: 770, pageHeight: 523,
                                         captionHeight: 14)
        XCTAssertEqual(photo.scale, (523 - 14 - ImagePrint.captionGap) / 2667, accuracy: 1e-9, "fitted to the height left")
        XCTAssertEqual(photo.x * 2 + 4000 * photo.scale, 770, accuracy: 1e-6, "centred across")
        XCTAssertEqual(photo.y, 0, accuracy: 1e-6, "the block fills the page's height")
        XCTAssertEqual(photo.captionTop, 2667 * photo.scale + ImagePrint.captionGap, accuracy: 1e-6, "the caption under it")

        // A wide panorama is fitted to the width and the block centred vertically.
        let panorama = ImagePrint.Placement(imageWidth: 8000, imageHeight: 1000, pageWidth: 770, pageHeight: 523,
                                            captionHeight: nil)
        XCTAssertEqual(panorama.scale, 770.0 / 8000, accuracy: 1e-9)
        XCTAssertEqual(panorama.x, 0, accuracy: 1e-6)
        XCTAssertEqual(panorama.y * 2 + 1000 * panorama.scale, 523, accuracy: 1e-6)

        // A small image keeps one pixel to a point.
        let icon = ImagePrint.Placement(imageWidth: 64, imageHeight: 64, pageWidth: 523, pageHeight: 770, captionHeight: 14)
        XCTAssertEqual(icon.scale, 1)
        XCTAssertEqual(icon.x, (523 - 64) / 2, accuracy: 1e-6)
    }

    // MARK: Helpers

    @MainActor static func printDialog() -> UnsafeMutablePointer<GtkWidget>? {
        let type = g_type_from_name("GtkPrintUnixDialog")
        return type == 0 ? nil : UIHarness.toplevel(ofType: type)
    }

    /// GTK registers GtkPrintUnixDialog's type when it makes the first one, and its header is not GTK's.
    @MainActor static func waitForPrintDialog() -> UnsafeMutablePointer<GtkWidget>? {
        UIHarness.waitForToplevel(ofType: { g_type_from_name("GtkPrintUnixDialog") })
    }

    /// The name of the printer the dialog has chosen ("selected-printer"), nil while it has none.
    @MainActor static func selectedPrinterName(_ dialog: UnsafeMutablePointer<GtkWidget>) -> String? {
        var value = GValue()
        g_value_init(&value, g_object_get_type())
        defer { g_value_unset(&value) }
        g_object_get_property(dialog.raw.as(GObject.self), "selected-printer", &value)
        guard let printer = g_value_get_object(&value) else { return nil }
        var name = GValue()
        g_value_init(&name, g_type_from_name("gchararray"))
        defer { g_value_unset(&name) }
        g_object_get_property(printer.assumingMemoryBound(to: GObject.self), "name", &name)
        return g_value_get_string(&name).map { String(cString: $0) }
    }

    /// The file is a whole PDF: cairo writes the trailer last.
    static func isCompletePDF(_ path: String) -> Bool {
        guard let bytes = fileBytes(atPath: path), bytes.count > 8 else { return false }
        return String(decoding: bytes.suffix(16), as: UTF8.self).contains("%%EOF")
    }

    /// The first page's size from its `/MediaBox [ x0 y0 x1 y1 ]`.
    static func mediaBox(in text: String) -> (width: Double, height: Double)? {
        guard let start = text.range(of: "/MediaBox [") else { return nil }
        let numbers = text[start.upperBound...].prefix(80).split(separator: " ").prefix(4).compactMap { Double($0) }
        return numbers.count == 4 ? (numbers[2] - numbers[0], numbers[3] - numbers[1]) : nil
    }

    /// How often `needle` occurs in `text` (a PDF of megabytes: byte by byte, allocating nothing).
    static func count(_ needle: String, in text: String) -> Int {
        let haystack = Array(text.utf8), pattern = Array(needle.utf8)
        guard let first = pattern.first else { return 0 }
        return haystack.withUnsafeBufferPointer { bytes in
            var found = 0, index = 0
            while index + pattern.count <= bytes.count {
                if bytes[index] == first, (1..<pattern.count).allSatisfy({ bytes[index + $0] == pattern[$0] }) {
                    found += 1
                    index += pattern.count
                } else {
                    index += 1
                }
            }
            return found
        }
    }
}
