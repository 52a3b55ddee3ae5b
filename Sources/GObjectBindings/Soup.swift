import CGtk
import CSoup

/// Namespace for the libsoup 2.4 wrappers. Everything that names a libsoup type lives in the Soup*.swift files
/// of this module and in GalleryCore's HTTPClient, so moving to libsoup 3 touches only those.
public enum Soup {
    /// The standard reason phrase for an HTTP status code ("Not Found").
    public static func reasonPhrase(for status: UInt32) -> String {
        string(soup_status_get_phrase(guint(status))) ?? "Unknown Status"
    }
}
