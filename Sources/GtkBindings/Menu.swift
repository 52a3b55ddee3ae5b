internal import CGLib
internal import CGtk
import GObjectBindings

/// A menu model (GMenu) whose items trigger actions by name.
@MainActor
public final class Menu {
    @_spi(GtkInterop) public let ref: ObjectRef

    public init() {
        ref = ObjectRef(g_menu_new()!, transfer: .full)
    }

    /// `action` is a detailed action name, e.g. "app.show-sensitive".
    public func append(_ label: String, action: String) {
        g_menu_append(ref.opaque, label, action)
    }

    public func appendSection(_ section: Menu) {
        g_menu_append_section(ref.opaque, nil, section.ref.typed())
    }
}

/// A header bar button that opens a menu.
@MainActor
public final class MenuButton: Widget {
    public init(iconName: String, tooltip: String, menu: Menu) {
        super.init(gtk_menu_button_new())
        let button = widget.raw.as(GtkMenuButton.self)
        gtk_menu_button_set_menu_model(button, menu.ref.typed())
        gtk_button_set_image(widget.raw.as(GtkButton.self), gtk_image_new_from_icon_name(iconName, GTK_ICON_SIZE_BUTTON))
        self.tooltip = tooltip
        accessibleName = tooltip
    }
}
