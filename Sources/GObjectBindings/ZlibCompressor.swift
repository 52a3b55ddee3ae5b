import CGLib

/// GIO's zlib compressor (GZlibCompressor), fed in pieces: the test and demo servers build compressed bodies
/// (a PNG's image data, a gzip-encoded response) chunk by chunk instead of holding them whole.
public final class ZlibCompressor {
    public enum Format {
        /// zlib framing, as PNG's IDAT data uses.
        case zlib
        /// gzip framing, as `Content-Encoding: gzip` uses.
        case gzip
    }

    private let ref: ObjectRef
    private var output = [UInt8](repeating: 0, count: 64 * 1024)

    public init(format: Format, level: Int32 = 6) {
        let gformat = format == .zlib ? G_ZLIB_COMPRESSOR_FORMAT_ZLIB : G_ZLIB_COMPRESSOR_FORMAT_GZIP
        ref = ObjectRef(g_zlib_compressor_new(gformat, level)!, transfer: .full)
    }

    /// Compresses `input` (all of it) and returns what the compressor produced so far; with `finish`, also
    /// the end of the stream (checksum, trailer).
    public func compress(_ input: UnsafeRawBufferPointer, finish: Bool = false) -> [UInt8] {
        var produced: [UInt8] = []
        var consumed = 0
        while true {
            var read: gsize = 0
            var written: gsize = 0
            let flags = finish ? G_CONVERTER_INPUT_AT_END : G_CONVERTER_NO_FLAGS
            let result = output.withUnsafeMutableBytes { buffer in
                g_converter_convert(ref.opaque, input.baseAddress?.advanced(by: consumed),
                                    gsize(input.count - consumed), buffer.baseAddress, gsize(buffer.count), flags,
                                    &read, &written, nil)
            }
            consumed += Int(read)
            produced += output[0..<Int(written)]
            // Done when the input is used up and the output buffer was not the limit; at the end, when zlib
            // says the stream is finished.
            if result == G_CONVERTER_ERROR || result == G_CONVERTER_FINISHED { return produced }
            if !finish && consumed == input.count && Int(written) < output.count { return produced }
        }
    }

    public func compress(_ bytes: [UInt8], finish: Bool = false) -> [UInt8] {
        bytes.withUnsafeBytes { compress($0, finish: finish) }
    }
}
