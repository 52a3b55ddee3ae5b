internal import CGLib
internal import CGtk
import GObjectBindings

/// A main child with other widgets floating above it (a spinner over an image).
@MainActor
public final class Overlay: Bin {
    public init() {
        super.init(gtk_overlay_new())
    }

    public func addOverlay(_ child: Widget) {
        gtk_overlay_add_overlay(widget.raw.as(GtkOverlay.self), child.widget)
    }
}
