internal import CGLib
internal import CGtk
import GObjectBindings

/// The desktop's clipboard (CLIPBOARD selection) of the default display.
@MainActor
public enum Clipboard {
    private static var clipboard: OpaquePointer? {
        guard let display = gdk_display_get_default() else { return nil }
        return gtk_clipboard_get_for_display(display, gv_selection_clipboard())
    }

    /// Offers `text` to other applications (UTF-8 and the legacy text targets). GTK lets the desktop's
    /// clipboard manager keep it after the app quits.
    public static func setText(_ text: String) {
        guard let clipboard else { return }
        gtk_clipboard_set_text(clipboard, text, -1)
    }

    /// Offers `png`, an encoded PNG file, as the clipboard's image ("image/png"). Unlike
    /// gtk_clipboard_set_image, which keeps the pixels and encodes them on the main loop each time another
    /// application pastes, the clipboard holds the compressed file and a paste only copies it. Storable: the
    /// desktop's clipboard manager may keep it after the app quits.
    public static func setPNG(_ png: Bytes) {
        guard let clipboard else { return }
        let owner = Unmanaged.passRetained(png).toOpaque()
        let target = strdup("image/png")
        defer { free(target) }
        var entry = GtkTargetEntry(target: target, flags: 0, info: 0)
        let taken = gtk_clipboard_set_with_data(clipboard, &entry, 1, { _, selection, _, owner in
            guard let selection, let owner else { return }
            let png = Unmanaged<Bytes>.fromOpaque(owner).takeUnretainedValue()
            png.withUnsafeBytes { buffer in
                gtk_selection_data_set(selection, gtk_selection_data_get_target(selection), 8,
                                       buffer.baseAddress?.assumingMemoryBound(to: guchar.self), Int32(buffer.count))
            }
        }, { _, owner in
            if let owner { Unmanaged<Bytes>.fromOpaque(owner).release() }
        }, owner)
        guard taken != 0 else { return Unmanaged<Bytes>.fromOpaque(owner).release() }
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
