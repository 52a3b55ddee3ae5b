import GalleryCore

/// A length of time as a player shows it: "0:07", "12:05", "1:02:03".
enum DurationText {
    static func clock(_ seconds: Double) -> String {
        let total = seconds.isFinite ? max(0, Int(min(seconds, 1e9).rounded(.down))) : 0
        let (hours, minutes, rest) = (total / 3600, total / 60 % 60, total % 60)
        let secondsText = (rest < 10 ? "0" : "") + String(rest)
        if hours > 0 { return "\(hours):" + (minutes < 10 ? "0" : "") + "\(minutes):" + secondsText }
        return "\(minutes):" + secondsText
    }

    /// The service's stated length of `item`'s video or sound, nil when it gave none.
    static func stated(_ media: GalleryItem.Media?) -> String? {
        media?.durationMilliseconds.map { clock(Double($0) / 1000) }
    }
}
