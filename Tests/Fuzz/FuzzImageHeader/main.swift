// libFuzzer target: the image header checks that stand between a server's bytes and gdk-pixbuf's loaders
// (PNG, JPEG, GIF, WebP, AVIF, BMP, SVG sniffing) and the decode-cost estimate built on them.
// Built and run by `make fuzz` (Tests/Fuzz/run.sh), never by `make test`.
import FuzzSupport
@testable import GalleryCore

/// Also exported under libFuzzer's name: its own main, which the linker keeps beside ours, refers to it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard case .success(let header) = ImageHeader.probe(fuzzInput(data, size)) else { return 0 }
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
