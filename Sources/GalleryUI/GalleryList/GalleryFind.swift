import GObjectBindings
import GtkBindings
import GalleryCore

/// Find in the gallery (Ctrl+F): a search bar above the list or grid; as the user types, only the loaded
/// items whose title or description hold every word show (`GalleryTextSearch`, on a worker), and the bar
/// says how many of how many loaded match. A page that arrives meanwhile is searched too; the end of the
/// found items asks for no more pages. Enter goes to the first found item; Escape (or Ctrl+F again) closes
/// the bar and shows every item again. The large view's previous and next step through what shows.
@MainActor
final class GalleryFind {
    let bar = SearchBar()
    let entry = Entry()
    /// "3 of 60 loaded items".
    let countLabel = Label()
    private let listView: GalleryListView
    private var search: GalleryTextSearch?
    /// What the items shown were found for ("" while all show).
    private(set) var shownQuery = ""
    private weak var searchedGallery: Gallery?
    /// The bar is to open: the window leaves the large view first.
    var onOpen: (@MainActor () -> Void)?
    /// The bar closed: every item shows again.
    var onClose: (@MainActor () -> Void)?

    init(window: ApplicationWindow, listView: GalleryListView) {
        self.listView = listView
        let box = Box(.horizontal, spacing: 12)
        entry.widthChars = 30
        // TRANSLATORS: the placeholder and accessible name of the entry that filters the gallery (Ctrl+F).
        entry.placeholder = tr("Find in the gallery")
        entry.accessibleName = tr("Find in the Gallery")
        countLabel.addStyleClass("dim-label")
        box.append(entry)
        box.append(countLabel)
        bar.setContent(box)
        bar.connect(entry: entry)
        bar.showAll()

        entry.onSearchChanged { [weak self] in self?.run() }
        entry.onActivate { [weak self] in
            guard let self, self.listView.rowCount > 0 else { return }
            self.listView.select(0, focus: true)
        }
        bar.onSearchModeChanged { [weak self] open in if !open { self?.cleared() } }
        listView.onAppendedWhileFound = { [weak self] in self?.run() }
        SimpleAction.add(to: window, name: "find") { [weak self] in self?.toggle() }
    }

    var isOpen: Bool { bar.isSearchModeEnabled }

    /// Ctrl+F: opens the bar with its text selected, or closes it.
    func toggle() {
        if isOpen { return close() }
        guard listView.gallery?.downloads.isEmpty == false else { return }
        onOpen?()
        bar.isSearchModeEnabled = true
        // The bar just opened from a key press (Ctrl+F): the focused entry gets that key's release.
        entry.realize()
        entry.focusAndSelectAll()
    }

    /// Closes the bar (a new gallery, Escape): every item shows again.
    func close() {
        bar.isSearchModeEnabled = false
        cleared()
    }

    private func cleared() {
        shownQuery = ""
        search = nil
        searchedGallery = nil
        countLabel.text = ""
        listView.showOnly(nil)
        onClose?()
    }

    /// What is typed now, searched among the items loaded now.
    private func run() {
        guard isOpen, let gallery = listView.gallery else { return }
        let query = entry.text.trimmed
        guard !query.isEmpty else {
            shownQuery = ""
            countLabel.text = ""
            return listView.showOnly(nil)
        }
        if searchedGallery !== gallery {
            search = GalleryTextSearch(gallery: gallery)
            searchedGallery = gallery
        }
        search?.find(query) { [weak self, weak gallery] result in
            guard let self, let gallery, self.listView.gallery === gallery, self.isOpen,
                  self.entry.text.trimmed == query else { return }
            let downloads = gallery.downloads
            self.listView.showOnly(result.indices.compactMap { downloads.indices.contains($0) ? downloads[$0] : nil },
                                   adding: query == self.shownQuery)
            self.shownQuery = query
            // TRANSLATORS: in the find bar; {found} of the {loaded} items loaded so far match what was typed.
            self.countLabel.text = trn("{found} of {loaded} loaded item", "{found} of {loaded} loaded items", result.searched,
                                       ["found": result.indices.count, "loaded": result.searched])
        }
    }
}
