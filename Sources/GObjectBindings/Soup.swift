import CGLib
import CSoup

/// Namespace for the libsoup 2.4 wrappers. Everything that names a libsoup type lives in the Soup*.swift files
/// of this module and in GalleryCore's HTTPClient, so moving to libsoup 3 touches only those.
public enum Soup {
    /// The standard reason phrase for an HTTP status code ("Not Found"). libsoup 2.4 predates a few codes
    /// servers use today (it calls 429 "Unknown Error"); those are named here.
    public static func reasonPhrase(for status: UInt32) -> String {
        if let phrase = newerPhrases[status] { return phrase }
        return string(soup_status_get_phrase(guint(status))) ?? "Unknown Status"
    }

    private static let newerPhrases: [UInt32: String] = [
        308: "Permanent Redirect", 421: "Misdirected Request", 425: "Too Early", 428: "Precondition Required",
        429: "Too Many Requests", 431: "Request Header Fields Too Large", 451: "Unavailable For Legal Reasons",
        511: "Network Authentication Required",
    ]

    /// Seconds since the Unix epoch for an HTTP date in any of the formats HTTP allows (RFC 1123, RFC 850,
    /// asctime); nil if it is not one.
    public static func parseHTTPDate(_ text: String) -> Double? {
        guard let date = soup_date_new_from_string(text) else { return nil }
        defer { soup_date_free(date) }
        return Double(soup_date_to_time_t(date))
    }
}
