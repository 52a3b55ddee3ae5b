internal import CGLib
internal import CGtk
import GObjectBindings

/// GTK widget classes that differ from their parent only by the name of their CSS node: a widget inside a
/// recycled cell can then keep out of theme selectors written for the parent's name (Adwaita's
/// `colorswatch:last-child overlay`, for one, makes GTK restyle every `overlay` of every cell whenever a cell
/// enters or leaves the box). One GType per parent and name, registered on first use.
@MainActor
enum CSSNamedSubclass {
    /// A new floating instance of `parent`'s subclass whose CSS node is named `cssName`.
    static func make(parent: GType, cssName: String) -> UnsafeMutablePointer<GtkWidget> {
        let type = subclass(of: parent, cssName: cssName)
        let object = g_object_new_with_properties(type, 0, nil, nil)!
        return UnsafeMutableRawPointer(object).assumingMemoryBound(to: GtkWidget.self)
    }

    private static func subclass(of parent: GType, cssName: String) -> GType {
        let typeName = "GalleryViewer_\(string(g_type_name(parent)) ?? "Widget")_\(String(cssName.map { $0.isLetter || $0.isNumber ? $0 : "_" }))"
        let registered = g_type_from_name(typeName)
        if registered != 0 { return registered }
        var query = GTypeQuery()
        g_type_query(parent, &query)
        // The name lives as long as the class, which is never finalized: a static type.
        let name = UnsafeMutableRawPointer(strdup(cssName))
        var info = GTypeInfo()
        info.class_size = guint16(query.class_size)
        info.instance_size = guint16(query.instance_size)
        info.class_data = UnsafeRawPointer(name)
        info.class_init = { klass, data in
            guard let klass, let data else { return }
            gtk_widget_class_set_css_name(klass.assumingMemoryBound(to: GtkWidgetClass.self),
                                          data.assumingMemoryBound(to: CChar.self))
        }
        return g_type_register_static(parent, typeName, &info, GTypeFlags(0))
    }
}
