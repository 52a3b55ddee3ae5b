import GObjectBindings
import GtkBindings
import GalleryCore

/// The header bar's controls: back button, details toggle and image menu (large view), source selector,
/// username entry, the list/grid switch, main menu.
@MainActor
public final class HeaderControls {
    public let bar = HeaderBar()
    public let backButton = Button(iconName: "go-previous-symbolic", tooltip: tr("Back to the Gallery"))
    public let sourceSelector = ComboBoxText()
    public let usernameEntry = Entry()
    let menuButton: MenuButton
    /// The large view's menu: zoom, save, copy, open in browser.
    public let imageMenuButton = MenuButton(iconName: "view-more-symbolic", tooltip: tr("Image Menu"),
                                            menu: ItemMenus.largeView())
    /// The large view's details panel, open or closed (`win.show-details`).
    public let detailsButton = ToggleButton(iconName: "document-properties-symbolic", tooltip: tr("Image Details"))
    let searchBox = Box(.horizontal, spacing: 0)
    /// On: the gallery shows as a grid of tiles; off: as a list (`win.grid`).
    public let gridToggle = ToggleButton(iconName: "view-grid-symbolic", tooltip: tr("Show as a Grid (Ctrl+2; Ctrl+1 for the list)"))
    /// Opens the find bar above the gallery (`win.find`).
    public let findButton = Button(iconName: "edit-find-symbolic", tooltip: tr("Find in the Gallery (Ctrl+F)"))
    /// The recent galleries: a button at the entry's end, and the entry's completion.
    public let recentGalleries: RecentGalleriesMenu

    public init(sources: [SourceKind]) {
        let menu = Menu()
        let viewSection = Menu()
        viewSection.append(tr("_Reload"), action: "win.reload")
        viewSection.append(tr("S_lideshow"), action: "win.slideshow")
        let intervals = Menu()
        for interval in SlideshowInterval.allCases {
            // TRANSLATORS: how long the slideshow shows each image; {seconds} is 3, 5 or 10.
            intervals.append(trn("{seconds} Second", "{seconds} Seconds", interval.seconds, ["seconds": interval.seconds]),
                             action: "win.slideshow-interval::\(interval.seconds)")
        }
        viewSection.appendSubmenu(tr("Slideshow _Interval"), intervals)
        viewSection.append(tr("Show _Sensitive Content"), action: "app.show-sensitive")
        menu.appendSection(viewSection)
        let followSection = Menu()
        followSection.append(tr("Check _Followed Galleries"), action: "win.check-following")
        followSection.append(tr("_Mark All New Images as Seen"), action: "win.mark-all-seen")
        followSection.append(tr("_Export Followed Galleries…"), action: "win.export-following")
        followSection.append(tr("_Import Followed Galleries…"), action: "win.import-following")
        menu.appendSection(followSection)
        let cacheSection = Menu()
        cacheSection.append(tr("Clear _Cache"), action: "app.clear-cache")
        menu.appendSection(cacheSection)
        let appSection = Menu()
        appSection.append(tr("_Keyboard Shortcuts"), action: "win.show-help-overlay")
        appSection.append(tr("_About Gallery Viewer"), action: "app.about")
        menu.appendSection(appSection)
        menuButton = MenuButton(iconName: "open-menu-symbolic", tooltip: tr("Main Menu"), menu: menu)
        recentGalleries = RecentGalleriesMenu(entry: usernameEntry)

        for source in sources { sourceSelector.append(id: source.rawValue, text: source.displayName) }
        sourceSelector.tooltip = tr("Where the gallery comes from")
        sourceSelector.accessibleName = tr("Source")
        // Narrow enough that the header bar keeps room for its title ("New Images") beside the Follow and
        // Following buttons; a longer name or link scrolls in it.
        usernameEntry.widthChars = 15
        usernameEntry.accessibleName = tr("Username")
        usernameEntry.tooltip = tr("Type a username and press Enter, or paste a profile link (Ctrl+L)")

        // Linked: the selector and the entry read as one control, as in GNOME's own search bars.
        searchBox.addStyleClass("linked")
        searchBox.append(sourceSelector)
        searchBox.append(usernameEntry)
        searchBox.append(recentGalleries.button)

        backButton.actionName = "win.back"
        bar.packStart(backButton)
        bar.packStart(searchBox)
        bar.packEnd(menuButton)
        bar.packEnd(imageMenuButton)
        // TRANSLATORS: the accessible name of the header bar's toggle that shows the gallery as a grid.
        gridToggle.accessibleName = tr("Grid")
        gridToggle.actionName = "win.grid"
        bar.packEnd(gridToggle)
        findButton.actionName = "win.find"
        findButton.accessibleName = tr("Find in the Gallery")
        bar.packEnd(findButton)
        detailsButton.actionName = "win.show-details"
        detailsButton.accessibleName = detailsButton.tooltip
        bar.packEnd(detailsButton)
        bar.showAll()
        backButton.hide()
        imageMenuButton.hide()
        detailsButton.hide()
    }

    public var selectedSource: SourceKind? {
        get { sourceSelector.activeID.flatMap(SourceKind.init(rawValue:)) }
        set { sourceSelector.activeID = newValue?.rawValue }
    }

    /// The Following button, placed before the find button and hidden in the large view as it is.
    private var galleryControls: [Widget] = []

    /// Following's controls: the Follow toggle joins the source and the username it follows, the Following
    /// button the gallery's own buttons.
    func addFollowControls(toggle: Widget, followingButton: Widget) {
        searchBox.append(toggle)
        toggle.show()
        bar.packEnd(followingButton)
        followingButton.show()
        followingButton.isVisible = searchBox.isVisible
        galleryControls.append(followingButton)
    }

    /// Gallery mode shows the search controls; the large view shows a back button instead.
    public func setViewerMode(_ viewer: Bool) {
        for control in galleryControls { control.isVisible = !viewer }
        backButton.isVisible = viewer
        imageMenuButton.isVisible = viewer
        detailsButton.isVisible = viewer
        searchBox.isVisible = !viewer
        gridToggle.isVisible = !viewer
        findButton.isVisible = !viewer
    }
}
