import GObjectBindings
import GalleryDemoServer

/// Image files that lie about their size: small on the wire, enormous once decoded (decompression bombs), and
/// ordinary images for the cases where only the transport misbehaves. Built in memory, once per process.
@MainActor
public enum HostileImages {
    /// A 30000 × 30000 PNG, 1-bit grey, all black: about 110 KB that a naive decoder turns into 2.7 GB of RGB.
    /// Its rows are real deflate data, so a decoder that starts writing them really touches the memory.
    public static var pngBomb: Bytes { cached(&pngBombBytes) { png(width: 30000, height: 30000) } }

    /// A baseline JPEG whose frame header says 60000 × 60000; the scan after it is an 8 × 8 image's.
    public static var jpegBomb: Bytes { cached(&jpegBombBytes) { jpegClaiming(width: 60000, height: 60000) } }

    /// A GIF whose one frame is 30000 × 30000 with an empty LZW stream.
    public static var gifBomb: Bytes {
        cached(&gifBombBytes) { gif(screen: (30000, 30000), frames: 1, frame: (30000, 30000)) }
    }

    /// An animation of 200 frames of 1000 × 1000 each: small per frame, 200 megapixels together.
    public static var gifFramesBomb: Bytes {
        cached(&gifFramesBombBytes) { gif(screen: (1000, 1000), frames: 200, frame: (1000, 1000)) }
    }

    /// A 24-bit BMP header for 30000 × 30000 followed by a few bytes of pixels.
    public static var bmpBomb: Bytes { cached(&bmpBombBytes) { bmp(width: 30000, height: 30000) } }

    /// An animated WebP of 20 frames of 1 × 1 on a 4000 × 4000 canvas: webp-pixbuf-loader decodes every frame
    /// onto a canvas of its own, 320 megapixels together.
    public static var webpFramesBomb: Bytes {
        cached(&webpFramesBombBytes) { animatedWebP(canvas: (4000, 4000), frames: 20) }
    }

    /// A real 96 × 64 AVIF whose `ispe` property says 16000 × 16000: libavif scales what it decodes to the
    /// declared size (256 megapixels, within libavif's own limit), and the loader only reports a size after that.
    public static var avifBomb: Bytes { cached(&avifBombBytes) { avifClaiming(width: 16000, height: 16000) } }

    /// An ordinary 96 × 64 PNG, for the cases where the transport is what goes wrong.
    public static var small: Bytes {
        cached(&smallBytes) { try! Pixbuf.filled(width: 96, height: 64, rgba: 0x2ec27eff).encoded(as: "png") }
    }

    /// A 160 × 160 PNG of noise (about 75 KB: noise does not compress), for a body that takes long to drip.
    public static var noise: Bytes { cached(&noiseBytes) { noisePNG(side: 160) } }

    private static var pngBombBytes: Bytes?
    private static var jpegBombBytes: Bytes?
    private static var gifBombBytes: Bytes?
    private static var gifFramesBombBytes: Bytes?
    private static var bmpBombBytes: Bytes?
    private static var webpFramesBombBytes: Bytes?
    private static var avifBombBytes: Bytes?
    private static var smallBytes: Bytes?
    private static var noiseBytes: Bytes?

    /// Builds every image now (the PNG bomb takes a moment to compress), before a client waits for one.
    static func prepare() {
        for image in [pngBomb, jpegBomb, gifBomb, gifFramesBomb, bmpBomb, webpFramesBomb, avifBomb, small, noise] {
            _ = image.count
        }
    }

    private static func cached(_ slot: inout Bytes?, _ make: () -> Bytes) -> Bytes {
        if let bytes = slot { return bytes }
        let bytes = make()
        slot = bytes
        return bytes
    }

    // MARK: PNG

    /// A 1-bit greyscale PNG of zeros, compressed row by row (never holding the raw image).
    static func png(width: Int, height: Int) -> Bytes {
        let compressor = ZlibCompressor(format: .zlib)
        let row = [UInt8](repeating: 0, count: 1 + (width + 7) / 8)  // filter byte + packed pixels
        var data: [UInt8] = []
        for _ in 0..<height { data += compressor.compress(row) }
        data += compressor.compress([], finish: true)
        var header = bigEndian32(width) + bigEndian32(height)
        header += [1, 0, 0, 0, 0]  // bit depth 1, greyscale, deflate, adaptive filtering, no interlace
        var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        file += pngChunk("IHDR", header) + pngChunk("IDAT", data) + pngChunk("IEND", [])
        return Bytes(file)
    }

    static func pngChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeAndData = Array(type.utf8) + data
        return bigEndian32(data.count) + typeAndData + bigEndian32(Int(CRC32.checksum(typeAndData)))
    }

    private static func noisePNG(side: Int) -> Bytes {
        var random = SeededRandom(seed: 0x5EED)
        var canvas = PixbufCanvas(width: side, height: side)
        canvas.withMutablePixels { pixels, rowStride in
            for y in 0..<side {
                for x in 0..<(side * 4) { pixels[y * rowStride + x] = UInt8(truncatingIfNeeded: random.next()) }
            }
        }
        return try! canvas.finish().encoded(as: "png")
    }

    // MARK: JPEG

    /// An 8 × 8 JPEG with the size in its SOF0 segment replaced.
    static func jpegClaiming(width: Int, height: Int) -> Bytes {
        var bytes = try! Pixbuf.filled(width: 8, height: 8, rgba: 0x808080ff).encoded(as: "jpeg").array
        for index in 0..<(bytes.count - 9) where bytes[index] == 0xFF && bytes[index + 1] == 0xC0 {
            // FF C0, length (2), precision (1), height (2), width (2)
            bytes.replaceSubrange((index + 5)..<(index + 9), with: bigEndian16(height) + bigEndian16(width))
            break
        }
        return Bytes(bytes)
    }

    // MARK: GIF

    /// A GIF89a with `frames` image descriptors of `frame` size, each a two-colour image whose LZW data is
    /// only a clear code and an end code.
    static func gif(screen: (Int, Int), frames: Int, frame: (Int, Int)) -> Bytes {
        var bytes = Array("GIF89a".utf8) + littleEndian16(screen.0) + littleEndian16(screen.1) + [0, 0, 0]
        for _ in 0..<frames {
            bytes += [0x21, 0xF9, 4, 0, 10, 0, 0, 0]  // graphic control: 0.1 s per frame
            bytes += [0x2C] + littleEndian16(0) + littleEndian16(0) + littleEndian16(frame.0) + littleEndian16(frame.1)
            bytes += [0x80, 0, 0, 0, 255, 255, 255]  // a local table of two colours
            bytes += [2, 1, 0x2C, 0]  // LZW minimum code size 2; one sub-block: clear (4), end (5); terminator
        }
        return Bytes(bytes + [0x3B])
    }

    // MARK: BMP

    static func bmp(width: Int, height: Int) -> Bytes {
        var bytes = Array("BM".utf8) + littleEndian32(14 + 40 + 16) + [0, 0, 0, 0] + littleEndian32(14 + 40)
        bytes += littleEndian32(40) + littleEndian32(width) + littleEndian32(height)
        bytes += littleEndian16(1) + littleEndian16(24) + littleEndian32(0) + littleEndian32(0)
        bytes += littleEndian32(2835) + littleEndian32(2835) + littleEndian32(0) + littleEndian32(0)
        return Bytes(bytes + [UInt8](repeating: 0x7F, count: 16))
    }

    // MARK: WebP and AVIF

    /// RIFF/WEBP with a VP8X canvas (animation flag), an ANIM chunk and `frames` ANMF chunks, each holding
    /// the bitstream of a real 1 × 1 WebP (RFC 9649 §2.7).
    static func animatedWebP(canvas: (Int, Int), frames: Int) -> Bytes {
        let still = try! Pixbuf.filled(width: 1, height: 1, rgba: 0x808080ff).encoded(as: "webp").array
        let bitstream = Array(still.dropFirst(12))  // the still's own chunk, after "RIFF" size "WEBP"
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            Array(type.utf8) + littleEndian32(data.count) + data + (data.count % 2 == 1 ? [0] : [])
        }
        func littleEndian24(_ value: Int) -> [UInt8] { Array(littleEndian32(value).prefix(3)) }
        var body = Array("WEBP".utf8)
        body += chunk("VP8X", [0x02, 0, 0, 0] + littleEndian24(canvas.0 - 1) + littleEndian24(canvas.1 - 1))
        body += chunk("ANIM", [0, 0, 0, 0, 0, 0])  // background colour, loop forever
        for _ in 0..<frames {
            // Offset 0, 0; 1 × 1 (stored minus one); 100 ms; no blending or disposal.
            body += chunk("ANMF", [0, 0, 0, 0, 0, 0] + [0, 0, 0, 0, 0, 0] + littleEndian24(100) + [0] + bitstream)
        }
        return Bytes(Array("RIFF".utf8) + littleEndian32(body.count) + body)
    }

    /// A 96 × 64 AVIF made by libavif's gdk-pixbuf saver, its `ispe` box (full box header, then width and height)
    /// rewritten.
    static func avifClaiming(width: Int, height: Int) -> Bytes {
        var bytes = try! Pixbuf.filled(width: 96, height: 64, rgba: 0x3584e4ff).encoded(as: "avif").array
        let type = Array("ispe".utf8)
        for index in 0..<(bytes.count - 16) where Array(bytes[index..<(index + 4)]) == type {
            bytes.replaceSubrange((index + 8)..<(index + 16), with: bigEndian32(width) + bigEndian32(height))
        }
        return Bytes(bytes)
    }

    // MARK: Byte order

    static func bigEndian32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }
    static func bigEndian16(_ value: Int) -> [UInt8] { [UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)] }
    static func littleEndian32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
    static func littleEndian16(_ value: Int) -> [UInt8] { [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)] }
}

/// CRC-32 as PNG chunks use it (ISO 3309, polynomial 0xEDB88320).
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 != 0 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}
