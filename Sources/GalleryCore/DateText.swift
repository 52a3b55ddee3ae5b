import CGtk
import GObjectBindings

/// Date parsing for feed fields and rate-limit headers, as seconds since the Unix epoch.
enum DateText {
    static func now() -> Double { Double(g_get_real_time()) / 1_000_000 }

    static func parseISO8601(_ text: String) -> Double? {
        guard let date = g_date_time_new_from_iso8601(text, nil) else { return nil }
        defer { g_date_time_unref(date) }
        return Double(g_date_time_to_unix(date)) + Double(g_date_time_get_microsecond(date)) / 1_000_000
    }

    static func parseHTTPDate(_ text: String) -> Double? { Soup.parseHTTPDate(text) }
}
