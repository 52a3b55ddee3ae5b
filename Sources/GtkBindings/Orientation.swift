internal import CGLib
internal import CGtk
import GObjectBindings

/// Which way a box stacks its children, or a scrollbar runs.
public enum Orientation: Sendable {
    case horizontal
    case vertical

    var gtk: GtkOrientation {
        switch self {
        case .horizontal: GTK_ORIENTATION_HORIZONTAL
        case .vertical: GTK_ORIENTATION_VERTICAL
        }
    }
}
