import CGtk
import GObjectBindings

/// The desktop's clipboard (CLIPBOARD selection) of the default display.
@MainActor
public enum Clipboard {
    private static var clipboard: OpaquePointer? {
        guard let display = gdk_display_get_default() else { return nil }
        return gtk_clipboard_get_for_display(display, gv_selection_clipboard())
    }

    /// Offers `text` to other applications (UTF-8 and the legacy text targets).
    public static func setText(_ text: String) {
        guard let clipboard else { return }
        gtk_clipboard_set_text(clipboard, text, -1)
        keepAfterQuit(clipboard)
    }

    /// Offers `pixbuf` as an image: GTK encodes it (PNG, JPEG, BMP…) in the format a pasting application
    /// asks for, when it asks. The clipboard keeps a reference until something else is copied.
    public static func setImage(_ pixbuf: Pixbuf) {
        guard let clipboard else { return }
        gtk_clipboard_set_image(clipboard, pixbuf.pointer)
        keepAfterQuit(clipboard)
    }

    /// Lets the desktop's clipboard manager take a copy when the app quits, so what was copied can still be
    /// pasted afterwards (without a manager this does nothing).
    private static func keepAfterQuit(_ clipboard: OpaquePointer) {
        gtk_clipboard_set_can_store(clipboard, nil, 0)
    }

    /// The clipboard's text, asked for synchronously (a nested main loop): for tests.
    public static func waitForText() -> String? {
        guard let clipboard else { return nil }
        return takeString(gtk_clipboard_wait_for_text(clipboard))
    }

    /// The clipboard's image, asked for synchronously (a nested main loop): for tests.
    public static func waitForImage() -> Pixbuf? {
        guard let clipboard else { return nil }
        return gtk_clipboard_wait_for_image(clipboard).map { Pixbuf(owning: $0) }
    }
}
