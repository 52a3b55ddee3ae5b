internal import CGLib
internal import CGtk
import GObjectBindings

/// Application-wide CSS.
@MainActor
public enum CssProvider {
    /// Adds `css` for every widget on the default screen, above the theme.
    public static func install(_ css: String) throws(GLibError) {
        let provider = ObjectRef(gtk_css_provider_new()!, transfer: .full)
        _ = try GLibError.check { error in
            gtk_css_provider_load_from_data(provider.typed(), css, gssize(css.utf8.count), error)
        }
        gtk_style_context_add_provider_for_screen(
            gdk_screen_get_default(), provider.opaque, guint(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
    }
}
