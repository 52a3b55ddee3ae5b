import GObjectBindings

/// The header readers behind `ImageHeader.probe`, one per format, each written from the format's
/// specification. They read sizes and structure only; every read is bounds-checked, and a file that ends
/// early or contradicts itself is `malformed`, never a guess.
enum ImageHeaderParsers {
    /// PNG: the IHDR chunk must come first (PNG spec §5.6).
    static func png(_ reader: inout ByteReader) -> Result<ImageHeader, ImageProbeError> {
        reader.position = 8
        guard let length = reader.uint32BE(), let type = reader.bytes(4), length == 13, type == Array("IHDR".utf8),
              let width = reader.uint32BE(), let height = reader.uint32BE() else {
            return .failure(.malformed(tr("PNG without a header chunk")))
        }
        // Sizes are at most 2³¹ − 1 (§11.2.2).
        guard (1...0x7FFF_FFFF).contains(width), (1...0x7FFF_FFFF).contains(height) else {
            return .failure(.malformed(tr("PNG with an impossible size")))
        }
        return .success(ImageHeader(format: .png, width: width, height: height))
    }

    /// JPEG: markers up to the first frame header (SOFn, ITU T.81 §B.2.2), skipping other segments by
    /// their length.
    static func jpeg(_ reader: inout ByteReader) -> Result<ImageHeader, ImageProbeError> {
        reader.position = 2
        while let first = reader.uint8() {
            // Stray bytes between segments: libjpeg skips them (with a warning), so does this.
            guard first == 0xFF else { continue }
            var marker: Int = 0xFF
            while marker == 0xFF {  // fill bytes
                guard let next = reader.uint8() else { return .failure(.malformed(tr("JPEG cut off"))) }
                marker = next
            }
            switch marker {
            case 0x01, 0xD0...0xD7:
                continue  // markers without a segment
            case 0xD9, 0xDA:
                return .failure(.malformed(tr("JPEG without a frame header")))
            case 0xC0...0xC3, 0xC5...0xC7, 0xC9...0xCB, 0xCD...0xCF:
                guard let length = reader.uint16BE(), length >= 8, reader.uint8() != nil,
                      let height = reader.uint16BE(), let width = reader.uint16BE(),
                      let components = reader.uint8() else {
                    return .failure(.malformed(tr("JPEG with a cut-off frame header")))
                }
                // A height of 0 defers it to a DNL marker, which libjpeg does not support.
                guard width > 0, height > 0, (1...4).contains(components) else {
                    return .failure(.malformed(tr("JPEG with an impossible size")))
                }
                let progressive = [0xC2, 0xC6, 0xCA, 0xCE].contains(marker)
                return .success(ImageHeader(format: .jpeg, width: width, height: height, isProgressive: progressive,
                                            components: components))
            default:
                guard let length = reader.uint16BE(), length >= 2, reader.skip(length - 2) else {
                    return .failure(.malformed(tr("JPEG cut off")))
                }
            }
        }
        return .failure(.malformed(tr("JPEG cut off")))
    }

    /// GIF: the logical screen, then every image descriptor (GIF89a spec §18–§20), counting frames and their
    /// area; extensions and image data are skipped sub-block by sub-block.
    static func gif(_ reader: inout ByteReader) -> Result<ImageHeader, ImageProbeError> {
        reader.position = 6
        guard let width = reader.uint16LE(), let height = reader.uint16LE(), let flags = reader.uint8(),
              reader.skip(2), width > 0, height > 0 else {
            return .failure(.malformed(tr("GIF with an impossible screen size")))
        }
        if flags & 0x80 != 0, !reader.skip(3 << ((flags & 7) + 1)) { return .failure(.malformed(tr("GIF cut off"))) }
        var frames = 0
        var framePixels = 0
        loop: while let introducer = reader.uint8() {
            switch introducer {
            case 0x2C:
                guard reader.skip(4), let frameWidth = reader.uint16LE(), let frameHeight = reader.uint16LE(),
                      let frameFlags = reader.uint8() else { break loop }
                if frameFlags & 0x80 != 0, !reader.skip(3 << ((frameFlags & 7) + 1)) { break loop }
                guard reader.skip(1), reader.skipSubBlocks() else { break loop }  // LZW minimum code size, data
                frames += 1
                let (sum, overflow) = framePixels.addingReportingOverflow(ImageHeader.area(frameWidth, frameHeight))
                framePixels = overflow ? Int.max : sum
            case 0x21:
                guard reader.skip(1), reader.skipSubBlocks() else { break loop }
            case 0x3B:
                break loop
            default:
                return .failure(.malformed(tr("GIF with an unknown block")))
            }
        }
        // A file cut off after its first frame still shows that frame; one without any frame shows nothing.
        guard frames > 0 else { return .failure(.malformed(tr("GIF without an image"))) }
        return .success(ImageHeader(format: .gif, width: width, height: height, frames: frames, framePixels: framePixels))
    }

    /// WebP: the RIFF chunks — a still image's VP8 or VP8L bitstream header, or VP8X's canvas and, for an
    /// animation, its ANMF frames (RFC 9649).
    static func webp(_ reader: inout ByteReader) -> Result<ImageHeader, ImageProbeError> {
        reader.position = 12
        var canvas: (width: Int, height: Int)?
        var frames = 0
        while let fourCC = reader.bytes(4), let size = reader.uint32LE() {
            let start = reader.position
            switch String(decoding: fourCC, as: UTF8.self) {
            case "VP8 " where canvas == nil:
                // Frame tag (3), start code 9D 01 2A, then 14-bit width and height.
                guard reader.skip(3), reader.bytes(3) == [0x9D, 0x01, 0x2A], let width = reader.uint16LE(),
                      let height = reader.uint16LE() else { return .failure(.malformed(tr("WebP with a broken VP8 header"))) }
                return still(width & 0x3FFF, height & 0x3FFF)
            case "VP8L" where canvas == nil:
                guard reader.uint8() == 0x2F, let bits = reader.uint32LE() else {
                    return .failure(.malformed(tr("WebP with a broken VP8L header")))
                }
                return still((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
            case "VP8X":
                guard reader.skip(4), let width = reader.uint24LE(), let height = reader.uint24LE() else {
                    return .failure(.malformed(tr("WebP with a broken VP8X header")))
                }
                canvas = (width + 1, height + 1)
            case "ANMF":
                // Position and size (3 bytes each): whatever its size, a frame is decoded onto a canvas of its
                // own (below), so only the count matters.
                guard reader.skip(12) else { return .failure(.malformed(tr("WebP with a broken frame"))) }
                frames += 1
            default:
                break
            }
            reader.position = start
            guard reader.skip(size + (size & 1)) else { break }  // chunks are padded to an even size
        }
        guard let canvas else { return .failure(.malformed(tr("WebP without an image"))) }
        // webp-pixbuf-loader turns every frame of an animation into a pixbuf of the whole canvas and keeps them
        // all, however small the frame itself is.
        let framePixels = frames > 0 ? ImageHeader.area(canvas.width, canvas.height).multipliedReportingOverflow(by: frames) : nil
        return .success(ImageHeader(format: .webp, width: canvas.width, height: canvas.height, frames: max(1, frames),
                                    framePixels: framePixels.map { $0.overflow ? Int.max : $0.partialValue }))

        func still(_ width: Int, _ height: Int) -> Result<ImageHeader, ImageProbeError> {
            guard width > 0, height > 0 else { return .failure(.malformed(tr("WebP with an impossible size"))) }
            return .success(ImageHeader(format: .webp, width: width, height: height))
        }
    }

    /// BMP: the file header, then the DIB header's size — 12 bytes (OS/2: 16-bit sizes) or 40 and up
    /// (Windows: signed 32-bit, a negative height meaning top-down rows).
    static func bmp(_ reader: inout ByteReader) -> Result<ImageHeader, ImageProbeError> {
        reader.position = 14
        guard let headerSize = reader.uint32LE() else { return .failure(.malformed(tr("BMP cut off"))) }
        var width: Int
        var height: Int
        if headerSize == 12 {
            guard let w = reader.uint16LE(), let h = reader.uint16LE() else { return .failure(.malformed(tr("BMP cut off"))) }
            (width, height) = (w, h)
        } else if headerSize >= 40 {
            guard let w = reader.uint32LE(), let h = reader.uint32LE() else { return .failure(.malformed(tr("BMP cut off"))) }
            (width, height) = (Int(Int32(truncatingIfNeeded: w)), Int(Int32(truncatingIfNeeded: h)))
            if height < 0 { height = height == Int(Int32.min) ? 0 : -height }
        } else {
            return .failure(.malformed(tr("BMP with an unknown header")))
        }
        guard width > 0, height > 0 else { return .failure(.malformed(tr("BMP with an impossible size"))) }
        return .success(ImageHeader(format: .bmp, width: width, height: height))
    }

    /// An SVG document: after an optional byte-order mark and whitespace it is markup, and an `<svg` element
    /// starts within the first 4 KB (after the XML declaration, comments or a doctype).
    static func looksLikeSVG(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var start = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        while start < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) { start += 1 }
        guard start < bytes.count, bytes[start] == UInt8(ascii: "<") else { return false }
        let head = Array(bytes[start..<min(bytes.count, start + 4096)])
        let needle = Array("<svg".utf8)
        guard head.count >= needle.count else { return false }
        return (0...(head.count - needle.count)).contains { index in
            head[index..<(index + needle.count)].elementsEqual(needle)
                && (index + needle.count == head.count || [0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ">"), UInt8(ascii: ":")]
                    .contains(head[index + needle.count]))
        }
    }
}

/// Bounds-checked reading of a byte buffer: every read returns nil rather than run past the end.
struct ByteReader {
    let bytes: UnsafeRawBufferPointer
    var position = 0

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    func starts(with prefix: [UInt8]) -> Bool { bytes.count >= prefix.count && bytes.starts(with: prefix) }

    /// The bytes at `range` (absolute offsets), nil when the buffer is shorter.
    func byte(at range: ClosedRange<Int>) -> [UInt8]? {
        range.upperBound < bytes.count ? Array(bytes[range]) : nil
    }

    mutating func skip(_ count: Int) -> Bool {
        guard count >= 0, count <= bytes.count - position else { return false }
        position += count
        return true
    }

    mutating func bytes(_ count: Int) -> [UInt8]? {
        guard count >= 0, count <= bytes.count - position else { return nil }
        defer { position += count }
        return Array(bytes[position..<(position + count)])
    }

    mutating func uint8() -> Int? { bytes(1).map { Int($0[0]) } }
    mutating func uint16BE() -> Int? { bytes(2).map { Int($0[0]) << 8 | Int($0[1]) } }
    mutating func uint16LE() -> Int? { bytes(2).map { Int($0[1]) << 8 | Int($0[0]) } }
    mutating func uint24LE() -> Int? { bytes(3).map { Int($0[2]) << 16 | Int($0[1]) << 8 | Int($0[0]) } }
    mutating func uint32BE() -> Int? { bytes(4).map { $0.reduce(0) { $0 << 8 | Int($1) } } }
    mutating func uint32LE() -> Int? { bytes(4).map { $0.reversed().reduce(0) { $0 << 8 | Int($1) } } }

    /// Skips GIF data sub-blocks up to and including the zero-length terminator.
    mutating func skipSubBlocks() -> Bool {
        while let length = uint8() {
            if length == 0 { return true }
            guard skip(length) else { return false }
        }
        return false
    }
}
