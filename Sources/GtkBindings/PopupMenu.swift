internal import CGLib
internal import CGtk
import GObjectBindings

/// A context menu built from a menu model, attached to a widget whose action groups its items use.
@MainActor
public final class PopupMenu: Widget {
    public init(model: Menu, attachedTo widget: Widget) {
        super.init(gtk_menu_new_from_model(model.ref.typed())!)
        gtk_menu_attach_to_widget(menu, widget.widget, nil)
    }

    private var menu: UnsafeMutablePointer<GtkMenu> { widget.raw.as(GtkMenu.self) }

    /// Opens at the pointer, for `press`: the click whose handler is running (nil: the current event).
    public func popUpAtPointer(for press: ButtonPress? = nil) {
        gtk_menu_popup_at_pointer(menu, press?.event.as(GdkEvent.self))
    }

    /// Opens below `anchor` (a row chosen with the Menu key or Shift+F10), with the keyboard in the menu.
    public func popUp(at anchor: Widget) {
        gtk_menu_popup_at_widget(menu, anchor.widget, GDK_GRAVITY_SOUTH_WEST, GDK_GRAVITY_NORTH_WEST, nil)
        gtk_menu_shell_select_first(widget.raw.as(GtkMenuShell.self), 0)
    }

    public var isOpen: Bool { isVisible }
    public func close() { gtk_menu_popdown(menu) }
}
