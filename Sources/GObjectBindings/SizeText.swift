import CGLib

/// Sizes as people read them, in GLib's words (translated by GLib's own catalogue).
public enum SizeText {
    /// "12.3 MB" (decimal units, as GNOME's file manager shows them).
    public static func format(_ bytes: Int) -> String {
        takeString(g_format_size(guint64(max(0, bytes)))) ?? "\(bytes) bytes"
    }
}
