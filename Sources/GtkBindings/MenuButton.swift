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
    /// at low priority, or earlier when the button is pressed, activated from the keyboard or accessibility,
    /// or opened by `isActive`; until then an empty popover keeps the button sensitive (GTK 3 greys out a
    /// menu button with neither).
    public init(iconName: String, tooltip: String, menu: Menu) {
        menuModel = menu
        super.init(gtk_menu_button_new())
        gtk_menu_button_set_popover(button, gtk_popover_new(nil))
        setIcon(iconName, tooltip: tooltip)
        // Before GTK's own handlers (the press gesture's, the toggle's) open the popover.
        ref.connectEvent("button-press-event") { [weak self] _ in
            self?.installMenu()
            return false
        }
        ref.connect("activate") { [weak self] in self?.installMenu() }
        MainLoopSource.idle(priority: G_PRIORITY_LOW) { [weak self] in self?.installMenu() }
    }

    /// Opens `popover`, which the button then holds (and places under itself).
    public init(iconName: String, tooltip: String, popover: Popover) {
        menuModel = nil
        menuInstalled = true
        super.init(gtk_menu_button_new())
        gtk_menu_button_set_popover(button, popover.widget)
        setIcon(iconName, tooltip: tooltip)
    }

    private var button: UnsafeMutablePointer<GtkMenuButton> { widget.raw.as(GtkMenuButton.self) }

    /// Makes the menu's popover now, if not made yet (it replaces the empty one).
    public func installMenu() {
        guard !menuInstalled, let menuModel else { return }
        menuInstalled = true
        gtk_menu_button_set_menu_model(button, menuModel.ref.typed())
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
            if newValue { installMenu() }
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
