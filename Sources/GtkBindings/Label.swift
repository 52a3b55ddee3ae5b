import CGLib
import CGtk
import GObjectBindings

@MainActor
public final class Label: Widget {
    public init(_ text: String = "") {
        super.init(gtk_label_new(text))
    }

    private var label: UnsafeMutablePointer<GtkLabel> { widget.raw.as(GtkLabel.self) }

    public var text: String {
        get { string(gtk_label_get_text(label)) ?? "" }
        set { gtk_label_set_text(label, newValue) }
    }

    /// Shortens text that does not fit with "…" instead of widening the window.
    public var ellipsize: PangoEllipsizeMode {
        get { gtk_label_get_ellipsize(label) }
        set { gtk_label_set_ellipsize(label, newValue) }
    }

    public var xalign: Float {
        get { gtk_label_get_xalign(label) }
        set { gtk_label_set_xalign(label, newValue) }
    }

    public var wraps: Bool {
        get { gtk_label_get_line_wrap(label) != 0 }
        set { gtk_label_set_line_wrap(label, newValue.gboolean) }
    }

    public var justify: GtkJustification {
        get { gtk_label_get_justify(label) }
        set { gtk_label_set_justify(label, newValue) }
    }

    public var isSelectable: Bool {
        get { gtk_label_get_selectable(label) != 0 }
        set { gtk_label_set_selectable(label, newValue.gboolean) }
    }

    public var maxWidthChars: Int {
        get { Int(gtk_label_get_max_width_chars(label)) }
        set { gtk_label_set_max_width_chars(label, Int32(newValue)) }
    }
}
