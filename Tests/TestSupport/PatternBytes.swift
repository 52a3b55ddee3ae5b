import CGLib
import GObjectBindings

/// Bodies for test servers: cheap to make, and made once.
///
/// A test server shares the main loop with the client it serves, so CPU it spends per request is time the
/// client does not get; in a debug or AddressSanitizer build a closure per byte costs tens of milliseconds
/// per 100 KB. These are filled eight bytes at a time and kept, so each request serves bytes already made.
public enum PatternBytes {
    /// `count` bytes that differ all along (a misplaced or repeated chunk shows) and from one `key` to
    /// another (a file saved under another image's name shows): xorshift64 seeded from the key.
    public static func make(count: Int, key: String) -> [UInt8] {
        // FNV-1a of the key; `| 1` because xorshift stays at zero from zero.
        var state = key.utf8.reduce(UInt64(14_695_981_039_346_037_037)) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 } | 1
        var bytes = [UInt8](repeating: 0, count: max(0, count))
        bytes.withUnsafeMutableBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                state ^= state << 13
                state ^= state >> 7
                state ^= state << 17
                if buffer.count - offset >= 8 {
                    buffer.storeBytes(of: state.littleEndian, toByteOffset: offset, as: UInt64.self)
                    offset += 8
                } else {
                    var word = state
                    while offset < buffer.count {
                        buffer[offset] = UInt8(truncatingIfNeeded: word)
                        word >>= 8
                        offset += 1
                    }
                }
            }
        }
        return bytes
    }
}

/// Bodies of one size by key (a request path), each made once and then served as the same GBytes; a byte
/// range of one is a view into it, not a copy.
@MainActor
public final class PatternBodies {
    public let size: Int
    private var bodies: [String: Bytes] = [:]

    public init(size: Int) { self.size = size }

    /// The body for `key`, made on first use.
    public func body(for key: String) -> Bytes {
        if let body = bodies[key] { return body }
        let body = Bytes(PatternBytes.make(count: size, key: key))
        bodies[key] = body
        return body
    }

    /// The same bytes as an array, for comparing with what a client saved.
    public func array(for key: String) -> [UInt8] { body(for: key).array }
}

extension Bytes {
    /// The bytes from `offset` to the end, sharing this GBytes' memory.
    public func suffix(from offset: Int) -> Bytes {
        let start = Swift.min(Swift.max(0, offset), count)
        return Bytes(owning: g_bytes_new_from_bytes(pointer, gsize(start), gsize(count - start)))
    }
}
