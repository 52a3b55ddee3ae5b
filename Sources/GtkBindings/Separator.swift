internal import CGLib
internal import CGtk
import GObjectBindings

/// A thin line between groups of widgets.
@MainActor
public final class Separator: Widget {
    public init(_ orientation: Orientation) {
        super.init(gtk_separator_new(orientation.gtk))
    }
}
