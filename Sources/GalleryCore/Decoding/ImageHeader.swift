import GObjectBindings

/// The formats the app decodes, told apart by their first bytes — never by the URL or the Content-Type, which a
/// server controls. Each has a header that states the image's size, which `ImageHeader.probe` reads before any
/// decoder sees the data.
public enum ImageFormat: String, Sendable, CaseIterable {
    case png, jpeg, gif, webp, avif, bmp, svg

    /// gdk-pixbuf's name for the loader of this format (`gdk_pixbuf_loader_new_with_type`).
    public var loaderName: String { rawValue }

    /// Whether the loader's `size-prepared` reports the size the header declares, before it allocates: then
    /// the decode is stopped there when it reports another. Not SVG (no size of its own), nor AVIF, whose
    /// loader decodes the whole image first and reports its size after cropping and rotating it.
    public var reportsDeclaredSize: Bool { self != .svg && self != .avif }

    public var displayName: String {
        switch self {
        case .png: "PNG"
        case .jpeg: "JPEG"
        case .gif: "GIF"
        case .webp: "WebP"
        case .avif: "AVIF"
        case .bmp: "BMP"
        case .svg: "SVG"
        }
    }
}

/// What an image's header declares, read without decoding anything.
public struct ImageHeader: Equatable, Sendable {
    public var format: ImageFormat
    /// The canvas size. 0 × 0 for SVG, whose size (in any unit, or none) is left to its renderer: a vector
    /// image is rendered at the size asked for, so its declared size costs nothing.
    public var width: Int
    public var height: Int
    /// Frames of an animation (GIF, WebP); 1 for a still image.
    public var frames = 1
    /// The area the loader decodes, all together: every frame of an animation (a WebP animation's frames each
    /// as large as its canvas), an AVIF's image with its grid tiles and alpha plane.
    public var framePixels: Int
    /// A progressive JPEG: libjpeg keeps the coefficients of the whole image while decoding, whatever the
    /// output size.
    public var isProgressive = false
    /// Colour components (JPEG: 1 grey, 3 YCbCr, 4 CMYK).
    public var components = 3

    public init(format: ImageFormat, width: Int, height: Int, frames: Int = 1, framePixels: Int? = nil,
                isProgressive: Bool = false, components: Int = 3) {
        self.format = format
        self.width = width
        self.height = height
        self.frames = frames
        self.framePixels = framePixels ?? ImageHeader.area(width, height)
        self.isProgressive = isProgressive
        self.components = components
    }

    public var pixels: Int { Self.area(width, height) }
}

/// Why a header could not be read.
public enum ImageProbeError: Error, Equatable, Sendable {
    /// A known format the app does not decode (no loader, or no header check for it): "TIFF", "ICO".
    case unsupported(String)
    /// Not an image format the app knows at all.
    case unknown
    /// The header is cut off or contradicts itself.
    case malformed(String)
}

extension ImageHeader {
    /// Reads the header of `bytes`. Looks at the header only, except for GIF and WebP, whose frames are
    /// counted by walking the file's blocks (linear in its size, nothing decoded), and AVIF, whose size is in
    /// a property box found by walking box headers (a bounded number of them).
    public static func probe(_ bytes: UnsafeRawBufferPointer) -> Result<ImageHeader, ImageProbeError> {
        var reader = ByteReader(bytes)
        if reader.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return ImageHeaderParsers.png(&reader) }
        if reader.starts(with: [0xFF, 0xD8, 0xFF]) { return ImageHeaderParsers.jpeg(&reader) }
        if reader.starts(with: Array("GIF87a".utf8)) || reader.starts(with: Array("GIF89a".utf8)) {
            return ImageHeaderParsers.gif(&reader)
        }
        if reader.starts(with: Array("RIFF".utf8)), reader.byte(at: 8...11) == Array("WEBP".utf8) {
            return ImageHeaderParsers.webp(&reader)
        }
        if ImageHeaderParsers.isAVIF(reader) { return ImageHeaderParsers.avif(&reader) }
        if reader.starts(with: Array("BM".utf8)) { return ImageHeaderParsers.bmp(&reader) }
        if ImageHeaderParsers.looksLikeSVG(bytes) { return .success(ImageHeader(format: .svg, width: 0, height: 0)) }
        if let name = otherFormat(reader) { return .failure(.unsupported(name)) }
        return .failure(.unknown)
    }

    /// Formats gdk-pixbuf may have a loader for, which the app refuses rather than decode unchecked.
    private static func otherFormat(_ reader: ByteReader) -> String? {
        if reader.starts(with: [0x49, 0x49, 0x2A, 0x00]) || reader.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) { return "TIFF" }
        if reader.starts(with: [0x00, 0x00, 0x01, 0x00]) || reader.starts(with: [0x00, 0x00, 0x02, 0x00]) { return "ICO" }
        if reader.starts(with: Array("icns".utf8)) { return "ICNS" }
        if reader.starts(with: Array("/* XPM */".utf8)) { return "XPM" }
        if reader.starts(with: Array("#define ".utf8)) { return "XBM" }
        if reader.starts(with: Array("RIFF".utf8)), reader.byte(at: 8...11) == Array("ACON".utf8) { return "ANI" }
        if reader.starts(with: [0x1F, 0x8B]) { return tr("compressed (gzip)") }
        if let brands = ImageHeaderParsers.fileTypeBrands(reader) {
            // HEIC photos (iPhones) and MP4/QuickTime videos share AVIF's container.
            let heif: Set = ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"]
            return brands.contains(where: heif.contains) ? "HEIF" : tr("MP4 video")
        }
        if let magic = reader.byte(at: 0...1), magic[0] == UInt8(ascii: "P"),
           (UInt8(ascii: "1")...UInt8(ascii: "7")).contains(magic[1]) { return "PNM" }
        return nil
    }

    /// `width × height`, saturating instead of overflowing (headers can claim 2³¹ × 2³¹).
    static func area(_ width: Int, _ height: Int) -> Int {
        let (product, overflow) = width.multipliedReportingOverflow(by: height)
        return overflow ? Int.max : product
    }
}

// MARK: - What decoding costs

/// The limits on decoding that a server's image cannot move.
public struct ImageDecodeLimits: Sendable {
    /// No image with a larger declared area is decoded, whatever the format or target size. Pillow refuses
    /// at 179 MP and warns at 89; a gallery has no use for more than this.
    public var maxPixels: Int
    /// Memory one decode may need (as `ImageHeader.decodeBytes` estimates it): 160 MiB is a 40-megapixel PNG
    /// decoded at full size, or a 200-megapixel baseline JPEG shrunk by its decoder.
    public var maxDecodeBytes: Int
    /// Memory all decodes running at once may need together; the rest wait. At least `maxDecodeBytes`, so
    /// any image that passes alone can run.
    public var concurrentDecodeBytes: Int
    /// An animation with more frames is not decoded whole, whatever their size: gdk-pixbuf's GIF loader keeps
    /// a record of ~100 bytes per frame, which `decodeBytes` does not count, and walks the list of frames for
    /// every frame it shows. A 50 MB GIF of 1 × 1 frames holds two million of them; real animations have a
    /// few hundred.
    public var maxAnimationFrames: Int

    public init(maxPixels: Int = 100_000_000, maxDecodeBytes: Int = 160 * 1_048_576,
                concurrentDecodeBytes: Int = 160 * 1_048_576, maxAnimationFrames: Int = 10_000) {
        self.maxPixels = maxPixels
        self.maxDecodeBytes = maxDecodeBytes
        self.concurrentDecodeBytes = max(concurrentDecodeBytes, maxDecodeBytes)
        self.maxAnimationFrames = maxAnimationFrames
    }

    /// The size a vector image is rendered at when the caller asked for its original size.
    public static let vectorPixelSize = 4096
}

extension ImageHeader {
    /// Whether `limits` allow decoding this image to fit `maxPixelSize` (nil: original size).
    public func fits(_ limits: ImageDecodeLimits, maxPixelSize: Int?) -> Bool {
        pixels <= limits.maxPixels && framePixels <= limits.maxPixels && frames <= limits.maxAnimationFrames
            && decodeBytes(maxPixelSize: maxPixelSize) <= limits.maxDecodeBytes
    }

    /// The memory gdk-pixbuf's loader needs to decode this image scaled to fit `maxPixelSize`, from how each
    /// loader works: PNG and BMP decode at full size and scale afterwards; WebP is counted the same (libwebp
    /// scales a still image while decoding, but an animation is decoded frame by frame at the canvas's full
    /// size, every frame kept); GIF keeps every frame; JPEG decodes at 1/1, 1/2, 1/4 or 1/8 of the size, the
    /// smallest that still covers the target, but keeps every coefficient of a progressive image; AVIF is
    /// decoded whole before the loader even reports a size. 4 bytes per pixel throughout (RGBA, or CMYK).
    public func decodeBytes(maxPixelSize: Int?) -> Int {
        let target = targetSize(maxPixelSize: maxPixelSize)
        let output = Self.saturating(Self.area(target.width, target.height), times: 4)
        let decoded: Int
        switch format {
        case .png, .bmp, .webp:
            decoded = Self.saturating(framePixels, times: 4)
        case .gif:
            decoded = Self.saturating(framePixels, times: 4) &+ Self.saturating(pixels, times: 4)
        case .jpeg:
            var denominator = 1
            while denominator < 8,
                  (width + 2 * denominator - 1) / (2 * denominator) >= target.width,
                  (height + 2 * denominator - 1) / (2 * denominator) >= target.height {
                denominator *= 2
            }
            let scaled = Self.area((width + denominator - 1) / denominator, (height + denominator - 1) / denominator)
            let coefficients = isProgressive ? Self.saturating(pixels, times: 2 * max(1, components)) : 0
            decoded = Self.saturating(scaled, times: 4) &+ coefficients
        case .avif:
            // The AV1 frame (YUV; up to 3 bytes a pixel at 10 or 12 bits, stored in 16-bit samples), the RGBA
            // pixbuf, and the copy the loader makes to rotate, mirror or crop it.
            decoded = Self.saturating(framePixels, times: 3 + 4 + 4)
        case .svg:
            decoded = 0
        }
        let total = decoded.addingReportingOverflow(output)
        return total.overflow || total.partialValue < 0 ? Int.max : total.partialValue
    }

    /// The header of the animation's first frame alone, as the file cut after it declares it.
    func firstFrame(of layout: AnimationLayout) -> ImageHeader {
        ImageHeader(format: format, width: width, height: height, frames: 1, framePixels: layout.firstFramePixels)
    }

    /// The size the decoder is asked for: the declared size scaled down to fit `maxPixelSize`, never up.
    /// A vector image is rendered to fit `maxPixelSize`, or `ImageDecodeLimits.vectorPixelSize`.
    public func targetSize(maxPixelSize: Int?) -> (width: Int, height: Int) {
        if format == .svg {
            let side = maxPixelSize ?? ImageDecodeLimits.vectorPixelSize
            return (side, side)
        }
        guard let bound = maxPixelSize, max(width, height) > bound, width > 0, height > 0 else { return (width, height) }
        let scale = Double(bound) / Double(max(width, height))
        return (max(1, Int((Double(width) * scale).rounded())), max(1, Int((Double(height) * scale).rounded())))
    }

    private static func saturating(_ value: Int, times factor: Int) -> Int {
        let (product, overflow) = value.multipliedReportingOverflow(by: factor)
        return overflow ? Int.max : product
    }
}
