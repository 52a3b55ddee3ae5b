/// What the header probe does not keep of an animation: where its first frame ends (to decode that frame alone
/// when the whole animation is over the limits), each frame's delay as the file states it, and how often it
/// plays. Read on a worker, like the probe, by walking the same blocks (GIF89a spec §23–§26; RFC 9649 §2.7).
public struct AnimationLayout: Equatable, Sendable {
    /// The file's bytes up to the end of its first frame (GIF: the frame's image data; WebP: its ANMF chunk).
    var firstFrameEnd: Int
    /// The area the loader decodes for the first frame alone: GIF's frame rectangle, WebP's whole canvas.
    var firstFramePixels: Int
    /// Each frame's delay in milliseconds as the file states it, in order; empty when the animation has more
    /// frames than it may play (it is not played then). WebP frames of 0 ms are left out: webp-pixbuf-loader's
    /// iterator never shows them.
    public var frameDelays: [Int]
    /// How many times the animation plays; nil: forever.
    public var plays: Int?

    /// The layout of the animation in `bytes` (the probe found it to have more than one frame), or nil when its
    /// first frame cannot be found. Delays are kept only up to `maxFrames` frames.
    static func read(_ bytes: UnsafeRawBufferPointer, format: ImageFormat, maxFrames: Int) -> AnimationLayout? {
        var reader = ByteReader(bytes)
        switch format {
        case .gif: return gif(&reader, maxFrames: maxFrames)
        case .webp: return webp(&reader, maxFrames: maxFrames)
        default: return nil
        }
    }

    /// GIF: a graphic control extension's delay (in hundredths) applies to the next image; the NETSCAPE2.0
    /// application extension's loop count n means n repetitions after the first play (0: forever); without one
    /// the animation plays once — as browsers and gdk-pixbuf's loader do.
    private static func gif(_ reader: inout ByteReader, maxFrames: Int) -> AnimationLayout? {
        reader.position = 6
        guard reader.skip(4), let flags = reader.uint8(), reader.skip(2) else { return nil }
        if flags & 0x80 != 0, !reader.skip(3 << ((flags & 7) + 1)) { return nil }
        var layout = AnimationLayout(firstFrameEnd: 0, firstFramePixels: 0, frameDelays: [], plays: 1)
        var pendingDelay = 0
        var frames = 0
        loop: while let introducer = reader.uint8() {
            switch introducer {
            case 0x2C:
                guard reader.skip(4), let width = reader.uint16LE(), let height = reader.uint16LE(),
                      let frameFlags = reader.uint8() else { break loop }
                if frameFlags & 0x80 != 0, !reader.skip(3 << ((frameFlags & 7) + 1)) { break loop }
                guard reader.skip(1), reader.skipSubBlocks() else { break loop }
                frames += 1
                if frames == 1 {
                    layout.firstFrameEnd = reader.position
                    layout.firstFramePixels = ImageHeader.area(width, height)
                }
                if frames <= maxFrames { layout.frameDelays.append(pendingDelay) }
                pendingDelay = 0
            case 0x21:
                // Every extension is sub-blocks after its label: read what is wanted, then skip them all.
                guard let label = reader.uint8() else { break loop }
                let blocks = reader.position
                if label == 0xF9, let size = reader.uint8(), size >= 4, reader.skip(1), let delay = reader.uint16LE() {
                    pendingDelay = delay * 10
                } else if label == 0xFF, reader.uint8() == 11, let name = reader.bytes(11),
                          name == Array("NETSCAPE2.0".utf8) || name == Array("ANIMEXTS1.0".utf8),
                          let length = reader.uint8(), length >= 3, reader.uint8() == 1, let count = reader.uint16LE() {
                    layout.plays = count == 0 ? nil : count + 1
                }
                reader.position = blocks
                guard reader.skipSubBlocks() else { break loop }
            default:
                break loop
            }
        }
        if frames > maxFrames { layout.frameDelays = [] }
        return frames > 0 ? layout : nil
    }

    /// WebP: the ANIM chunk's loop count (0: forever) and each ANMF chunk's duration.
    private static func webp(_ reader: inout ByteReader, maxFrames: Int) -> AnimationLayout? {
        reader.position = 12
        var layout = AnimationLayout(firstFrameEnd: 0, firstFramePixels: 0, frameDelays: [], plays: nil)
        var frames = 0
        while let fourCC = reader.bytes(4), let size = reader.uint32LE() {
            let start = reader.position
            switch String(decoding: fourCC, as: UTF8.self) {
            case "VP8X":
                guard reader.skip(4), let width = reader.uint24LE(), let height = reader.uint24LE() else { return nil }
                layout.firstFramePixels = ImageHeader.area(width + 1, height + 1)
            case "ANIM":
                guard reader.skip(4), let count = reader.uint16LE() else { return nil }
                layout.plays = count == 0 ? nil : count
            case "ANMF":
                guard reader.skip(12), let duration = reader.uint24LE() else { return nil }
                frames += 1
                if frames <= maxFrames, duration > 0 { layout.frameDelays.append(duration) }
            default:
                break
            }
            reader.position = start
            guard reader.skip(size + (size & 1)) else {
                // A last chunk cut off: what it holds is not a whole frame.
                break
            }
            if frames == 1 && layout.firstFrameEnd == 0 { layout.firstFrameEnd = reader.position }
        }
        if frames > maxFrames { layout.frameDelays = [] }
        return layout.firstFrameEnd > 0 && layout.firstFramePixels > 0 ? layout : nil
    }

    /// The file cut after its first frame, a whole file of its own: GIF gets its trailer; WebP's RIFF size is
    /// the new length, and the VP8X flags no longer promise the EXIF and XMP chunks that came after.
    func firstFrameFile(of bytes: UnsafeRawBufferPointer, format: ImageFormat) -> [UInt8] {
        var file = Array(bytes[0..<min(firstFrameEnd, bytes.count)])
        switch format {
        case .gif:
            file.append(0x3B)
        case .webp where file.count >= 21:
            let riffSize = UInt32(file.count - 8)
            for index in 0..<4 { file[4 + index] = UInt8(truncatingIfNeeded: riffSize >> (8 * UInt32(index))) }
            if file[12..<16].elementsEqual("VP8X".utf8) { file[20] &= ~0x0C }
        default:
            break
        }
        return file
    }

    /// How long a frame whose file states `delay` milliseconds is shown. Browsers show frames of 10 ms or less
    /// for 100 ms, because many files ask for 0 or 10 ms where they mean "the default": Chromium
    /// (`ImageFrame`'s duration: "use a duration of 100 ms for any frames that specify a duration of <= 10 ms",
    /// after Firefox, for GIF, WebP and APNG alike), Firefox (`FrameTimeout`: 0–10 ms become 100 ms) and WebKit
    /// do the same. In GIF's hundredths that is every delay under 20 ms. gdk-pixbuf's GIF loader shows 0 as
    /// 100 ms but 10 ms as 20 ms; this follows the browsers, where these files were made to be seen.
    public static func displayDelay(_ delay: Int) -> Int { delay <= 10 ? 100 : delay }
}
