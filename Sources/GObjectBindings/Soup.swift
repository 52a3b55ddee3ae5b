import CGtk
import CSoup

/// Namespace for the libsoup 2.4 wrappers. Everything that names a libsoup type lives in the Soup*.swift files
/// of this module and in GalleryCore's HTTPClient, so moving to libsoup 3 touches only those.
public enum Soup {
    /// The standard reason phrase for an HTTP status code ("Not Found").
    public static func reasonPhrase(for status: UInt32) -> String {
        string(soup_status_get_phrase(guint(status))) ?? "Unknown Status"
    }

    /// Seconds since the Unix epoch for an HTTP date in any of the formats HTTP allows (RFC 1123, RFC 850,
    /// asctime); nil if it is not one.
    public static func parseHTTPDate(_ text: String) -> Double? {
        guard let date = soup_date_new_from_string(text) else { return nil }
        defer { soup_date_free(date) }
        return Double(soup_date_to_time_t(date))
    }
}
