internal import CGLib
internal import CGtk
import GObjectBindings

/// The icon theme of a widget's screen.
@MainActor
public enum IconTheme {
    /// Draws the symbolic icon `name` at `pixelSize` in `widget`'s colours and drops the result. The first
    /// icon a process draws from an SVG file opens gdk-pixbuf's SVG loader and starts librsvg, a few
    /// milliseconds; done while the app is idle, that no longer lands in the frame that first shows such an
    /// icon. False when the theme has no such icon or it could not be drawn.
    @discardableResult
    public static func prepareSymbolic(_ name: String, pixelSize: Int, for widget: Widget) -> Bool {
        let theme = gtk_icon_theme_get_for_screen(gtk_widget_get_screen(widget.widget))
        guard let info = gtk_icon_theme_lookup_icon_for_scale(theme, name, Int32(pixelSize),
                                                              gtk_widget_get_scale_factor(widget.widget),
                                                              GTK_ICON_LOOKUP_USE_BUILTIN) else { return false }
        let lookedUp = ObjectRef(info, transfer: .full)
        var error: UnsafeMutablePointer<GError>?
        let pixbuf = gtk_icon_info_load_symbolic_for_context(lookedUp.opaque, gtk_widget_get_style_context(widget.widget),
                                                             nil, &error)
        if let error { g_error_free(error) }
        return pixbuf.map { ObjectRef(UnsafeMutableRawPointer($0), transfer: .full) } != nil
    }
}
