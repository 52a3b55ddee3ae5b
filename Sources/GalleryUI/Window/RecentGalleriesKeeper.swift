import GObjectBindings
import GtkBindings
import GalleryCore

/// The recent galleries (`RecentGalleries`, kept in the state file): a search goes on the list once the
/// service answered for the user (see `RecentGalleries.verdict`), under the source and name it searched —
/// a pasted profile link is remembered as the source and user it led to. Choosing one searches it (the
/// source picker switches with it); removing one or clearing the list saves at once.
@MainActor
final class RecentGalleriesKeeper {
    private let menu: RecentGalleriesMenu
    private let stateFile: RecentSearchStore?
    /// The gallery whose outcome the list already took in.
    private weak var rememberedGallery: Gallery?
    /// A recent gallery was chosen: search it.
    var onChoose: (@MainActor (RecentSearch) -> Void)?
    /// `win.recent-galleries` (Ctrl+H) is about to open the list: the large view makes way.
    var onWillToggle: (@MainActor () -> Void)?

    init(window: ApplicationWindow, menu: RecentGalleriesMenu, stateFile: RecentSearchStore?) {
        self.menu = menu
        self.stateFile = stateFile
        menu.onChoose = { [weak self] entry in self?.onChoose?(entry) }
        menu.onRemove = { [weak self] entry in
            guard let self, let stateFile = self.stateFile else { return }
            stateFile.forget(entry)
            self.showEntries()
        }
        menu.onClear = { [weak self] in
            guard let self, let stateFile = self.stateFile else { return }
            stateFile.forgetAll()
            self.showEntries()
        }
        menu.button.isVisible = stateFile != nil
        showEntries()
        SimpleAction.add(to: window, name: "recent-galleries") { [weak self] in
            guard let self, self.stateFile != nil else { return }
            self.onWillToggle?()
            self.menu.toggle()
        }
    }

    private func showEntries() {
        menu.show(stateFile?.recentGalleries.entries ?? [])
    }

    /// Called on every change of the gallery shown: puts it on the list once its outcome is known.
    func rememberIfAnswered(_ gallery: Gallery) {
        // The New view is no service's gallery: nothing to search again.
        guard let stateFile, rememberedGallery !== gallery, !gallery.isKnownItems else { return }
        switch RecentGalleries.verdict(hasItems: !gallery.downloads.isEmpty, state: gallery.feed.state) {
        case .undecided:
            return
        case .leaveOut:
            rememberedGallery = gallery
        case .remember:
            rememberedGallery = gallery
            stateFile.remember(RecentSearch(source: gallery.source.kind, username: gallery.source.username))
            showEntries()
        }
    }
}
