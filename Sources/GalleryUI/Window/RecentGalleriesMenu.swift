import GObjectBindings
import GtkBindings
import GalleryCore

/// The recent galleries beside the username entry: a button at its end opens a popover listing them (newest
/// first, each with a remove button, and Clear History), and the entry completes what is typed from the same
/// list. Choosing one searches it; what the list holds and keeps is the window's and the state file's
/// (`RecentGalleries`), this only shows it.
@MainActor
public final class RecentGalleriesMenu {
    public let popover = Popover()
    public let button: MenuButton
    let list = ListBox()
    let emptyLabel = Label(tr("Galleries you open appear here."))
    public let clearButton = Button(label: tr("_Clear History"))
    let completionRows = ListStore(textColumns: 1)
    let completion: EntryCompletion
    /// What the list shows now, newest first.
    public private(set) var entries: [RecentSearch] = []
    /// One row per entry, in the same order.
    public private(set) var rows: [ListBoxRow] = []
    /// Each row's remove button, in the same order.
    public private(set) var removeButtons: [Button] = []
    /// Each row's second line, the source's name.
    private(set) var sourceLabels: [Label] = []

    /// A gallery was chosen (in the popover or the completion): search it.
    var onChoose: (@MainActor (RecentSearch) -> Void)?
    /// Its remove button was clicked.
    var onRemove: (@MainActor (RecentSearch) -> Void)?
    var onClear: (@MainActor () -> Void)?

    init(entry: Entry) {
        button = MenuButton(iconName: "document-open-recent-symbolic", tooltip: tr("Recent Galleries"), popover: popover)
        completion = EntryCompletion(model: completionRows, textColumn: 0)
        layOut()
        completion.minimumKeyLength = 1
        completion.setMatch { [weak self] text, row in
            guard let self, self.entries.indices.contains(row) else { return false }
            return RecentGalleries.matches(text, self.entries[row])
        }
        completion.onMatchSelected { [weak self] row in self?.choose(at: row) }
        completion.attach(to: entry)
    }

    private func layOut() {
        let content = Box(.vertical, spacing: 6)
        content.setMargins(top: 6, bottom: 6, start: 6, end: 6)
        list.selectionMode = .none
        list.activatesOnSingleClick = true
        list.accessibleName = tr("Recent Galleries")
        list.addStyleClass("recent-galleries")
        list.onRowActivated { [weak self] index in self?.choose(at: index) }
        emptyLabel.addStyleClass("dim-label")
        emptyLabel.setMargins(top: 12, bottom: 12, start: 12, end: 12)
        clearButton.isFlat = true
        clearButton.onClicked { [weak self] in
            self?.popover.popDown()
            self?.onClear?()
        }
        content.append(list)
        content.append(emptyLabel)
        content.append(Separator(.horizontal))
        content.append(clearButton)
        popover.setChild(content)
        content.showAll()
        // The keyboard starts on the newest gallery, as in a menu.
        popover.onMap { [weak self] in self?.rows.first?.grabFocus() }
    }

    /// Shows `entries` (newest first) in the popover and the completion.
    func show(_ entries: [RecentSearch]) {
        guard entries != self.entries || rows.isEmpty != entries.isEmpty else { return }
        self.entries = entries
        for row in rows { list.remove(row) }
        rows = []
        removeButtons = []
        sourceLabels = []
        for (index, entry) in entries.enumerated() {
            let (row, removeButton, sourceLabel) = makeRow(entry)
            list.insert(row, at: index)
            rows.append(row)
            removeButtons.append(removeButton)
            sourceLabels.append(sourceLabel)
        }
        completionRows.replaceRows(entries.map { [Self.title(of: $0)] })
        list.isVisible = !entries.isEmpty
        emptyLabel.isVisible = entries.isEmpty
        clearButton.isSensitive = !entries.isEmpty
    }

    /// "aurora on Demo": a row's accessible name and the completion's text.
    nonisolated static func title(of entry: RecentSearch) -> String {
        // TRANSLATORS: a recent gallery: {name} is a username, {source} a service such as Mastodon.
        tr("{name} on {source}", ["name": entry.username, "source": entry.source.displayName])
    }

    private func makeRow(_ entry: RecentSearch) -> (ListBoxRow, Button, Label) {
        let row = ListBoxRow()
        row.accessibleName = Self.title(of: entry)
        let box = Box(.horizontal, spacing: 12)
        box.setMargins(top: 4, bottom: 4, start: 6, end: 0)
        let texts = Box(.vertical, spacing: 2)
        texts.valign = .center
        let name = Label(entry.username)
        name.xalign = 0
        name.ellipsize = .middle
        name.maxWidthChars = 32
        let source = Label(entry.source.displayName)
        source.xalign = 0
        // Secondary, but not dim-label: at its opacity of 0.55 Adwaita's text reads at about 3:1.
        source.addStyleClass("recent-gallery-source")
        texts.append(name)
        texts.append(source)
        box.append(texts, expand: true)
        // TRANSLATORS: the button taking one gallery off the recent galleries; {name} on {source} as above.
        let remove = Button(iconName: "window-close-symbolic",
                            tooltip: tr("Remove {name} on {source} from Recent Galleries",
                                        ["name": entry.username, "source": entry.source.displayName]))
        remove.isFlat = true
        remove.valign = .center
        remove.onClicked { [weak self] in self?.removeClicked(entry) }
        box.append(remove)
        row.setChild(box)
        box.showAll()
        row.show()
        return (row, remove, source)
    }

    /// Where the keyboard goes once a removed row is gone: the row that took its place.
    private var focusAfterRemoval: Int?

    private func removeClicked(_ entry: RecentSearch) {
        focusAfterRemoval = entries.firstIndex(of: entry)
        onRemove?(entry)
        if let index = focusAfterRemoval, popover.isOpen {
            if rows.isEmpty { popover.grabFocus() } else { rows[min(index, rows.count - 1)].grabFocus() }
        }
        focusAfterRemoval = nil
    }

    private func choose(at index: Int) {
        guard entries.indices.contains(index) else { return }
        let entry = entries[index]
        popover.popDown()
        onChoose?(entry)
    }

    /// Opens the popover (Ctrl+H), or closes it when it is open.
    public func toggle() {
        button.isActive = !button.isActive
    }
}
