internal import CGLib
internal import CGtk
import GObjectBindings

/// Shows and hides its child with a slide (an in-app notification dropping from the header bar).
@MainActor
public final class Revealer: Bin {
    /// How the child comes and goes.
    public enum Transition: Sendable {
        case none
        case crossfade
        /// Slides down into view (from a bar above it) and back up.
        case slideDown
        case slideUp
        /// Slides in from the right edge (a side pane at the end of a row) and back out.
        case slideLeft
        case slideRight

        var gtk: GtkRevealerTransitionType {
            switch self {
            case .none: GTK_REVEALER_TRANSITION_TYPE_NONE
            case .crossfade: GTK_REVEALER_TRANSITION_TYPE_CROSSFADE
            case .slideDown: GTK_REVEALER_TRANSITION_TYPE_SLIDE_DOWN
            case .slideUp: GTK_REVEALER_TRANSITION_TYPE_SLIDE_UP
            case .slideLeft: GTK_REVEALER_TRANSITION_TYPE_SLIDE_LEFT
            case .slideRight: GTK_REVEALER_TRANSITION_TYPE_SLIDE_RIGHT
            }
        }
    }

    public init(transition: Transition = .slideDown) {
        super.init(gtk_revealer_new())
        gtk_revealer_set_transition_type(widget.raw.as(GtkRevealer.self), transition.gtk)
    }

    public var isRevealed: Bool {
        get { gtk_revealer_get_reveal_child(widget.raw.as(GtkRevealer.self)) != 0 }
        set { gtk_revealer_set_reveal_child(widget.raw.as(GtkRevealer.self), newValue.gboolean) }
    }

    /// The child is shown, or still on its way out (`isRevealed` is already false then).
    public var isChildRevealed: Bool { gtk_revealer_get_child_revealed(widget.raw.as(GtkRevealer.self)) != 0 }
}
