import GObjectBindings
import GtkBindings
import GalleryCore

/// The recent galleries (`RecentGalleries`, kept in the state file): a search goes on the list once the
/// service answered for the user (see `RecentGalleries.verdict`), under the source and name it searched —
/// a pasted profile link is remembered as the source and user it led to. Choosing one searches it (the
/// source picker switches with it); removing one or clearing the list saves at once.
extension MainWindow {
    func installRecentGalleries() {
        let menu = header.recentGalleries
        menu.onChoose = { [weak self] entry in self?.search(source: entry.source, username: entry.username) }
        menu.onRemove = { [weak self] entry in
            guard let self, let stateFile = self.services.stateFile else { return }
            stateFile.forget(entry)
            self.showRecentGalleries()
        }
        menu.onClear = { [weak self] in
            guard let self, let stateFile = self.services.stateFile else { return }
            stateFile.forgetAll()
            self.showRecentGalleries()
        }
        menu.button.isVisible = services.stateFile != nil
        showRecentGalleries()
        SimpleAction.add(to: window, name: "recent-galleries") { [weak self] in
            guard let self, self.services.stateFile != nil else { return }
            self.closeLargeView()
            self.header.recentGalleries.toggle()
        }
    }

    func showRecentGalleries() {
        header.recentGalleries.show(services.stateFile?.recentGalleries.entries ?? [])
    }

    /// Called on every change of the gallery shown: puts it on the list once its outcome is known.
    func rememberIfAnswered(_ gallery: Gallery) {
        guard let stateFile = services.stateFile, rememberedGallery !== gallery else { return }
        switch RecentGalleries.verdict(hasItems: !gallery.downloads.isEmpty, state: gallery.feed.state) {
        case .undecided:
            return
        case .leaveOut:
            rememberedGallery = gallery
        case .remember:
            rememberedGallery = gallery
            stateFile.remember(RecentSearch(source: gallery.source.kind, username: gallery.source.username))
            showRecentGalleries()
        }
    }
}
