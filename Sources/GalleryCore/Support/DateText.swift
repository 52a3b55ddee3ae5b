import CGLib
import GObjectBindings

/// Date parsing for feed fields and rate-limit headers, as seconds since the Unix epoch (HTTP dates:
/// `HTTPResponseHead.parseDate`, which libsoup parses).
enum DateText {
    static func now() -> Double { Double(g_get_real_time()) / 1_000_000 }

    static func parseISO8601(_ text: String) -> Double? {
        guard let date = g_date_time_new_from_iso8601(text, nil) else { return nil }
        defer { g_date_time_unref(date) }
        return Double(g_date_time_to_unix(date)) + Double(g_date_time_get_microsecond(date)) / 1_000_000
    }

    /// "just now", "5 minutes ago", "an hour ago", "3 days ago": how long ago `seconds` (since the epoch)
    /// was. A time in the future (a clock put back) is "just now".
    static func ago(_ seconds: Double, now: Double = now()) -> String {
        let elapsed = Int(max(0, now - seconds))
        switch elapsed {
        case ..<60: return tr("just now")
        case ..<3600:
            let minutes = elapsed / 60
            return minutes == 1 ? tr("a minute ago") : trn("{count} minute ago", "{count} minutes ago", minutes)
        case ..<86_400:
            let hours = elapsed / 3600
            return hours == 1 ? tr("an hour ago") : trn("{count} hour ago", "{count} hours ago", hours)
        default:
            let days = elapsed / 86_400
            return days == 1 ? tr("a day ago") : trn("{count} day ago", "{count} days ago", days)
        }
    }
}
