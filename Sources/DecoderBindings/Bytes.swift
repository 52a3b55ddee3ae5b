import CGLib

/// An immutable, reference-counted byte buffer (GBytes).
///
/// @unchecked Sendable: GBytes never changes after it is made and its reference count is atomic, so a worker
/// may decode what the main loop downloaded.
public final class Bytes: @unchecked Sendable {
    public let pointer: OpaquePointer

    /// Takes a GBytes reference the caller owns (transfer full).
    public init(owning pointer: OpaquePointer) { self.pointer = pointer }

    public init(_ bytes: [UInt8]) {
        pointer = bytes.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
    }

    public convenience init(_ string: String) { self.init(Array(string.utf8)) }

    deinit { g_bytes_unref(pointer) }

    public var count: Int { Int(g_bytes_get_size(pointer)) }

    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        var size: gsize = 0
        let data = g_bytes_get_data(pointer, &size)
        return try body(UnsafeRawBufferPointer(start: data, count: Int(size)))
    }

    public var array: [UInt8] { withUnsafeBytes { Array($0) } }

    /// The bytes as UTF-8 text, with invalid sequences repaired.
    public var text: String { withUnsafeBytes { String(decoding: $0, as: UTF8.self) } }

    /// A new reference to the same GBytes, for C calls that take ownership (transfer full).
    public func retainedPointer() -> OpaquePointer { g_bytes_ref(pointer) }
}

extension Bytes {
    /// Concatenates chunks without an intermediate Swift array per chunk.
    public static func joined(_ chunks: [Bytes]) -> Bytes {
        if chunks.count == 1 { return chunks[0] }
        let total = chunks.reduce(0) { $0 + $1.count }
        let array = g_byte_array_sized_new(guint(total))
        for chunk in chunks {
            chunk.withUnsafeBytes { buffer in
                if let base = buffer.baseAddress {
                    g_byte_array_append(array, base.assumingMemoryBound(to: guint8.self), guint(buffer.count))
                }
            }
        }
        return Bytes(owning: g_byte_array_free_to_bytes(array))
    }
}
