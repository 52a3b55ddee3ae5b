// libFuzzer target: the image header checks that stand between a server's bytes and gdk-pixbuf's loaders
// (PNG, JPEG, GIF, WebP, AVIF, BMP, SVG sniffing), the decode-cost estimate built on them, and an animation's
// layout (frame delays, loop count, where its first frame ends).
// Built and run by `make fuzz` (Tests/Fuzz/run.sh), never by `make test`.
import FuzzSupport
@testable import GalleryCore

/// Also exported under libFuzzer's name: its own main, which the linker keeps beside ours, refers to it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = fuzzInput(data, size)
    guard case .success(let header) = ImageHeader.probe(input) else { return 0 }
    // An animation's layout, read beside the header: bounded by the frames it may keep, and its first frame
    // inside the file.
    if header.frames > 1, let layout = AnimationLayout.read(input, format: header.format, maxFrames: 64) {
        precondition(layout.frameDelays.count <= 64, "more delays kept than frames allowed")
        precondition(layout.frameDelays.allSatisfy { $0 >= 0 }, "a negative delay")
        precondition(layout.firstFrameEnd > 0 && layout.firstFrameEnd <= input.count, "the first frame ends outside the file")
        precondition(layout.firstFramePixels >= 0, "a negative first frame")
        precondition(layout.plays.map { $0 > 0 } ?? true, "an animation that plays no time")
        let first = layout.firstFrameFile(of: input, format: header.format)
        precondition(first.count <= input.count + 1, "the first frame's file grew")
    }
    if header.format != .svg {
        precondition(header.width > 0 && header.height > 0, "a raster header with no size passed")
        precondition(header.frames >= 1 && header.framePixels >= 0, "frames or their area are negative")
    }
    let limits = ImageDecodeLimits()
    for bound in [nil, 96, 1920] as [Int?] {
        let cost = header.decodeBytes(maxPixelSize: bound)
        precondition(cost >= 0, "a negative cost would pass any limit")
        let target = header.targetSize(maxPixelSize: bound)
        precondition(target.width >= 0 && target.height >= 0, "a negative target size")
        if header.fits(limits, maxPixelSize: bound) {
            precondition(header.pixels <= limits.maxPixels && cost <= limits.maxDecodeBytes, "over the limits yet fits")
        }
    }
    return 0
}

runFuzzer(fuzzOneInput)
