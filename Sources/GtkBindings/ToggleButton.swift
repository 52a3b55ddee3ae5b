internal import CGLib
internal import CGtk
import GObjectBindings

/// A button that stays pressed in while on: bound to a stateful on/off action (`actionName`), it shows
/// and sets that action's state, and assistive technologies read it as a toggle button, pressed or not.
@MainActor
public final class ToggleButton: Bin {
    public init(iconName: String, tooltip: String) {
        super.init(gtk_toggle_button_new())
        gtk_button_set_image(widget.raw.as(GtkButton.self), gtk_image_new_from_icon_name(iconName, GTK_ICON_SIZE_BUTTON))
        self.tooltip = tooltip
    }

    private var toggle: UnsafeMutablePointer<GtkToggleButton> { widget.raw.as(GtkToggleButton.self) }

    public var isActive: Bool {
        get { gtk_toggle_button_get_active(toggle) != 0 }
        set { gtk_toggle_button_set_active(toggle, newValue.gboolean) }
    }

    /// The action (e.g. "win.grid") the button shows and toggles.
    public var actionName: String? {
        get { string(gtk_actionable_get_action_name(widget.raw.opaque)) }
        set { gtk_actionable_set_action_name(widget.raw.opaque, newValue) }
    }

    /// Emits `clicked`, as a user's click would.
    public func click() { gtk_button_clicked(widget.raw.as(GtkButton.self)) }
}
