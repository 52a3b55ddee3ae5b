internal import CGLib
internal import CGtk
import GObjectBindings

/// A header bar button that opens a menu (a menu model) or a popover of its own widgets.
@MainActor
public final class MenuButton: Widget {
    /// The menu the button opens; its popover is made from it once, on first need (`installMenu`).
    public let menuModel: Menu?
    private var menuInstalled = false

    /// GTK 3 makes a menu model's whole popover (a widget per item) as soon as the model is set, a few
    /// milliseconds a menu before the window's first frame. So the model is set when the main loop is next idle
    /// at low priority, or earlier when the button is about to open; until then an empty popover keeps the
    /// button sensitive (GTK 3 greys out a menu button with neither).
    public init(iconName: String, tooltip: String, menu: Menu) {
        menuModel = menu
        super.init(gtk_menu_button_new())
        gtk_menu_button_set_popover(button, gtk_popover_new(nil))
        setIcon(iconName, tooltip: tooltip)
        watchOpening()
        let install = MainLoopSource.idle(priority: G_PRIORITY_LOW) { [weak self] in self?.installMenu() }
        // A window closed before the main loop was idle: its destroyed button gets no menu.
        onDestroy { [weak self] in
            install.cancel()
            self?.menuInstalled = true
        }
    }

    /// Opens `popover`, which the button then holds (and places under itself).
    public init(iconName: String, tooltip: String, popover: Popover) {
        menuModel = nil
        menuInstalled = true
        super.init(gtk_menu_button_new())
        gtk_menu_button_set_popover(button, popover.widget)
        setIcon(iconName, tooltip: tooltip)
        watchOpening()
    }

    /// The button is about to open its popover (pressed, activated from the keyboard, or `isActive` set),
    /// before GTK shows it, or has just opened it (clicked by accessibility), before it is painted: the moment
    /// to fill a popover made empty. It may run several times for one opening, and for closings too (GTK 3
    /// emits `clicked` for every change of the toggle): what it does must be done once.
    public var onOpening: (@MainActor () -> Void)?

    private var button: UnsafeMutablePointer<GtkMenuButton> { widget.raw.as(GtkMenuButton.self) }

    /// Ahead of GTK's own handlers: the press gesture's and the toggle's, which open the popover.
    private func watchOpening() {
        ref.connectEvent("button-press-event") { [weak self] _ in
            self?.opening()
            return false
        }
        ref.connect("activate") { [weak self] in self?.opening() }
        // An accessibility click goes straight to `clicked`, whose handler runs after GTK's has opened the
        // popover: still before it is laid out and painted.
        ref.connect("clicked") { [weak self] in self?.opening() }
    }

    private func opening() {
        installMenu()
        onOpening?()
    }

    /// Makes the menu's popover now, if not made yet (it replaces the empty one).
    public func installMenu() {
        guard !menuInstalled, let menuModel else { return }
        menuInstalled = true
        let toggle = widget.raw.as(GtkToggleButton.self)
        let wasOpen = gtk_toggle_button_get_active(toggle) != 0
        gtk_menu_button_set_menu_model(button, menuModel.ref.typed())
        // Already opened (the empty popover, by a click that came first), which the new popover closed: the menu
        // opens in its place.
        if wasOpen {
            if gtk_toggle_button_get_active(toggle) == 0 {
                gtk_toggle_button_set_active(toggle, 1)
            } else if let popover = gtk_menu_button_get_popover(button) {
                gtk_popover_popup(popover.raw.as(GtkPopover.self))
            }
        }
    }

    private func setIcon(_ iconName: String, tooltip: String) {
        gtk_button_set_image(widget.raw.as(GtkButton.self), gtk_image_new_from_icon_name(iconName, GTK_ICON_SIZE_BUTTON))
        self.tooltip = tooltip
        accessibleName = tooltip
    }

    /// Pressed in: its menu or popover is open. Setting it opens or closes them, as a click does.
    public var isActive: Bool {
        get { gtk_toggle_button_get_active(widget.raw.as(GtkToggleButton.self)) != 0 }
        set {
            if newValue, !isActive { opening() }
            // Opened while its popover still fades out from a close a moment ago (330 ms), GTK 3 lets the fade
            // finish and leaves the popover closed under a pressed button: the fade ends at once first.
            if newValue, !isActive, let popover = gtk_menu_button_get_popover(button),
               gtk_widget_get_visible(popover.raw.as(GtkWidget.self)) != 0 {
                gtk_widget_hide(popover.raw.as(GtkWidget.self))
            }
            gtk_toggle_button_set_active(widget.raw.as(GtkToggleButton.self), newValue.gboolean)
        }
    }
}
