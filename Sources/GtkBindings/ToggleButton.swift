internal import CGLib
internal import CGtk
import GObjectBindings

/// A button that stays pressed while its state is on (GtkToggleButton). Bound to a stateful action
/// (`actionName`), it shows the action's state and changes it when clicked.
@MainActor
public final class ToggleButton: Bin {
    /// An icon button; `tooltip` is its accessible name too.
    public init(iconName: String, tooltip: String) {
        super.init(gtk_toggle_button_new())
        gtk_button_set_image(widget.raw.as(GtkButton.self), gtk_image_new_from_icon_name(iconName, GTK_ICON_SIZE_BUTTON))
        self.tooltip = tooltip
        accessibleName = tooltip
    }

    private var toggleButton: UnsafeMutablePointer<GtkToggleButton> { widget.raw.as(GtkToggleButton.self) }

    public var isActive: Bool {
        get { gtk_toggle_button_get_active(toggleButton) != 0 }
        set { gtk_toggle_button_set_active(toggleButton, newValue.gboolean) }
    }

    /// The action (e.g. "win.show-details") the button toggles.
    public var actionName: String? {
        get { string(gtk_actionable_get_action_name(widget.raw.opaque)) }
        set { gtk_actionable_set_action_name(widget.raw.opaque, newValue) }
    }

    /// Emits `clicked`, as a user's click would.
    public func click() { gtk_button_clicked(widget.raw.as(GtkButton.self)) }
}
