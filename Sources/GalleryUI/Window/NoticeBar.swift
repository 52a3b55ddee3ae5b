import GObjectBindings
import GtkBindings
import GalleryCore

/// The bar across the top of the window while the gallery shown is a saved copy because the service cannot
/// be reached, with Try Again. Short notes of something done go to the window's `InAppNotification`.
@MainActor
public final class NoticeBar {
    public enum Notice: Equatable {
        /// The first page is the copy saved `savedAgo` ("3 hours ago"); `service` cannot be reached.
        case offline(service: String, savedAgo: String)
    }

    public let bar = InfoBar()
    let icon = Image()
    public let label = Label()
    /// Loads the gallery again (win.reload): from the network once it is back.
    public let retryButton = Button(label: tr("_Try Again"))
    public private(set) var notice: Notice?

    public init() {
        let content = Box(.horizontal, spacing: 12)
        label.wraps = true
        label.xalign = 0
        label.hexpand = true
        icon.setIcon("network-offline-symbolic", pixelSize: 16)
        content.append(icon)
        content.append(label, expand: true)
        bar.setContent(content)
        bar.messageType = .warning
        retryButton.actionName = "win.reload"
        bar.addAction(retryButton)
        bar.accessibleName = tr("Notice")
    }

    /// What the window is in now: offline, or nil.
    public func show(_ notice: Notice?) {
        // The window asks on every change of the gallery; setting the same text would lay the bar out again.
        guard notice != self.notice else { return }
        self.notice = notice
        if case .offline(let service, let savedAgo) = notice {
            // TRANSLATORS: {service} is a service's name; {ago} is "just now", "an hour ago", "3 days ago"…
            label.text = tr("Offline: {service} cannot be reached. Showing the gallery as saved {ago}.",
                            ["service": service, "ago": savedAgo])
        }
        bar.isRevealed = notice != nil
    }
}
