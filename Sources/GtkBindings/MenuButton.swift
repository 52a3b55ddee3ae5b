internal import CGLib
internal import CGtk
import GObjectBindings

/// A header bar button that opens a menu (a menu model) or a popover of its own widgets.
@MainActor
public final class MenuButton: Widget {
    public init(iconName: String, tooltip: String, menu: Menu) {
        super.init(gtk_menu_button_new())
        gtk_menu_button_set_menu_model(button, menu.ref.typed())
        setIcon(iconName, tooltip: tooltip)
    }

    /// Opens `popover`, which the button then holds (and places under itself).
    public init(iconName: String, tooltip: String, popover: Popover) {
        super.init(gtk_menu_button_new())
        gtk_menu_button_set_popover(button, popover.widget)
        setIcon(iconName, tooltip: tooltip)
    }

    private var button: UnsafeMutablePointer<GtkMenuButton> { widget.raw.as(GtkMenuButton.self) }

    private func setIcon(_ iconName: String, tooltip: String) {
        gtk_button_set_image(widget.raw.as(GtkButton.self), gtk_image_new_from_icon_name(iconName, GTK_ICON_SIZE_BUTTON))
        self.tooltip = tooltip
        accessibleName = tooltip
    }

    /// Pressed in: its menu or popover is open. Setting it opens or closes them, as a click does.
    public var isActive: Bool {
        get { gtk_toggle_button_get_active(widget.raw.as(GtkToggleButton.self)) != 0 }
        set {
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
