import CGLib
import CGtk
import GObjectBindings

/// Shows and hides its child with a slide (an in-app notification dropping from the header bar).
@MainActor
public final class Revealer: Bin {
    public init(transition: GtkRevealerTransitionType = GTK_REVEALER_TRANSITION_TYPE_SLIDE_DOWN) {
        super.init(gtk_revealer_new())
        gtk_revealer_set_transition_type(widget.raw.as(GtkRevealer.self), transition)
    }

    public var isRevealed: Bool {
        get { gtk_revealer_get_reveal_child(widget.raw.as(GtkRevealer.self)) != 0 }
        set { gtk_revealer_set_reveal_child(widget.raw.as(GtkRevealer.self), newValue.gboolean) }
    }
}

extension Widget {
    /// Makes `group`'s actions available as "PREFIX.NAME" to this widget and everything inside it (menus
    /// attached to it included).
    public func insertActionGroup(_ group: ObjectRef, prefix: String) {
        gtk_widget_insert_action_group(widget, prefix, group.opaque)
    }
}

/// A set of actions of its own (GSimpleActionGroup), e.g. a context menu's "row.*".
@MainActor
public final class ActionGroup {
    public let ref = ObjectRef(g_simple_action_group_new()!, transfer: .full)
    public init() {}
}
