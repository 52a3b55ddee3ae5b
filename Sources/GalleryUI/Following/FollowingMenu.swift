import GObjectBindings
import GtkBindings
import GalleryCore

/// The header bar's Following button and its popover: New Images (with how many) and Check Now at the top, a
/// line saying how the last check went, then one row per followed gallery (its name, its service, how many new
/// images, when it was last checked or what went wrong) with an Unfollow button. It only shows what
/// `FollowingWatch` gives it and says what the user picked.
@MainActor
final class FollowingMenu {
    let popover = Popover()
    let button: MenuButton
    let newButton = Button(label: tr("_New Images"))
    let checkButton = Button(iconName: "view-refresh-symbolic", tooltip: tr("Check Now (F5)"))
    /// How the last check went: "Checking…", "Checked just now", "Offline: showing what the last check found".
    let statusLabel = Label()
    let list = ListBox()
    /// The list's scroller: hidden with it when nothing is followed.
    private let scroller = ScrolledWindow()
    let emptyLabel = Label(tr("Galleries you follow appear here. Follow the one on screen with the star button (Ctrl+D)."))
    /// What the list shows, oldest follow first (or will show: its rows are made from when it first opens).
    private(set) var galleries: [FollowedGallery] = []
    /// The rows are being made or were: not before the popover first opens, so a window following hundreds of
    /// galleries makes none of their widgets, nor asks for their avatars, as it starts.
    private var isListMade = false
    /// Rows made in one main-loop turn: the first slice as the list opens (more than it shows), the others one
    /// a turn after it, so that a list of hundreds opens at once and fills in below while frames and keys go
    /// on (500 rows made in the click took half a second of a debug build's main loop).
    static let rowsPerSlice = 24
    /// Makes the rows still missing, a slice a turn; nil once every gallery has its row.
    private var filling: MainLoopSource?
    private(set) var rows: [ListBoxRow] = []
    private(set) var unfollowButtons: [Button] = []
    private(set) var detailLabels: [Label] = []
    private var nameLabels: [Label] = []
    private var avatars: [Image] = []

    var onOpen: (@MainActor (FollowedGallery) -> Void)?
    var onUnfollow: (@MainActor (FollowedGallery.Key) -> Void)?
    var onShowNew: (@MainActor () -> Void)?
    var onCheck: (@MainActor () -> Void)?
    /// The popover opened: what it says is read again ("checked 5 minutes ago" ages).
    var onOpened: (@MainActor () -> Void)?
    /// Loads a gallery's avatar (the longer side in pixels) and gives it to the image, if it is still shown.
    var loadAvatar: (@MainActor (FollowedGallery, Int, Image) -> Void)?

    init() {
        // TRANSLATORS: the header bar button that lists the followed galleries.
        button = MenuButton(iconName: "emblem-favorite-symbolic", tooltip: tr("Following"), popover: popover)
        button.accessibleName = tr("Following")
        layOut()
        button.onOpening = { [weak self] in self?.makeList() }
    }

    private func layOut() {
        let content = Box(.vertical, spacing: 6)
        content.setMargins(top: 6, bottom: 6, start: 6, end: 6)
        // Wide enough for "DeviantArt · 12 new · checked 25 minutes ago".
        content.setSizeRequest(width: 360, height: -1)
        let top = Box(.horizontal, spacing: 6)
        newButton.onClicked { [weak self] in
            self?.popover.popDown()
            self?.onShowNew?()
        }
        checkButton.accessibleName = tr("Check Now")
        checkButton.onClicked { [weak self] in self?.onCheck?() }
        top.append(newButton, expand: true)
        top.append(checkButton)
        statusLabel.xalign = 0
        statusLabel.wraps = true
        statusLabel.maxWidthChars = 40
        statusLabel.addStyleClass("following-status")
        list.selectionMode = .none
        list.activatesOnSingleClick = true
        list.accessibleName = tr("Followed Galleries")
        list.onRowActivated { [weak self] index in self?.open(at: index) }
        emptyLabel.wraps = true
        emptyLabel.maxWidthChars = 40
        emptyLabel.addStyleClass("dim-label")
        emptyLabel.setMargins(top: 12, bottom: 12, start: 12, end: 12)
        scroller.growWithContent(upTo: 420)
        scroller.setChild(list)
        content.append(top)
        content.append(statusLabel)
        content.append(Separator(.horizontal))
        content.append(scroller)
        content.append(emptyLabel)
        popover.setChild(content)
        content.showAll()
        // F5 checks, as Reload would in a browser; the popover has the keyboard while open.
        popover.onKeyPress { [weak self] key, modifiers in
            guard key == .f5, modifiers.isEmpty else { return false }
            self?.onCheck?()
            return true
        }
        popover.onMap { [weak self] in
            self?.newButton.grabFocus()
            self?.sayWhenChecked()
            self?.onOpened?()
        }
    }

    /// Shows `galleries` (oldest follow first) and the total of new images.
    func show(_ galleries: [FollowedGallery], newCount: Int) {
        let newLabel = newCount == 0 ? tr("_New Images")
            // TRANSLATORS: the Following popover's button that opens the New view; {count} is how many.
            : trn("_New Images ({count})", "_New Images ({count})", newCount)
        // Only when it changes: GTK makes the button's label widget anew each time.
        if newButton.label != newLabel { newButton.label = newLabel }
        // TRANSLATORS: the Following button's accessible description: how many images are new.
        button.accessibleDescription = trn("{count} new", "{count} new", newCount)
        button.setStyleClass("has-new", newCount > 0)
        scroller.isVisible = !galleries.isEmpty
        emptyLabel.isVisible = galleries.isEmpty
        guard isListMade else { return self.galleries = galleries }
        guard galleries != self.galleries || rows.isEmpty != galleries.isEmpty else { return }
        let keys = galleries.map(\.key)
        let shownKeys = self.galleries.map(\.key)
        if keys.starts(with: shownKeys) || Self.keeps(order: shownKeys, in: keys) {
            return keepRows(for: galleries)
        }
        makeRows(galleries)
    }

    /// Whether `keys` are `shown` less some of them, in the same order (galleries unfollowed).
    private static func keeps(order shown: [FollowedGallery.Key], in keys: [FollowedGallery.Key]) -> Bool {
        var rest = keys[...]
        for key in shown where key == rest.first { rest = rest.dropFirst() }
        return rest.isEmpty
    }

    /// Shows `galleries`, those shown in the same order with some gone (unfollowed) or some added after them
    /// (followed): the other rows stay, so the keyboard, a screen reader and the scroll keep their place, and
    /// only what changed is said again (a check of 500 galleries refreshes the list after each one, and
    /// rewriting every row each time took most of its main-loop time). Rows still to be made are made from the
    /// galleries as they are then.
    private func keepRows(for galleries: [FollowedGallery]) {
        let before = self.galleries
        let staying = Set(galleries.map(\.key))
        // Rows are made for the galleries in order, so those made are for a prefix of them.
        for index in before.indices.reversed() where index < rows.count && !staying.contains(before[index].key) {
            list.remove(rows[index])
            rows.remove(at: index)
            unfollowButtons.remove(at: index)
            nameLabels.remove(at: index)
            detailLabels.remove(at: index)
            avatars.remove(at: index)
        }
        let stayed = before.filter { staying.contains($0.key) }
        self.galleries = galleries
        for (index, gallery) in stayed.enumerated() where index < rows.count && gallery != galleries[index] {
            update(index, galleries[index], was: gallery)
        }
        if rows.count < galleries.count, filling == nil { fillLater() }
    }

    /// The rows for `galleries`, in place of those shown: the first slice now, the rest in the next turns.
    private func makeRows(_ galleries: [FollowedGallery]) {
        self.galleries = galleries
        filling?.cancel()
        filling = nil
        for row in rows { list.remove(row) }
        rows = []
        unfollowButtons = []
        detailLabels = []
        nameLabels = []
        avatars = []
        if makeNextRows() { fillLater() }
    }

    private func fillLater() {
        filling = MainLoopSource.whileIdle { [weak self] in self?.makeNextRows() ?? false }
    }

    /// Makes the next `rowsPerSlice` rows; whether some are still to be made.
    private func makeNextRows() -> Bool {
        for index in rows.count..<min(galleries.count, rows.count + Self.rowsPerSlice) {
            let (row, unfollow, name, detail, avatar) = makeRow(galleries[index])
            avatars.append(avatar)
            list.insert(row, at: index)
            rows.append(row)
            unfollowButtons.append(unfollow)
            nameLabels.append(name)
            detailLabels.append(detail)
        }
        if rows.count < galleries.count { return true }
        filling = nil
        return false
    }

    /// Every gallery has its row (none is waiting for a later turn).
    var isFilled: Bool { filling == nil }

    /// The window is closing: no more rows are made into its widgets.
    func stopFilling() {
        filling?.cancel()
        filling = nil
    }

    /// The popover is about to open the first time: its first rows are made now, before it shows.
    private func makeList() {
        guard !isListMade else { return }
        isListMade = true
        makeRows(galleries)
    }

    private func update(_ index: Int, _ gallery: FollowedGallery, was old: FollowedGallery) {
        if gallery.avatarURL != old.avatarURL { loadAvatar?(gallery, Self.avatarSize, avatars[index]) }
        if gallery.displayName != old.displayName {
            unfollowButtons[index].tooltip = Self.unfollowTooltip(gallery)
            unfollowButtons[index].accessibleName = Self.unfollowTooltip(gallery)
        }
        rows[index].accessibleName = Self.title(of: gallery)
        nameLabels[index].text = gallery.displayName
        detailLabels[index].text = Self.detail(of: gallery)
        detailLabels[index].setStyleClass("following-problem", gallery.lastProblem != nil)
    }

    /// "checked 5 minutes ago" ages: said again for every row as the popover opens.
    private func sayWhenChecked() {
        for (index, gallery) in galleries.enumerated() where detailLabels.indices.contains(index) {
            detailLabels[index].text = Self.detail(of: gallery)
        }
    }

    /// The line under the buttons.
    func showStatus(_ text: String) { statusLabel.text = text }

    static let avatarSize = 24

    /// "aurora on Demo", as the recent galleries say it.
    static func title(of gallery: FollowedGallery) -> String {
        RecentGalleriesMenu.title(of: RecentSearch(source: gallery.key.source, username: gallery.displayName))
    }

    /// "DeviantArt · 3 new · checked 5 minutes ago", or the last check's problem.
    static func detail(of gallery: FollowedGallery) -> String {
        var parts = [gallery.key.source.displayName]
        if gallery.newCount > 0 {
            // TRANSLATORS: how many images of one followed gallery are new.
            parts.append(trn("{count} new", "{count} new", gallery.newCount))
        }
        if let problem = gallery.lastProblem {
            parts.append(problem)
        } else if let checked = gallery.lastCheckedAt {
            // TRANSLATORS: {ago} is "5 minutes ago", "just now".
            parts.append(tr("checked {ago}", ["ago": DateText.ago(Double(checked) / 1000)]))
        } else {
            parts.append(tr("not checked yet"))
        }
        return parts.joined(separator: " · ")
    }

    private func makeRow(_ gallery: FollowedGallery) -> (ListBoxRow, Button, Label, Label, Image) {
        let row = ListBoxRow()
        row.accessibleName = Self.title(of: gallery)
        let box = Box(.horizontal, spacing: 12)
        box.setMargins(top: 4, bottom: 4, start: 6, end: 0)
        let avatar = Image(iconName: "avatar-default-symbolic", pixelSize: Self.avatarSize)
        avatar.addStyleClass("dim-label")
        avatar.setSizeRequest(width: Self.avatarSize, height: Self.avatarSize)
        loadAvatar?(gallery, Self.avatarSize, avatar)
        box.append(avatar)
        let texts = Box(.vertical, spacing: 2)
        texts.valign = .center
        let name = Label(gallery.displayName)
        name.xalign = 0
        name.ellipsize = .middle
        name.maxWidthChars = 32
        let detail = Label(Self.detail(of: gallery))
        detail.xalign = 0
        detail.ellipsize = .end
        detail.maxWidthChars = 40
        detail.addStyleClass("recent-gallery-source")
        if gallery.lastProblem != nil { detail.addStyleClass("following-problem") }
        texts.append(name)
        texts.append(detail)
        box.append(texts, expand: true)
        let unfollow = Button(iconName: "list-remove-symbolic", tooltip: Self.unfollowTooltip(gallery))
        unfollow.isFlat = true
        unfollow.valign = .center
        unfollow.onClicked { [weak self] in self?.onUnfollow?(gallery.key) }
        box.append(unfollow)
        row.setChild(box)
        box.showAll()
        row.show()
        return (row, unfollow, name, detail, avatar)
    }

    private static func unfollowTooltip(_ gallery: FollowedGallery) -> String {
        // TRANSLATORS: the button that stops following one gallery; {name} on {source} as in the recent galleries.
        tr("Unfollow {name} on {source}", ["name": gallery.displayName, "source": gallery.key.source.displayName])
    }

    private func open(at index: Int) {
        guard galleries.indices.contains(index) else { return }
        popover.popDown()
        onOpen?(galleries[index])
    }
}
