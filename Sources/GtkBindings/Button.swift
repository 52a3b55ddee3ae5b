internal import CGLib
internal import CGtk
import GObjectBindings

@MainActor
public final class Button: Bin {
    public init(label: String? = nil) {
        super.init(label.map { gtk_button_new_with_mnemonic($0) } ?? gtk_button_new())
    }

    public convenience init(iconName: String, tooltip: String) {
        self.init()
        gtk_button_set_image(button, gtk_image_new_from_icon_name(iconName, GTK_ICON_SIZE_BUTTON))
        self.tooltip = tooltip
        accessibleName = tooltip
    }

    private var button: UnsafeMutablePointer<GtkButton> { widget.raw.as(GtkButton.self) }

    /// Replaces the button's icon (a play button turning into a pause button).
    public func setIcon(_ iconName: String) {
        gtk_button_set_image(button, gtk_image_new_from_icon_name(iconName, GTK_ICON_SIZE_BUTTON))
    }

    /// Flat: no frame until hovered, as for buttons inside rows and header bars.
    /// The button's text, with its mnemonic ("_New Images").
    public var label: String {
        get { gtk_button_get_label(button).map { String(cString: $0) } ?? "" }
        set { gtk_button_set_label(button, newValue) }
    }

    public var isFlat: Bool {
        get { gtk_button_get_relief(button) == GTK_RELIEF_NONE }
        set { gtk_button_set_relief(button, newValue ? GTK_RELIEF_NONE : GTK_RELIEF_NORMAL) }
    }

    public func onClicked(_ handler: @escaping @MainActor () -> Void) {
        ref.connect("clicked", handler)
    }

    /// Emits `clicked`, as a user's click would.
    public func click() { gtk_button_clicked(button) }

    /// The action (e.g. "app.reload", "win.back") the button triggers.
    public var actionName: String? {
        get { string(gtk_actionable_get_action_name(widget.raw.opaque)) }
        set { gtk_actionable_set_action_name(widget.raw.opaque, newValue) }
    }
}
