import CGLib
import GObjectBindings

/// Date parsing for feed fields and rate-limit headers, as seconds since the Unix epoch (HTTP dates:
/// `HTTPResponseHead.parseDate`, which libsoup parses), and dates as the window shows them.
public enum DateText {
    public static func now() -> Double { Double(g_get_real_time()) / 1_000_000 }

    static func parseISO8601(_ text: String) -> Double? {
        guard let date = g_date_time_new_from_iso8601(text, nil) else { return nil }
        defer { g_date_time_unref(date) }
        return Double(g_date_time_to_unix(date)) + Double(g_date_time_get_microsecond(date)) / 1_000_000
    }

    /// A feed's ISO 8601 time ("2024-05-01T12:34:56.000Z") as whole seconds, nil when it is not one.
    static func published(iso8601 text: String?) -> Int? {
        // Real times are about 30 characters; GLib is never handed a megabyte.
        guard let text, text.utf8.count <= 64, let seconds = parseISO8601(text.trimmed) else { return nil }
        return Int(exactly: seconds.rounded(.down))
    }

    /// An RSS `pubDate` (RFC 822: "Sun, 01 Nov 2026 10:00:00 PST", the weekday and seconds optional, a zone
    /// by name or as ±hhmm) as seconds, nil when it is not one. libsoup's HTTP date parser reads the zone's name
    /// but then takes the time as UTC; DeviantArt writes its times in Pacific time.
    static func published(rfc822 text: String?) -> Int? {
        guard let text, text.utf8.count <= 64 else { return nil }
        var parts = text.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
        if parts.first?.first?.isLetter == true { parts.removeFirst() }  // the weekday
        guard parts.count == 5, let day = Int(parts[0]), let year = Int(parts[2]),
              let month = months.firstIndex(of: parts[1].lowercased().prefix(3)),
              let offset = zoneOffsetMinutes(parts[4]) else { return nil }
        let clock = parts[3].split(separator: ":").map { Int($0) }
        guard clock.count == 2 || clock.count == 3, let hour = clock[0], let minute = clock[1],
              let second = clock.count == 3 ? clock[2] : 0 else { return nil }
        // Two-digit years are RFC 822's own; RFC 1123 made them four.
        let fullYear = year < 100 ? year + (year < 50 ? 2000 : 1900) : year
        // GLib checks the fields itself, but only once they are gints: a year of twelve digits would trap in
        // the conversion first. GLib's own range, then.
        guard (1...9999).contains(fullYear), (1...31).contains(day), (0...23).contains(hour), (0...59).contains(minute),
              (0...60).contains(second),
              let date = g_date_time_new_utc(gint(fullYear), gint(month + 1), gint(day), gint(hour), gint(minute),
                                             gdouble(second)) else { return nil }
        defer { g_date_time_unref(date) }
        return Int(g_date_time_to_unix(date)) - offset * 60
    }

    private static let months: [Substring] = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct",
                                              "nov", "dec"]

    /// RFC 822's zones: universal time, the four US zones, military "Z", and ±hhmm.
    private static func zoneOffsetMinutes(_ zone: String) -> Int? {
        let named = ["gmt": 0, "ut": 0, "utc": 0, "z": 0, "est": -300, "edt": -240, "cst": -360, "cdt": -300,
                     "mst": -420, "mdt": -360, "pst": -480, "pdt": -420]
        if let minutes = named[zone.lowercased()] { return minutes }
        guard zone.count == 5, let sign = zone.first, sign == "+" || sign == "-",
              zone.dropFirst().allSatisfy({ $0.isASCII && $0.isNumber }), let digits = Int(zone.dropFirst()) else { return nil }
        let minutes = digits / 100 * 60 + digits % 100
        return sign == "-" ? -minutes : minutes
    }

    /// "1 June 2024, 14:00" in the local time zone and the user's language; nil outside GLib's years 1–9999.
    public static func display(_ seconds: Int) -> String? {
        guard let date = g_date_time_new_from_unix_local(gint64(seconds)) else { return nil }
        defer { g_date_time_unref(date) }
        // TRANSLATORS: how the details panel writes a date and time, in g_date_time_format's terms (%-d: day
        // without padding, %B: month name, %Y: year, %H:%M: hours and minutes). Reorder as your language does.
        return takeString(g_date_time_format(date, tr("%-d %B %Y, %H:%M")))
    }

    /// "2024-06-01T12:00:00Z": the time in UTC as ISO 8601 (for `--list --json`); nil outside years 1–9999.
    public static func iso8601(_ seconds: Int) -> String? {
        guard let date = g_date_time_new_from_unix_utc(gint64(seconds)) else { return nil }
        defer { g_date_time_unref(date) }
        return takeString(g_date_time_format_iso8601(date))
    }

    /// "just now", "5 minutes ago", "an hour ago", "3 days ago": how long ago `seconds` (since the epoch)
    /// was. A time in the future (a clock put back) is "just now".
    public static func ago(_ seconds: Double, now: Double = now()) -> String {
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
