internal import CGLib
internal import CGtk
import GObjectBindings

/// What named actions live on: the application ("app.*"), an application window ("win.*"), or an
/// `ActionGroup` inserted into a widget under a prefix of its own. Menus, buttons and accelerators trigger
/// them by name; `SimpleAction.add(to:…)` adds them.
@MainActor
public protocol ActionMap: AnyObject {
    /// The object behind it, for the bindings.
    var actionMap: ActionMapHandle { get }
}

/// A GObject that is both a GActionMap and a GActionGroup (GApplication, GtkApplicationWindow,
/// GSimpleActionGroup). Only the bindings look inside.
public struct ActionMapHandle {
    let ref: ObjectRef
}

extension ActionMap {
    /// Activates the action `name` (without its prefix) as a menu item, a button or a shortcut does: by name,
    /// through GAction, with no wrapper of the action needed.
    public func activateAction(_ name: String) {
        g_action_group_activate_action(actionMap.ref.opaque, name, nil)
    }
}
