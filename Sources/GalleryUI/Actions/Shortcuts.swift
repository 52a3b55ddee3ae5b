import GObjectBindings
import GtkBindings

/// One keyboard shortcut: what it does, the action it triggers, its keys (GTK accelerator syntax).
public struct Shortcut: Equatable, Sendable {
    public enum Group: CaseIterable, Sendable {
        case general
        case gallery
        case largeView

        /// The heading in the shortcuts window.
        public var title: String {
            switch self {
            // TRANSLATORS: a group of the keyboard shortcuts window.
            case .general: tr("General")
            case .gallery: tr("Gallery")
            case .largeView: tr("Large View")
            }
        }
    }

    public var group: Group
    public var title: String
    /// A detailed action ("win.reload"); nil for keys a widget handles itself (Enter in the entry).
    public var action: String?
    public var accelerators: [String]

    public init(_ group: Group, _ title: String, action: String?, _ accelerators: String...) {
        self.group = group
        self.title = title
        self.action = action
        self.accelerators = accelerators
    }
}

/// Every shortcut of the app, in one table: it installs the accelerators, fills the shortcuts window
/// (Ctrl+?), and the README's table is checked against it. Adding a shortcut is adding a line here.
@MainActor
public enum Shortcuts {
    public static let all: [Shortcut] = [
        .init(.general, tr("Focus the username entry"), action: "win.focus-search", "<Primary>l"),
        .init(.general, tr("Open the recent galleries"), action: "win.recent-galleries", "<Primary>h"),
        .init(.general, tr("Reload the gallery"), action: "win.reload", "<Primary>r"),
        .init(.general, tr("Start or end the slideshow (at the selected image)"), action: "win.slideshow", "F5"),
        .init(.general, tr("Show the keyboard shortcuts"), action: "win.show-help-overlay", "<Primary>question"),
        .init(.general, tr("Close the window"), action: "win.close", "<Primary>w"),
        .init(.general, tr("Quit (at once, also with downloads in flight)"), action: "app.quit", "<Primary>q"),
        .init(.gallery, tr("Load the gallery (in the username entry)"), action: nil, "Return"),
        .init(.gallery, tr("Find in the loaded items (Escape shows all again)"), action: "win.find", "<Primary>f"),
        .init(.gallery, tr("Follow or unfollow the gallery on screen"), action: "win.follow", "<Primary>d"),
        .init(.gallery, tr("Show as a list"), action: "win.view-mode::list", "<Primary>1"),
        .init(.gallery, tr("Show as a grid"), action: "win.view-mode::grid", "<Primary>2"),
        .init(.gallery, tr("Open the large view (on a row or tile)"), action: nil, "Return"),
        .init(.gallery, tr("Previous / next row; in the grid, the tile above / below"), action: nil, "Up", "Down"),
        .init(.gallery, tr("In the grid: previous / next tile"), action: nil, "Left", "Right"),
        .init(.gallery, tr("A screenful up / down"), action: nil, "Page_Up", "Page_Down"),
        .init(.gallery, tr("First / last item loaded; End also loads the next page"), action: nil,
              "Home", "End", "<Primary>Home", "<Primary>End"),
        .init(.gallery, tr("Select every item shown (Ctrl+click and Shift+click select several)"), action: nil, "<Primary>a"),
        .init(.gallery, tr("Select from the anchor to the previous / next item"), action: nil, "<Shift>Up", "<Shift>Down"),
        .init(.gallery, tr("Back to one selected item"), action: nil, "Escape"),
        .init(.gallery, tr("The row's or tile's menu (save, copy, open, print, background); of several: save them, copy their links"),
              action: nil, "Menu", "<Shift>F10"),
        .init(.largeView, tr("Leave full screen, then back to the gallery"), action: "win.back", "Escape", "<Alt>Left"),
        .init(.largeView, tr("Previous image"), action: "win.previous", "Page_Up"),
        .init(.largeView, tr("Next image"), action: "win.next", "Page_Down"),
        .init(.largeView, tr("Previous image; pans left when zoomed in"), action: "win.pan::left", "Left"),
        .init(.largeView, tr("Next image; pans right when zoomed in"), action: "win.pan::right", "Right"),
        .init(.largeView, tr("Pan up when zoomed in"), action: "win.pan::up", "Up"),
        .init(.largeView, tr("Pan down when zoomed in"), action: "win.pan::down", "Down"),
        .init(.largeView, tr("Zoom in (also Ctrl+scroll)"), action: "win.zoom-in",
              "<Primary>plus", "<Primary>equal", "plus", "KP_Add", "<Primary>KP_Add"),
        .init(.largeView, tr("Zoom out (also Ctrl+scroll)"), action: "win.zoom-out",
              "<Primary>minus", "minus", "KP_Subtract", "<Primary>KP_Subtract"),
        .init(.largeView, tr("Original size, 100 % (or double-click)"), action: "win.zoom-real-size", "<Primary>0", "1"),
        .init(.largeView, tr("Best fit (or double-click again)"), action: "win.zoom-fit", "f"),
        .init(.largeView, tr("Rotate clockwise (the view, not the file)"), action: "win.rotate-clockwise", "r"),
        .init(.largeView, tr("Rotate counterclockwise"), action: "win.rotate-counterclockwise", "<Shift>r"),
        .init(.largeView, tr("Full screen"), action: "win.fullscreen", "F11"),
        .init(.largeView, tr("Play or pause a video, sound or animation; pause or resume the slideshow"),
              action: "win.play-pause", "space"),
        .init(.largeView, tr("Mute or unmute a video or sound"), action: "win.mute", "m"),
        .init(.largeView, tr("Save the original image"), action: "win.save-image", "<Primary>s"),
        .init(.largeView, tr("Copy the image"), action: "win.copy-image", "<Primary>c"),
        .init(.largeView, tr("Copy the link to the item's page"), action: "win.copy-link", "<Primary><Shift>c"),
        .init(.largeView, tr("Open the original with another application"), action: "win.open-with", "<Primary><Shift>o"),
        .init(.largeView, tr("Print the image"), action: "win.print", "<Primary>p"),
        .init(.largeView, tr("Set the image as the desktop background"), action: "win.set-as-background", "<Primary>F8"),
        .init(.largeView, tr("Show or hide the image details"), action: "win.show-details", "<Alt>Return"),
    ]

    /// Sets every action's accelerators on `application` (replacing earlier ones; safe to repeat).
    public static func install(in application: Application) {
        for shortcut in all {
            if let action = shortcut.action { application.setAccelerators(shortcut.accelerators, for: action) }
        }
    }

    /// Ctrl+? and the main menu's "Keyboard Shortcuts" (win.show-help-overlay) open `window`'s shortcuts window,
    /// made the first time it is asked for: it is GtkBuilder's biggest tree here, a fifth of the window's start.
    /// (GTK adds no action of its own for it when the window has this one.)
    static func addHelpOverlayAction(to window: ApplicationWindow) {
        SimpleAction.add(to: window, name: "show-help-overlay") { [weak window] in
            guard let window else { return }
            let overlay = window.helpOverlay ?? {
                let made = makeWindow()
                window.setHelpOverlay(made)
                return made
            }()
            overlay.present()
        }
    }

    /// The shortcuts window, grouped as the table is.
    public static func makeWindow() -> ShortcutsWindow {
        let groups = Shortcut.Group.allCases.map { group in
            ShortcutsWindow.Group(title: group.title,
                                  shortcuts: all.filter { $0.group == group }.map { ($0.title, $0.accelerators) })
        }
        return ShortcutsWindow(title: tr("Keyboard Shortcuts"), searchButtonName: tr("Search Shortcuts"), groups: groups)
    }

    /// The keys as the README writes them: "<kbd>Ctrl</kbd>+<kbd>L</kbd>, <kbd>F5</kbd>". Read from the
    /// accelerator text itself (gtk_accelerator_parse would need a display).
    public nonisolated static func markdownKeys(_ accelerators: [String]) -> String {
        accelerators.map { accelerator in
            var rest = Substring(accelerator)
            var modifiers: [String] = []
            while rest.hasPrefix("<"), let close = rest.firstIndex(of: ">") {
                let name = rest[rest.index(after: rest.startIndex)..<close].lowercased()
                modifiers.append(["primary": "Ctrl", "control": "Ctrl", "ctrl": "Ctrl", "shift": "Shift",
                                  "alt": "Alt", "super": "Super"][name] ?? name)
                rest = rest[rest.index(after: close)...]
            }
            let order = ["Ctrl", "Shift", "Alt", "Super"]
            let sorted = modifiers.sorted { (order.firstIndex(of: $0) ?? 9) < (order.firstIndex(of: $1) ?? 9) }
            return (sorted + [keyLabel(String(rest))]).map { "<kbd>\($0)</kbd>" }.joined(separator: "+")
        }.joined(separator: ", ")
    }

    private nonisolated static func keyLabel(_ name: String) -> String {
        let labels = ["Left": "←", "Right": "→", "Up": "↑", "Down": "↓", "Return": "Enter", "question": "?",
                      "plus": "+", "minus": "-", "equal": "=", "KP_Add": "+ (keypad)",
                      "KP_Subtract": "- (keypad)", "Page_Up": "Page Up", "Page_Down": "Page Down", "space": "Space"]
        if let label = labels[name] { return label }
        return name.count == 1 ? name.uppercased() : String(name.map { $0 == "_" ? " " : $0 })
    }
}
