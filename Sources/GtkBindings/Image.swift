import CGLib
import CGtk
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

    /// Which kind of content it shows now (GTK_IMAGE_EMPTY, GTK_IMAGE_PIXBUF, GTK_IMAGE_ICON_NAME…).
    public var storageType: GtkImageType { gtk_image_get_storage_type(image) }

    /// The pixbuf shown, when it was set as one (scale 1).
    public var pixbuf: OpaquePointer? {
        storageType == GTK_IMAGE_PIXBUF ? gtk_image_get_pixbuf(image) : nil
    }

    public var iconName: String? {
        guard storageType == GTK_IMAGE_ICON_NAME else { return nil }
        var name: UnsafePointer<gchar>?
        gtk_image_get_icon_name(image, &name, nil)
        return string(name)
    }
}
