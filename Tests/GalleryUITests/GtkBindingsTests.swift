import CGLib
import CGtk
import GObjectBindings
import GtkBindings
import TestSupport
import XCTest

/// The Swift types GtkBindings shows in place of GTK's: each value reaches GTK as a value of its own and
/// comes back as itself (a case mapped onto another's GTK constant would come back as that case).
final class GtkBindingsTests: GLibTestCase {
    func testEveryEnumValueRoundTripsThroughGtk() throws {
        try MainActor.assumeIsolated {
            try Self.initGtk()
            let label = Label("text")
            for mode in Label.EllipsizeMode.allCases {
                label.ellipsize = mode
                XCTAssertEqual(label.ellipsize, mode)
            }
            for mode in Label.WrapMode.allCases {
                label.wrapMode = mode
                XCTAssertEqual(label.wrapMode, mode)
            }
            for justification in Label.Justification.allCases {
                label.justify = justification
                XCTAssertEqual(label.justify, justification)
            }
            for align in Widget.Align.allCases {
                label.valign = align
                XCTAssertEqual(label.valign, align)
                label.halign = align
                XCTAssertEqual(label.halign, align == .baseline ? .fill : align, "a baseline is vertical only")
            }
            let listBox = ListBox()
            for mode in ListBox.SelectionMode.allCases {
                listBox.selectionMode = mode
                XCTAssertEqual(listBox.selectionMode, mode)
            }
            let bar = InfoBar()
            for type in MessageType.allCases {
                bar.messageType = type
                XCTAssertEqual(bar.messageType, type)
            }
        }
    }

    func testAMessageDialogShowsBothTexts() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            ui.window.window.showMessage("Could not save", secondary: "Disk full", type: .warning)
            let dialog = try XCTUnwrap(UIHarness.toplevel(ofType: gtk_message_dialog_get_type()))
            let object = ObjectRef(dialog, transfer: .none)
            XCTAssertEqual(object.string("text"), "Could not save")
            XCTAssertEqual(object.string("secondary-text"), "Disk full")
            XCTAssertEqual(object.int("message-type"), Int32(GTK_MESSAGE_WARNING.rawValue))
            gtk_widget_destroy(dialog)
        }
    }

    @MainActor
    private static func initGtk() throws {
        guard gtk_init_check(nil, nil) != 0 else {
            XCTFail("GTK could not open a display; run the UI tests through `make test`")
            throw XCTSkip("no display")
        }
    }
}
