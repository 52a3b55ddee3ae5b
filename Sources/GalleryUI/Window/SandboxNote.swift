import GObjectBindings
import GtkBindings
import GalleryCore

/// A bar across the top of the window, once a session, when images are decoded without the namespace
/// sandbox (bubblewrap cannot create namespaces here: some containers). It blocks nothing and stays until
/// closed: a person who starts the app from the desktop's menu never sees the same note on stderr.
@MainActor
final class SandboxNote {
    let bar = InfoBar()
    let label = Label()
    let closeButton = Button(iconName: "window-close-symbolic", tooltip: tr("Dismiss"))
    /// How many times the note was shown (tests: once).
    private(set) var timesShown = 0

    init(pipeline: ImagePipeline) {
        let content = Box(.horizontal, spacing: 12)
        label.wraps = true
        label.xalign = 0
        label.hexpand = true
        content.append(Image(iconName: "dialog-information-symbolic", pixelSize: 16))
        content.append(label, expand: true)
        bar.setContent(content)
        bar.messageType = .info
        closeButton.isFlat = true
        closeButton.onClicked { [weak self] in self?.bar.isRevealed = false }
        bar.addAction(closeButton)
        bar.accessibleName = tr("Notice")
        pipeline.whenNamespaceSandboxFails { [weak self] note in self?.show(note) }
    }

    private func show(_ note: String) {
        label.text = note
        bar.isRevealed = true
        timesShown += 1
    }
}
