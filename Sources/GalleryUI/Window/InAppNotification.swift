import GObjectBindings
import GtkBindings

/// A short message that drops from the header bar and goes by itself ("Saved sunset.jpg", "Link copied"),
/// as GNOME apps confirm what had no other visible effect.
@MainActor
final class InAppNotification {
    static let seconds: UInt32 = 3
    /// For a sentence rather than a few words.
    static let longSeconds: UInt32 = 8

    let revealer = Revealer()
    let label = Label()
    private let closeButton = Button(iconName: "window-close-symbolic", tooltip: tr("Dismiss"))
    private var hideTimer: MainLoopSource?

    init() {
        let box = Box(.horizontal, spacing: 12)
        box.addStyleClass("app-notification")
        // A problem's sentence (a file moved aside, its path) wraps rather than widening the window.
        label.wraps = true
        label.maxWidthChars = 70
        box.append(label)
        closeButton.isFlat = true
        closeButton.onClicked { [weak self] in self?.dismiss() }
        box.append(closeButton)
        revealer.setChild(box)
        revealer.halign = .center
        revealer.valign = .start
        revealer.showAll()
    }

    /// The message shown now, "" when none.
    var text: String { revealer.isRevealed ? label.text : "" }

    /// Shows `message` for `seconds`; nil: until dismissed (what the user must not miss).
    func show(_ message: String, seconds: UInt32? = seconds) {
        label.text = message
        revealer.isRevealed = true
        hideTimer?.cancel()
        hideTimer = nil
        guard let seconds else { return }
        hideTimer = MainLoopSource.after(milliseconds: seconds * 1000) { [weak self] in self?.dismiss() }
    }

    func dismiss() {
        hideTimer?.cancel()
        hideTimer = nil
        revealer.isRevealed = false
    }
}
