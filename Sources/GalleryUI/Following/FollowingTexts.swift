import GObjectBindings
import GalleryCore

/// What Following says of a check: the line under the popover's buttons and the desktop notification's text.
@MainActor
enum FollowingTexts {
    /// The line under the Following list's buttons: how the last check went and how long ago, written anew at
    /// each refresh, so "a minute ago" ages.
    static func status(_ report: FollowCheckReport, endedAt time: Double, now: Double = DateText.now()) -> String {
        if let error = report.storeError { return error.sentence }
        if report.offline { return tr("Offline: the list shows what the last check found.") }
        let ago = DateText.ago(time, now: now)
        var text: String
        if report.checked == 0, report.failures.isEmpty, report.skipped > 0 {
            // TRANSLATORS: a check that asked nothing: {count} galleries were checked less than 15 minutes before.
            text = trn("Not checked again: {count} gallery was checked less than 15 minutes ago",
                       "Not checked again: {count} galleries were checked less than 15 minutes ago", report.skipped)
        } else if report.newItems.isEmpty {
            // TRANSLATORS: {ago} is "just now", "5 minutes ago".
            text = tr("Last check {ago}: nothing new", ["ago": ago])
        } else {
            // TRANSLATORS: {ago} is "just now", "5 minutes ago".
            text = trn("Last check {ago}: {count} new image", "Last check {ago}: {count} new images", report.newItems.count,
                       ["ago": ago])
        }
        if !report.failures.isEmpty {
            // TRANSLATORS: after a check; {count} galleries could not be checked.
            text += " · " + trn("{count} gallery could not be checked", "{count} galleries could not be checked",
                                report.failures.count)
        }
        return text
    }

    /// "5 new images from aurora and 2 others".
    static func notification(_ items: [FollowedItem]) -> String {
        var names: [String] = []
        for item in items where !names.contains(item.galleryName) { names.append(item.galleryName) }
        // TRANSLATORS: the start of the notification's text: "5 new images".
        let images = trn("{count} new image", "{count} new images", items.count)
        guard names.count > 1 else {
            // TRANSLATORS: {images} is "5 new images", {name} a username.
            return tr("{images} from {name}", ["images": images, "name": names.first ?? ""])
        }
        // TRANSLATORS: "and 2 others": other followed galleries.
        let others = trn("{count} other", "{count} others", names.count - 1)
        // TRANSLATORS: {images} is "5 new images", {name} a username, {others} "2 others".
        return tr("{images} from {name} and {others}", ["images": images, "name": names[0], "others": others])
    }
}
