import GObjectBindings

/// Puts the demo gallery's animations together from frames the renderer drew, with no tool beyond gdk-pixbuf:
/// GIF (which gdk-pixbuf cannot write) is encoded here — a fixed palette, ordered dithering, LZW as the GIF89a
/// specification's appendix F describes it — and an animated WebP is each frame encoded as a still WebP by
/// gdk-pixbuf's WebP saver (libwebp), its bitstream wrapped in an ANMF chunk of an animation (RFC 9649 §2.7).
/// The same frames always give the same bytes.
enum DemoAnimationEncoder {
    /// How long each frame shows: 80 ms for GIF (it counts in hundredths), 70 ms for WebP.
    static let gifDelayHundredths = 8
    static let webpDelayMilliseconds = 70

    // MARK: GIF

    /// A looping GIF89a of `frames` (RGB pixbufs of one size), each a whole canvas.
    static func gif(_ frames: [Pixbuf]) -> Bytes {
        let width = frames[0].width
        let height = frames[0].height
        var out = Array("GIF89a".utf8) + le16(width) + le16(height)
        // A global table of 256 colours (flags: table present, 8-bit colour resolution, 2^(7+1) entries).
        out += [0xF7, 0, 0]
        out += palette
        // NETSCAPE2.0: loop forever.
        out += [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1, 0, 0, 0]
        for frame in frames {
            // Graphic control: leave the frame in place (disposal 1), the delay, no transparency.
            out += [0x21, 0xF9, 4, 0x04] + le16(gifDelayHundredths) + [0, 0]
            out += [0x2C] + le16(0) + le16(0) + le16(width) + le16(height) + [0]
            out += [8]  // LZW minimum code size
            let compressed = LZW.encode(indexes(of: frame), minimumCodeSize: 8)
            var offset = 0
            while offset < compressed.count {
                let length = min(255, compressed.count - offset)
                out.append(UInt8(length))
                out += compressed[offset..<(offset + length)]
                offset += length
            }
            out.append(0)
        }
        out.append(0x3B)
        return Bytes(out)
    }

    /// 6 levels of red × 7 of green × 6 of blue (252 colours; the eye tells greens apart best), then 4 unused.
    private static let levels = (red: 6, green: 7, blue: 6)
    private static let palette: [UInt8] = {
        var colours: [UInt8] = []
        for red in 0..<levels.red {
            for green in 0..<levels.green {
                for blue in 0..<levels.blue {
                    colours += [level(red, of: levels.red), level(green, of: levels.green), level(blue, of: levels.blue)]
                }
            }
        }
        return colours + [UInt8](repeating: 0, count: 3 * 256 - colours.count)
    }()

    private static func level(_ step: Int, of count: Int) -> UInt8 { UInt8(step * 255 / (count - 1)) }

    /// Each pixel's palette index, dithered with a 4 × 4 Bayer matrix: ordered dithering gives each frame the
    /// same pattern where the picture stays the same, so still parts do not shimmer as error diffusion would.
    private static func indexes(of pixbuf: Pixbuf) -> [UInt8] {
        let bayer = [0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5]
        let width = pixbuf.width
        let height = pixbuf.height
        var result = [UInt8](repeating: 0, count: width * height)
        pixbuf.withUnsafePixels { pixels, stride, channels in
            for y in 0..<height {
                let row = pixels + y * stride
                for x in 0..<width {
                    let threshold = (Double(bayer[(y & 3) * 4 + (x & 3)]) + 0.5) / 16
                    func quantize(_ value: UInt8, _ count: Int) -> Int {
                        min(count - 1, Int(Double(value) / 255 * Double(count - 1) + threshold))
                    }
                    let red = quantize(row[x * channels], levels.red)
                    let green = quantize(row[x * channels + 1], levels.green)
                    let blue = quantize(row[x * channels + 2], levels.blue)
                    result[y * width + x] = UInt8((red * levels.green + green) * levels.blue + blue)
                }
            }
        }
        return result
    }

    /// GIF's variable-length LZW: codes from minimumCodeSize + 1 bits up to 12, packed least significant bit
    /// first; a clear code when the table's 4096 codes are used up.
    enum LZW {
        static func encode(_ indexes: [UInt8], minimumCodeSize: Int) -> [UInt8] {
            let clear = 1 << minimumCodeSize
            let end = clear + 1
            var output: [UInt8] = []
            var bits = 0
            var bitCount = 0
            var codeSize = minimumCodeSize + 1
            func emit(_ code: Int) {
                bits |= code << bitCount
                bitCount += codeSize
                while bitCount >= 8 {
                    output.append(UInt8(truncatingIfNeeded: bits))
                    bits >>= 8
                    bitCount -= 8
                }
            }
            // The table maps (prefix code, next index) to a code. Entries carry the generation they were made
            // in, so a clear is one increment rather than wiping a million entries.
            var codes = [UInt16](repeating: 0, count: 4096 << 8)
            var generations = [UInt16](repeating: 0, count: 4096 << 8)
            var generation: UInt16 = 1
            var next = end + 1
            emit(clear)
            guard var prefix = indexes.first.map(Int.init) else { emit(end); return flush() }
            for index in indexes.dropFirst() {
                let key = prefix << 8 | Int(index)
                if generations[key] == generation {
                    prefix = Int(codes[key])
                    continue
                }
                emit(prefix)
                if next == 4096 {
                    emit(clear)
                    next = end + 1
                    codeSize = minimumCodeSize + 1
                    generation &+= 1
                } else {
                    if next >= 1 << codeSize { codeSize += 1 }
                    codes[key] = UInt16(next)
                    generations[key] = generation
                    next += 1
                }
                prefix = Int(index)
            }
            emit(prefix)
            emit(end)
            return flush()

            func flush() -> [UInt8] {
                if bitCount > 0 { output.append(UInt8(truncatingIfNeeded: bits)) }
                return output
            }
        }
    }

    // MARK: WebP

    /// A looping animated WebP of `frames` (one size), each frame a lossy WebP still made by gdk-pixbuf.
    static func webp(_ frames: [Pixbuf], quality: Int) throws(GLibError) -> Bytes {
        let width = frames[0].width
        let height = frames[0].height
        var body = Array("WEBP".utf8)
        var animationFrames: [UInt8] = []
        var hasAlpha = false
        for frame in frames {
            let still = try frame.encoded(as: "webp", options: [("quality", String(quality))]).array
            // The still's image chunks (ALPH, VP8, VP8L), without its VP8X or metadata.
            var bitstream: [UInt8] = []
            var offset = 12
            while offset + 8 <= still.count {
                let type = String(decoding: still[offset..<(offset + 4)], as: UTF8.self)
                let size = Int(still[offset + 4]) | Int(still[offset + 5]) << 8 | Int(still[offset + 6]) << 16
                    | Int(still[offset + 7]) << 24
                let chunkEnd = min(still.count, offset + 8 + size + (size & 1))
                if ["ALPH", "VP8 ", "VP8L"].contains(type) { bitstream += still[offset..<chunkEnd] }
                if type == "ALPH" { hasAlpha = true }
                offset = chunkEnd
            }
            // Offset 0, 0 (in halves); the size minus one; the duration; no blending, no disposal.
            let header = le24(0) + le24(0) + le24(width - 1) + le24(height - 1) + le24(webpDelayMilliseconds) + [0x02]
            animationFrames += chunk("ANMF", header + bitstream)
        }
        body += chunk("VP8X", [hasAlpha ? 0x12 : 0x02, 0, 0, 0] + le24(width - 1) + le24(height - 1))
        body += chunk("ANIM", [0xFF, 0xFF, 0xFF, 0xFF] + le16(0))  // white background, loop forever
        body += animationFrames
        return Bytes(Array("RIFF".utf8) + le32(body.count) + body)
    }

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        Array(type.utf8) + le32(data.count) + data + (data.count % 2 == 1 ? [0] : [])
    }

    // MARK: Byte order

    private static func le16(_ value: Int) -> [UInt8] { [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)] }
    private static func le24(_ value: Int) -> [UInt8] { (0..<3).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
    private static func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
}
