import CGtk

/// A GListStore whose items carry Swift objects, so a GtkListBox can be bound to a model of Swift values.
///
/// Each item is a plain GObject with the Swift object attached as qdata; the qdata's destroy notify releases
/// the Swift object when GTK drops its last reference to the item.
public final class ListStore {
    public let ref: ObjectRef

    public init() {
        ref = ObjectRef(g_list_store_new(gv_type_object()), transfer: .full)
    }

    private var store: OpaquePointer { ref.opaque }

    public var count: Int { Int(g_list_model_get_n_items(store)) }

    public func append(_ value: AnyObject) { append(contentsOf: [value]) }

    /// Appends in one splice, so a bound list box sees a single `items-changed`.
    public func append(contentsOf values: [AnyObject]) {
        guard !values.isEmpty else { return }
        var items = values.map { Self.makeItem(carrying: $0) }
        items.withUnsafeMutableBufferPointer { buffer in
            g_list_store_splice(store, guint(count), 0, buffer.baseAddress, guint(buffer.count))
        }
        items.forEach { g_object_unref($0) }
    }

    public func removeAll() { g_list_store_remove_all(store) }

    /// The Swift object at `index`.
    public func value(at index: Int) -> AnyObject? {
        guard let item = g_list_model_get_item(store, guint(index)) else { return nil }
        defer { g_object_unref(item) }
        return Self.value(ofItem: item)
    }

    /// The Swift object carried by a model item, e.g. the `item` argument of a GtkListBox create-widget function.
    public static func value(ofItem item: UnsafeMutableRawPointer?) -> AnyObject? {
        guard let item, let data = g_object_get_qdata(item.as(GObject.self), carriedValueQuark) else { return nil }
        return Unmanaged<AnyObject>.fromOpaque(data).takeUnretainedValue()
    }

    private static func makeItem(carrying value: AnyObject) -> gpointer? {
        let item = g_object_new_with_properties(gv_type_object(), 0, nil, nil)
        g_object_set_qdata_full(item, carriedValueQuark,
                                Unmanaged.passRetained(value).toOpaque(), releaseBoxNotify)
        return item.map { UnsafeMutableRawPointer($0) }
    }
}

private let carriedValueQuark: GQuark = g_quark_from_static_string("gallery-viewer-swift-value")
