internal import CGLib
internal import CGtk
import GObjectBindings

/// A main child with other widgets floating above it (a spinner over an image).
@MainActor
public final class Overlay: Bin {
    public init() {
        super.init(gtk_overlay_new())
    }

    /// An overlay whose CSS node is named `cssName` instead of `overlay` (see `CSSNamedSubclass`).
    public init(cssName: String) {
        super.init(CSSNamedSubclass.make(parent: gtk_overlay_get_type(), cssName: cssName))
    }

    /// Adds `child` above the main child; with `passThrough`, clicks go through it to what lies below (a
    /// badge over a button).
    public func addOverlay(_ child: Widget, passThrough: Bool = false) {
        let overlay = widget.raw.as(GtkOverlay.self)
        gtk_overlay_add_overlay(overlay, child.widget)
        if passThrough { gtk_overlay_set_overlay_pass_through(overlay, child.widget, 1) }
    }
}
