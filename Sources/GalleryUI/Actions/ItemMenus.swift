import GObjectBindings
import GtkBindings

/// The menus of an item: the large view's (header bar button, right-click on the picture) and a row's.
@MainActor
enum ItemMenus {
    /// Zoom and the item actions on the large view's item ("win.*").
    static func largeView() -> Menu {
        let menu = Menu()
        let zoom = Menu()
        zoom.append(tr("Zoom _In"), action: "win.zoom-in")
        zoom.append(tr("Zoom _Out"), action: "win.zoom-out")
        zoom.append(tr("_Best Fit"), action: "win.zoom-fit")
        zoom.append(tr("O_riginal Size"), action: "win.zoom-real-size")
        zoom.append(tr("Rota_te Clockwise"), action: "win.rotate-clockwise")
        zoom.append(tr("Rotate Co_unterclockwise"), action: "win.rotate-counterclockwise")
        zoom.append(tr("_Fullscreen"), action: "win.fullscreen")
        menu.appendSection(zoom)
        appendActions(to: menu, prefix: "win")
        return menu
    }

    /// A row's context menu ("row.*", on the item the row showed when it opened).
    static func row() -> Menu {
        let menu = Menu()
        let open = Menu()
        open.append(tr("_Open"), action: "row.open")
        menu.appendSection(open)
        appendActions(to: menu, prefix: "row")
        return menu
    }

    /// The menu of several selected items ("row.*"): what applies to them all, counted.
    static func selection(saved: Int, links: Int) -> Menu {
        let menu = Menu()
        // TRANSLATORS: a menu item saving several selected images into a folder; {count} is how many.
        menu.append(trn("_Save {count} Image…", "_Save {count} Images…", saved, ["count": saved]), action: "row.save-selection")
        // TRANSLATORS: a menu item copying the page links of several selected items; {count} is how many.
        menu.append(trn("Copy {count} _Link", "Copy {count} _Links", links, ["count": links]), action: "row.copy-selection-links")
        return menu
    }

    /// The item actions in their groups, as EOG and Loupe group them: save and copy, open elsewhere, print and
    /// background. Every action is in exactly one group (ShortcutsTests checks).
    static let groups: [[ItemAction]] = [[.saveImage, .copyImage, .copyLink], [.openInBrowser, .openWith],
                                         [.print, .setAsBackground]]

    private static func appendActions(to menu: Menu, prefix: String) {
        for group in groups {
            let section = Menu()
            for action in group { section.append(action.menuLabel, action: "\(prefix).\(action.rawValue)") }
            menu.appendSection(section)
        }
    }
}
