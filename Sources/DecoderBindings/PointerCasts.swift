import CGLib

// GLib hands out the same object as `gpointer`, as a typed struct pointer (types whose struct is public,
// e.g. GtkWidget) or as an OpaquePointer (types whose struct is private, e.g. GdkPixbuf). These helpers
// name the conversion at the call site instead of scattering assumingMemoryBound/OpaquePointer calls.

extension UnsafeMutableRawPointer {
    /// Views this GObject instance pointer as a pointer to its C struct type.
    @inlinable public func `as`<T>(_: T.Type) -> UnsafeMutablePointer<T> {
        assumingMemoryBound(to: T.self)
    }

    @inlinable public var opaque: OpaquePointer { OpaquePointer(self) }
}

extension OpaquePointer {
    @inlinable public var raw: UnsafeMutableRawPointer { UnsafeMutableRawPointer(self) }
}

extension UnsafeMutablePointer {
    @inlinable public var raw: UnsafeMutableRawPointer { UnsafeMutableRawPointer(self) }
}

/// Checked cast: true when `instance` is a GTypeInstance of `type` or a subtype (GTK_IS_* in C).
@inlinable public func isInstance(_ instance: UnsafeMutableRawPointer?, of type: GType) -> Bool {
    guard let instance else { return false }
    return g_type_check_instance_is_a(instance.as(GTypeInstance.self), type) != 0
}

/// Copies a C string GLib still owns into Swift; nil stays nil.
@inlinable public func string(_ cString: UnsafePointer<CChar>?) -> String? {
    cString.map { String(cString: $0) }
}

/// Takes ownership of a C string allocated by GLib (transfer full) and frees it.
@inlinable public func takeString(_ cString: UnsafeMutablePointer<CChar>?) -> String? {
    guard let cString else { return nil }
    defer { g_free(cString) }
    return String(cString: cString)
}

extension Bool {
    /// GLib's gboolean is a C int.
    @inlinable public var gboolean: gboolean { self ? 1 : 0 }
    @inlinable public init(gboolean value: gboolean) { self = value != 0 }
}
