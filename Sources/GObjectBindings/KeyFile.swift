import CGLib

/// A GLib key file (`[group]` then `key=value` lines: the format of the app's state.ini), parsed from text,
/// read and changed by group and key, and written back as text. Values are unescaped when read and escaped
/// when written, as GLib does.
///
/// Not Sendable: one owner at a time, like the GKeyFile it wraps (which is not thread-safe).
public final class KeyFile {
    private let file: OpaquePointer

    /// An empty key file.
    public init() {
        file = g_key_file_new()
    }

    /// `text` parsed; nil when it is not a key file. With `keepComments`, comments and blank lines are kept
    /// for `text`, so that a file a user edited keeps their notes when it is written back.
    public convenience init?(text: String, keepComments: Bool = false) {
        self.init()
        let flags = keepComments ? G_KEY_FILE_KEEP_COMMENTS : G_KEY_FILE_NONE
        guard g_key_file_load_from_data(file, text, gsize(text.utf8.count), flags, nil) != 0 else { return nil }
    }

    deinit { g_key_file_free(file) }

    /// The string under `key` in `group`; nil when there is none.
    public func string(group: String, key: String) -> String? {
        takeString(g_key_file_get_string(file, group, key, nil))
    }

    /// The whole number under `key` in `group`; nil when there is none or it is not a number.
    public func integer(group: String, key: String) -> Int? {
        guard let value = try? GLibError.check({ error in g_key_file_get_int64(file, group, key, error) }) else { return nil }
        return Int(value)
    }

    /// The list under `key` in `group` (items separated by ";"), at most `limit` of its items; nil when
    /// there is none.
    public func stringList(group: String, key: String, limit: Int) -> [String]? {
        var length: gsize = 0
        guard let list = g_key_file_get_string_list(file, group, key, &length, nil) else { return nil }
        defer { g_strfreev(list) }
        return (0..<min(Int(length), max(0, limit))).compactMap { list[$0].map { String(cString: $0) } }
    }

    public func contains(group: String, key: String) -> Bool {
        g_key_file_has_key(file, group, key, nil) != 0
    }

    public func set(_ value: String, group: String, key: String) {
        g_key_file_set_string(file, group, key, value)
    }

    public func set(_ value: Int, group: String, key: String) {
        g_key_file_set_int64(file, group, key, gint64(value))
    }

    public func set(_ values: [String], group: String, key: String) {
        let copies = values.map { g_strdup($0) }
        defer { copies.forEach { g_free($0) } }
        let pointers: [UnsafePointer<gchar>?] = copies.map { UnsafePointer($0) } + [nil]
        pointers.withUnsafeBufferPointer { g_key_file_set_string_list(file, group, key, $0.baseAddress, gsize(values.count)) }
    }

    /// Removes `group` and everything in it; nothing happens when there is none.
    public func removeGroup(_ group: String) {
        g_key_file_remove_group(file, group, nil)
    }

    /// Puts `comment` above `key` (GLib adds the "#"; start it with a space for "# text").
    public func setComment(_ comment: String, group: String, key: String) {
        g_key_file_set_comment(file, group, key, comment, nil)
    }

    /// The file as text, as it would be written.
    public var text: String {
        takeString(g_key_file_to_data(file, nil, nil)) ?? ""
    }
}
