import GObjectBindings
import GalleryCore

/// What a check found, taken into the New view on screen in place: the new view's gallery fills behind it (a
/// slice of items per main-loop turn, `Gallery(known:)`) and takes its place only once it holds every item, so
/// that the item at the top and the selected one are found again (`GalleryListView.replace`) wherever they
/// are among ten thousand. Dropped when the window has moved on by then (another gallery, or the large view or
/// find showing the old view's items): the images stay new, for the next check or a reload to show.
@MainActor
final class NewViewReplacement {
    /// Filling, with the view it is to replace.
    private(set) var filling: Gallery?
    private weak var replaced: Gallery?

    /// The window's gallery now.
    var shown: (@MainActor () -> Gallery?)?
    /// Whether the New view on screen may be replaced now.
    var mayReplace: (@MainActor () -> Bool)?
    /// `new` takes `old`'s place.
    var onReplace: (@MainActor (_ new: Gallery, _ old: Gallery) -> Void)?

    /// `new` (just made, not shown) fills behind `old`; one filling before it is dropped.
    func begin(_ new: Gallery, replacing old: Gallery) {
        cancel()
        filling = new
        replaced = old
        new.onStatusChange = { [weak self, weak new] in
            guard let self, let new else { return }
            filled(new)
        }
        // All of it may have come at once (a slice's worth).
        filled(new)
    }

    func cancel() {
        filling?.cancel()
        filling = nil
        replaced = nil
    }

    private func filled(_ new: Gallery) {
        guard filling === new, !new.mayHaveMore else { return }
        let old = replaced
        filling = nil
        replaced = nil
        new.onStatusChange = nil
        guard let old, shown?() === old, mayReplace?() ?? true else { return new.cancel() }
        onReplace?(new, old)
    }
}
