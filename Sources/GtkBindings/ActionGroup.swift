internal import CGLib
internal import CGtk
import GObjectBindings

/// A set of actions of its own (GSimpleActionGroup), e.g. a context menu's "row.*".
@MainActor
public final class ActionGroup: ActionMap {
    @_spi(GtkInterop) public let ref = ObjectRef(g_simple_action_group_new()!, transfer: .full)
    public init() {}

    public var actionMap: ActionMapHandle { ActionMapHandle(ref: ref) }
}

extension Widget {
    /// Makes `group`'s actions available as "PREFIX.NAME" to this widget and everything inside it (menus
    /// attached to it included).
    public func insertActionGroup(_ group: ActionGroup, prefix: String) {
        gtk_widget_insert_action_group(widget, prefix, group.ref.opaque)
    }
}
