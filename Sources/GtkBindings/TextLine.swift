internal import CGLib
internal import CGtk
import GObjectBindings

/// One line of text, ellipsized to the width its container gives it, whose size request never depends on
/// its text: new text only repaints it. A GtkLabel's new text makes its container measure it again (the whole
/// text shaped, without a width, before it is shaped again to be cut short): in a grid whose tiles are all
/// rebound as the view moves, that was the largest part of a frame. Its CSS node is a `label`, so the
/// theme's label rules and style classes apply, and assistive technologies see a label; it has no text
/// interface, so the widget around it carries the text as its accessible name, or the line is given it as
/// its own (`namesItselfAfterText`).
@MainActor
public final class TextLine: Widget {
    public var text = "" {
        didSet {
            guard text != oldValue else { return }
            layout = nil
            gtk_widget_queue_draw(widget)
            if namesItselfAfterText { accessibleName = text }
        }
    }

    /// The line's text is also its accessible name (set as the text changes), for a line that is not the
    /// name of the widget around it.
    public var namesItselfAfterText = false

    /// The text did not fit at the last paint and was cut short.
    public var isEllipsized: Bool { layout.map { pango_layout_is_ellipsized($0.opaque) != 0 } ?? false }

    private let ellipsize: Label.EllipsizeMode
    /// Where the line sits in its width: at its start edge, as a label's xalign 0 (the left, or the right in a
    /// right-to-left window, whatever the text's own direction), or centred.
    public enum Alignment: Sendable { case start, center }
    private let alignment: Alignment
    /// Shaped at the first paint after the text, the width or the style changed.
    private var layout: ObjectRef?
    private var layoutWidth = -1

    public init(ellipsize: Label.EllipsizeMode = .middle, alignment: Alignment = .center) {
        self.ellipsize = ellipsize
        self.alignment = alignment
        super.init(CSSNamedSubclass.make(parent: gtk_drawing_area_get_type(), cssName: "label"))
        atk_object_set_role(gtk_widget_get_accessible(widget), ATK_ROLE_LABEL)
        ref.connect("style-updated", after: true) { [weak self] in self?.styleChanged() }
        ref.connectEvent("draw") { [weak self] cairo in
            guard let self, let cairo else { return false }
            self.draw(OpaquePointer(cairo))
            return true
        }
        styleChanged()
    }

    /// The font may have changed: the line's height follows it (a width asked for stays), and the text is
    /// shaped again.
    private func styleChanged() {
        layout = nil
        let probe = ObjectRef(gtk_widget_create_pango_layout(widget, "Ag")!, transfer: .full)
        var height: Int32 = 0, width: Int32 = -1
        pango_layout_get_pixel_size(probe.opaque, nil, &height)
        gtk_widget_get_size_request(widget, &width, nil)
        gtk_widget_set_size_request(widget, width, height)
        gtk_widget_queue_draw(widget)
    }

    private func draw(_ cairo: OpaquePointer) {
        let width = Int(gtk_widget_get_allocated_width(widget))
        guard width > 0, !text.isEmpty else { return }
        if layout == nil || layoutWidth != width {
            let made = layout ?? ObjectRef(gtk_widget_create_pango_layout(widget, text)!, transfer: .full)
            pango_layout_set_ellipsize(made.opaque, ellipsize.pango)
            pango_layout_set_alignment(made.opaque, alignment == .center ? PANGO_ALIGN_CENTER : PANGO_ALIGN_LEFT)
            pango_layout_set_single_paragraph_mode(made.opaque, 1)
            pango_layout_set_width(made.opaque, Int32(width) * PANGO_SCALE)
            layout = made
            layoutWidth = width
        }
        guard let layout else { return }
        var logical = PangoRectangle()
        pango_layout_get_pixel_extents(layout.opaque, nil, &logical)
        let y = (Double(gtk_widget_get_allocated_height(widget)) - Double(logical.height)) / 2
        // At the start edge as GtkLabel places it: Pango aligns a right-to-left text (one in Hebrew, or any in a
        // right-to-left window) to the right of the width, so the text's own extent decides where it goes.
        var x = 0.0
        if alignment == .start {
            let rightToLeft = gtk_widget_get_direction(widget) == GTK_TEXT_DIR_RTL
            x = rightToLeft ? Double(width - Int(logical.width) - Int(logical.x)) : Double(-logical.x)
        }
        gtk_render_layout(gtk_widget_get_style_context(widget), cairo, x, y, layout.opaque)
    }
}
