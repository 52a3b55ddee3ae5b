import CGtk
import GObjectBindings
import GtkBindings
import GalleryCore

/// The bar across the top of the window: that the gallery shown is a saved copy because the service
/// cannot be reached (with Try Again), or a short note of something done (the cache cleared), which goes
/// away by itself.
@MainActor
public final class NoticeBar {
    public enum Notice: Equatable {
        /// The first page is the copy saved `savedAgo` ("3 hours ago"); `service` cannot be reached.
        case offline(service: String, savedAgo: String)
        case note(String)
    }

    public let bar = InfoBar()
    let icon = Image()
    public let label = Label()
    /// Loads the gallery again (win.reload): from the network once it is back.
    public let retryButton = Button(label: "_Try Again")
    public private(set) var notice: Notice?
    /// The notice a note covers for a while, back when the note is gone.
    private var lasting: Notice?
    private var noteTimer: MainLoopSource?

    /// How long a note stays (tests shorten it).
    static let defaultNoteMilliseconds: UInt32 = 8000
    static var noteMilliseconds = defaultNoteMilliseconds

    public init() {
        let content = Box(GTK_ORIENTATION_HORIZONTAL, spacing: 12)
        label.wraps = true
        label.xalign = 0
        label.hexpand = true
        content.append(icon)
        content.append(label, expand: true)
        bar.setContent(content)
        retryButton.actionName = "win.reload"
        bar.addAction(retryButton)
        bar.accessibleName = "Notice"
    }

    /// What the window is in now (offline or not); a note on display stays until its time is up.
    public func setLasting(_ notice: Notice?) {
        lasting = notice
        if noteTimer == nil { show(notice) }
    }

    /// Shows `text` for a few seconds, then what was there before.
    public func showNote(_ text: String) {
        noteTimer?.cancel()
        show(.note(text))
        noteTimer = MainLoopSource.after(milliseconds: Self.noteMilliseconds) { [weak self] in
            guard let self else { return }
            self.noteTimer = nil
            self.show(self.lasting)
        }
    }

    private func show(_ notice: Notice?) {
        // The window asks on every change of the gallery; setting the same text would lay the bar out again.
        guard notice != self.notice else { return }
        self.notice = notice
        switch notice {
        case .offline(let service, let savedAgo):
            bar.messageType = GTK_MESSAGE_WARNING
            icon.setIcon("network-offline-symbolic", pixelSize: 16)
            label.text = "Offline: \(service) cannot be reached. Showing the gallery as saved \(savedAgo)."
            retryButton.isVisible = true
        case .note(let text):
            bar.messageType = GTK_MESSAGE_INFO
            icon.setIcon("emblem-ok-symbolic", pixelSize: 16)
            label.text = text
            retryButton.isVisible = false
        case nil:
            break
        }
        bar.isRevealed = notice != nil
    }

    /// Stops the note's timer (the window is going away).
    public func stop() {
        noteTimer?.cancel()
        noteTimer = nil
    }
}
