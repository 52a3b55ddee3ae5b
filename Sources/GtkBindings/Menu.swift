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

    /// A submenu under `label` (its items' actions as for `append`).
    public func appendSubmenu(_ label: String, _ submenu: Menu) {
        g_menu_append_submenu(ref.opaque, label, submenu.ref.typed())
    }

    public func appendSection(_ section: Menu) {
        g_menu_append_section(ref.opaque, nil, section.ref.typed())
    }
}
