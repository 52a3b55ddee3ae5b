internal import CGLib
internal import CGtk
import GObjectBindings

@MainActor
public final class Image: Widget {
    public init() {
        super.init(gtk_image_new())
    }

    public convenience init(iconName: String, pixelSize: Int) {
        self.init()
        setIcon(iconName, pixelSize: pixelSize)
    }

    private var image: UnsafeMutablePointer<GtkImage> { widget.raw.as(GtkImage.self) }

    /// Shows a themed icon (symbolic icons follow the theme's text colour).
    public func setIcon(_ name: String, pixelSize: Int) {
        gtk_image_set_from_icon_name(image, name, GTK_ICON_SIZE_BUTTON)
        gtk_image_set_pixel_size(image, Int32(pixelSize))
    }

    /// Shows `pixbuf` at one logical pixel per `scale` device pixels, so a thumbnail decoded at 2× looks
    /// sharp on a HiDPI screen instead of being shown twice as large.
    public func setPixbuf(_ pixbuf: Pixbuf, scale: Int = 1) {
        if scale <= 1 {
            gtk_image_set_from_pixbuf(image, pixbuf.pointer)
            return
        }
        let surface = gdk_cairo_surface_create_from_pixbuf(pixbuf.pointer, Int32(scale), nil)
        gtk_image_set_from_surface(image, surface)
        cairo_surface_destroy(surface)
    }

    public func clear() { gtk_image_clear(image) }

    /// What kind of picture an image shows.
    public enum Content: Sendable {
        case empty
        /// `setPixbuf` at scale 1.
        case pixbuf
        /// `setPixbuf` at a scale above 1 (shown through a cairo surface).
        case surface
        /// `setIcon`.
        case iconName
        /// Something GTK can show and this wrapper never sets (an animation, a GIcon…).
        case other
    }

    /// Which kind of picture it shows now.
    public var content: Content {
        switch gtk_image_get_storage_type(image) {
        case GTK_IMAGE_EMPTY: .empty
        case GTK_IMAGE_PIXBUF: .pixbuf
        case GTK_IMAGE_SURFACE: .surface
        case GTK_IMAGE_ICON_NAME: .iconName
        default: .other
        }
    }

    /// The pixbuf shown, when it was set as one (scale 1).
    public var pixbuf: Pixbuf? {
        guard content == .pixbuf else { return nil }
        return gtk_image_get_pixbuf(image).map { Pixbuf(retaining: $0) }
    }

    public var iconName: String? {
        guard content == .iconName else { return nil }
        var name: UnsafePointer<gchar>?
        gtk_image_get_icon_name(image, &name, nil)
        return string(name)
    }
}
