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
        shownPixbuf = nil
        gtk_image_set_from_icon_name(image, name, GTK_ICON_SIZE_BUTTON)
        gtk_image_set_pixel_size(image, Int32(pixelSize))
    }

    /// Shows `pixbuf` at one logical pixel per `scale` device pixels, so a thumbnail decoded at 2× looks
    /// sharp on a HiDPI screen instead of being shown twice as large.
    ///
    /// Once the image has a window, the pixels go into a surface like the window's — on X11 a pixmap in the X
    /// server — once, here: GtkImage keeps a pixbuf as a client-side image surface, which every repaint sends
    /// to the X server again (the grid repaints 28 thumbnails a frame while it scrolls).
    public func setPixbuf(_ pixbuf: Pixbuf, scale: Int = 1) {
        // Shown already (a cell's every update shows its state again): no second copy to the X server. A pixbuf
        // set before the image had a window is copied once it has one.
        let window = gtk_widget_get_window(widget)
        if shownPixbuf?.pointer == pixbuf.pointer, content == .surface || (content == .pixbuf && window == nil) { return }
        shownPixbuf = pixbuf
        let scale = max(1, scale)
        if let window {
            let width = (pixbuf.width + scale - 1) / scale
            let height = (pixbuf.height + scale - 1) / scale
            if let surface = gdk_window_create_similar_surface(window, CAIRO_CONTENT_COLOR_ALPHA, Int32(width), Int32(height)) {
                defer { cairo_surface_destroy(surface) }
                let cairo = cairo_create(surface)
                cairo_scale(cairo, 1 / Double(scale), 1 / Double(scale))
                gdk_cairo_set_source_pixbuf(cairo, pixbuf.pointer, 0, 0)
                cairo_paint(cairo)
                cairo_destroy(cairo)
                gtk_image_set_from_surface(image, surface)
                return
            }
        }
        if scale == 1 {
            gtk_image_set_from_pixbuf(image, pixbuf.pointer)
            return
        }
        let surface = gdk_cairo_surface_create_from_pixbuf(pixbuf.pointer, Int32(scale), nil)
        gtk_image_set_from_surface(image, surface)
        cairo_surface_destroy(surface)
    }

    /// What `setPixbuf` was given last, while it is shown.
    private var shownPixbuf: Pixbuf?

    public func clear() {
        shownPixbuf = nil
        gtk_image_clear(image)
    }

    /// What kind of picture an image shows.
    public enum Content: Sendable {
        case empty
        /// `setPixbuf` at scale 1.
        case pixbuf
        /// `setPixbuf` once realized, or at a scale above 1 (shown through a cairo surface).
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

    /// The pixbuf shown, as `setPixbuf` was given it (GTK may show it through a surface).
    public var pixbuf: Pixbuf? {
        switch content {
        case .pixbuf: gtk_image_get_pixbuf(image).map { Pixbuf(retaining: $0) }
        case .surface: shownPixbuf
        case .empty, .iconName, .other: nil
        }
    }

    public var iconName: String? {
        guard content == .iconName else { return nil }
        var name: UnsafePointer<gchar>?
        gtk_image_get_icon_name(image, &name, nil)
        return string(name)
    }
}
