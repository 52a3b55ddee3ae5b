import CGLib

/// A whole file's bytes, or nil when it cannot be read. For test files, which are small.
public func fileBytes(atPath path: String) -> [UInt8]? {
    var data: UnsafeMutablePointer<gchar>?
    var length: gsize = 0
    guard g_file_get_contents(path, &data, &length, nil) != 0, let data else { return nil }
    defer { g_free(data) }
    return Array(UnsafeRawBufferPointer(start: data, count: Int(length)))
}
