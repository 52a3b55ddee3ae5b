internal import CGLib
internal import CGtk
import GObjectBindings

@MainActor
public final class Box: Widget {
    public init(_ orientation: Orientation, spacing: Int = 0) {
        super.init(gtk_box_new(orientation.gtk, Int32(spacing)))
    }

    private var box: UnsafeMutablePointer<GtkBox> { widget.raw.as(GtkBox.self) }

    /// Adds `child` after the existing ones.
    public func append(_ child: Widget, expand: Bool = false, fill: Bool = true, padding: Int = 0) {
        gtk_box_pack_start(box, child.widget, expand.gboolean, fill.gboolean, guint(padding))
    }

    /// Adds `child` at the end side (right in a horizontal box in left-to-right locales).
    public func appendAtEnd(_ child: Widget, expand: Bool = false, fill: Bool = true, padding: Int = 0) {
        gtk_box_pack_end(box, child.widget, expand.gboolean, fill.gboolean, guint(padding))
    }
}
