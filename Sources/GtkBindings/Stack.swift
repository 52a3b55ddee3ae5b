import CGLib
import CGtk
import GObjectBindings

/// Shows one of several named children at a time.
@MainActor
public final class Stack: Widget {
    public init(transition: GtkStackTransitionType = GTK_STACK_TRANSITION_TYPE_CROSSFADE) {
        super.init(gtk_stack_new())
        gtk_stack_set_transition_type(stack, transition)
    }

    private var stack: UnsafeMutablePointer<GtkStack> { widget.raw.as(GtkStack.self) }

    public func add(_ child: Widget, name: String) { gtk_stack_add_named(stack, child.widget, name) }

    public var visibleChildName: String? {
        get { string(gtk_stack_get_visible_child_name(stack)) }
        set { gtk_stack_set_visible_child_name(stack, newValue) }
    }

    /// Same-size pages avoid a window resize when switching.
    public var isHomogeneous: Bool {
        get { gtk_stack_get_homogeneous(stack) != 0 }
        set { gtk_stack_set_homogeneous(stack, newValue.gboolean) }
    }
}
