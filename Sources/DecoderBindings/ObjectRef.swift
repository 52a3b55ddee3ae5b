import CGLib

/// An owning reference to a GObject: the reference is released exactly once, when this Swift object goes away.
///
/// How the reference is taken must match the C function that produced the pointer, which is why there is no
/// default: `.full` for transfer-full results (`*_new` of non-widgets, `*_finish`), `.none` for transfer-none
/// getters, `.floating` for new widgets and other GInitiallyUnowned objects (ref_sink: a plain ref would leak).
///
/// Not Sendable: most GObjects (every widget, a SoupSession, a SoupMessage) belong to the main thread. A
/// wrapper of a type that may cross threads (`Pixbuf`, `Cancellable`, `Soup.Cache`) says why itself.
public final class ObjectRef {
    public enum Transfer {
        case full
        case none
        case floating
    }

    public let pointer: UnsafeMutableRawPointer

    public init(_ pointer: UnsafeMutableRawPointer, transfer: Transfer) {
        self.pointer = pointer
        switch transfer {
        case .full: break
        case .none: g_object_ref(pointer)
        case .floating: g_object_ref_sink(pointer)
        }
    }

    public convenience init?(_ pointer: UnsafeMutableRawPointer?, transfer: Transfer) {
        guard let pointer else { return nil }
        self.init(pointer, transfer: transfer)
    }

    public convenience init(_ pointer: OpaquePointer, transfer: Transfer) {
        self.init(pointer.raw, transfer: transfer)
    }

    public convenience init<T>(_ pointer: UnsafeMutablePointer<T>, transfer: Transfer) {
        self.init(pointer.raw, transfer: transfer)
    }

    deinit { g_object_unref(pointer) }

    @inlinable public func typed<T>(_: T.Type = T.self) -> UnsafeMutablePointer<T> { pointer.as(T.self) }
    @inlinable public var opaque: OpaquePointer { OpaquePointer(pointer) }
    @inlinable public var object: UnsafeMutablePointer<GObject> { pointer.as(GObject.self) }

    /// The object's GType name, for diagnostics.
    public var typeName: String {
        let klass = pointer.as(GTypeInstance.self).pointee.g_class
        return DecoderBindings.string(g_type_name(klass?.pointee.g_type ?? 0)) ?? "?"
    }
}

// Properties are set through GValues because g_object_set is variadic and does not import.
extension ObjectRef {
    public func set(_ property: String, _ value: Int32) {
        var gvalue = GValue()
        g_value_init(&gvalue, gv_type_int())
        g_value_set_int(&gvalue, value)
        g_object_set_property(object, property, &gvalue)
        g_value_unset(&gvalue)
    }

    public func set(_ property: String, _ value: UInt32) {
        var gvalue = GValue()
        g_value_init(&gvalue, gv_type_uint())
        g_value_set_uint(&gvalue, value)
        g_object_set_property(object, property, &gvalue)
        g_value_unset(&gvalue)
    }

    public func set(_ property: String, _ value: Bool) {
        var gvalue = GValue()
        g_value_init(&gvalue, gv_type_boolean())
        g_value_set_boolean(&gvalue, value.gboolean)
        g_object_set_property(object, property, &gvalue)
        g_value_unset(&gvalue)
    }

    public func set(_ property: String, _ value: String?) {
        var gvalue = GValue()
        g_value_init(&gvalue, gv_type_string())
        g_value_set_string(&gvalue, value)
        g_object_set_property(object, property, &gvalue)
        g_value_unset(&gvalue)
    }

    public func set(_ property: String, object value: ObjectRef?) {
        var gvalue = GValue()
        g_value_init(&gvalue, gv_type_object())
        g_value_set_object(&gvalue, value?.pointer)
        g_object_set_property(object, property, &gvalue)
        g_value_unset(&gvalue)
    }

    public func int(_ property: String) -> Int32 {
        var gvalue = GValue()
        g_value_init(&gvalue, gv_type_int())
        g_object_get_property(object, property, &gvalue)
        defer { g_value_unset(&gvalue) }
        return g_value_get_int(&gvalue)
    }

    public func bool(_ property: String) -> Bool {
        var gvalue = GValue()
        g_value_init(&gvalue, gv_type_boolean())
        g_object_get_property(object, property, &gvalue)
        defer { g_value_unset(&gvalue) }
        return g_value_get_boolean(&gvalue) != 0
    }

    public func string(_ property: String) -> String? {
        var gvalue = GValue()
        g_value_init(&gvalue, gv_type_string())
        g_object_get_property(object, property, &gvalue)
        defer { g_value_unset(&gvalue) }
        return DecoderBindings.string(g_value_get_string(&gvalue))
    }
}
