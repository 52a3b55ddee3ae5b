internal import CGLib
internal import CGtk
import GObjectBindings

/// Shows one of several named children at a time.
@MainActor
public final class Stack: Widget {
    /// How one page gives way to the next.
    public enum Transition: Sendable {
        /// At once.
        case none
        /// The old page fades out as the new one fades in.
        case crossfade

        var gtk: GtkStackTransitionType {
            switch self {
            case .none: GTK_STACK_TRANSITION_TYPE_NONE
            case .crossfade: GTK_STACK_TRANSITION_TYPE_CROSSFADE
            }
        }
    }

    public init(transition: Transition = .crossfade) {
        super.init(gtk_stack_new())
        gtk_stack_set_transition_type(stack, transition.gtk)
    }

    private var stack: UnsafeMutablePointer<GtkStack> { widget.raw.as(GtkStack.self) }

    public func add(_ child: Widget, name: String) { gtk_stack_add_named(stack, child.widget, name) }

    /// Pages changed while false show at once, whatever the transition (a launch's first screen: the page
    /// it replaces was hardly on screen, and a fade-in made it wait 250 ms).
    public var fadesBetweenPages = true

    public var visibleChildName: String? {
        get { string(gtk_stack_get_visible_child_name(stack)) }
        set {
            guard let newValue, !fadesBetweenPages else { return gtk_stack_set_visible_child_name(stack, newValue) }
            gtk_stack_set_visible_child_full(stack, newValue, GTK_STACK_TRANSITION_TYPE_NONE)
        }
    }

    /// A change of page is still fading in.
    public var isTransitionRunning: Bool { gtk_stack_get_transition_running(stack) != 0 }

    /// Same-size pages avoid a window resize when switching.
    public var isHomogeneous: Bool {
        get { gtk_stack_get_homogeneous(stack) != 0 }
        set { gtk_stack_set_homogeneous(stack, newValue.gboolean) }
    }
}
