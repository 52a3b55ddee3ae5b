import GObjectBindings
import GtkBindings
import GalleryCore

/// The line after the gallery's last item: "Loading more…", "End of gallery · 60 images", why the next page
/// did not come, with a spinner while more is on its way.
@MainActor
final class GalleryFooter {
    let box = Box(.horizontal, spacing: 8)
    let spinner = Spinner()
    let label = Label()

    init() {
        box.halign = .center
        box.setMargins(top: 12, bottom: 18)
        box.append(spinner)
        label.addStyleClass("dim-label")
        box.append(label)
    }

    /// Says what `gallery`'s feed is doing (nothing without a gallery).
    func update(for gallery: Gallery?) {
        guard let gallery else {
            spinner.isSpinning = false
            label.text = ""
            return
        }
        switch gallery.feed.state {
        case .loading:
            spinner.isSpinning = !gallery.downloads.isEmpty
            label.text = gallery.downloads.isEmpty ? "" : tr("Loading more…")
        case .waiting(_, let seconds):
            spinner.isSpinning = true
            label.text = trn("Waiting {count} s before loading more…", "Waiting {count} s before loading more…", seconds)
        case .finished:
            spinner.isSpinning = false
            label.text = trn("End of gallery · {count} image", "End of gallery · {count} images", gallery.downloads.count)
        case .failed(let error) where !gallery.downloads.isEmpty:
            spinner.isSpinning = false
            // TRANSLATORS: {reason} is why the next page did not come, such as "Offline" or "Could not connect".
            label.text = tr("Could not load more: {reason}", ["reason": error.title])
        case .idle, .failed:
            spinner.isSpinning = false
            label.text = ""
        }
    }
}
