/// The messages between the app and its decoder helper (`gallery-decoder`), over a stream socket.
///
/// Every message starts with a fixed-size little-endian header whose fields are all bounded; each side checks
/// every field it reads, because neither trusts the other: the helper has decoded a server's bytes and may be
/// doing whatever those bytes made it do. A request's header is followed by `byteCount` encoded bytes; a
/// reply's by `messageLength` bytes of UTF-8, and a decoded image comes as a sealed memfd attached to its
/// reply (SCM_RIGHTS), `rowStride` × `height` bytes of 8-bit RGB or RGBA. An animation's frames (a request
/// with `maxFrames`) come as one memfd of `frameCount` such images one after another, and the reply's header is
/// followed by each frame's delay (4 bytes, milliseconds) before its message.
public enum DecoderProtocol {
    static let requestMagic: UInt32 = 0x4456_4752  // "RGVD"
    static let replyMagic: UInt32 = 0x4456_4741  // "AGVD"
    public static let requestSize = 64
    public static let replySize = 56
    /// The most encoded bytes one request carries (the app's own download ceiling is lower).
    public static let maxEncodedBytes = 256 << 20
    /// The widest or tallest image a reply may describe, and the most pixels.
    public static let maxSide = 1 << 16
    public static let maxPixels = 1 << 28
    /// The most bytes of pixels one reply may carry, all frames together.
    public static let maxFrameBytes = maxPixels * 4 + maxSide * 4
    public static let maxMessageLength = 1024
    /// The most frames one reply may carry (the app's own `maxAnimationFrames` is lower).
    public static let maxFrames = 1 << 16
    static let loaderNameLength = 16
}

/// One image to decode: `decodeKeepingAnimation`'s arguments, and how many encoded bytes follow.
public struct DecodeRequest: Equatable, Sendable {
    public var loaderType: String
    public var maxPixelSize: Int?
    public var expectedSize: Size?
    public var maxPixels: Int?
    public var byteCount: Int
    /// Nonzero: the frames of one play of the animation are wanted, composited, at most this many.
    public var maxFrames = 0
    /// The most bytes those frames may take together; over it, only the first frame comes back.
    public var maxFrameBytes = 0

    public struct Size: Equatable, Sendable {
        public var width: Int
        public var height: Int
        public init(width: Int, height: Int) { (self.width, self.height) = (width, height) }
    }

    public init(loaderType: String, maxPixelSize: Int?, expectedSize: Size?, maxPixels: Int?, byteCount: Int) {
        self.loaderType = loaderType
        self.maxPixelSize = maxPixelSize
        self.expectedSize = expectedSize
        self.maxPixels = maxPixels
        self.byteCount = byteCount
    }

    public func encoded() -> [UInt8] {
        var writer = HeaderWriter()
        writer.u32(DecoderProtocol.requestMagic)
        let name = Array(loaderType.utf8.prefix(DecoderProtocol.loaderNameLength - 1))
        writer.bytes(name + [UInt8](repeating: 0, count: DecoderProtocol.loaderNameLength - name.count))
        writer.u32(UInt32(clamping: maxPixelSize ?? 0))
        writer.u32(UInt32(clamping: expectedSize?.width ?? 0))
        writer.u32(UInt32(clamping: expectedSize?.height ?? 0))
        writer.u64(UInt64(clamping: maxPixels ?? 0))
        writer.u64(UInt64(clamping: byteCount))
        writer.u32(UInt32(clamping: maxFrames))
        writer.u64(UInt64(clamping: maxFrameBytes))
        writer.u32(0)
        return writer.bytes
    }

    /// Nil unless every field is in bounds: a known magic, a loader name of letters, sizes that fit.
    public init?(decoding header: [UInt8]) {
        guard header.count == DecoderProtocol.requestSize else { return nil }
        var reader = HeaderReader(header)
        guard reader.u32() == DecoderProtocol.requestMagic else { return nil }
        let name = reader.bytes(DecoderProtocol.loaderNameLength).prefix { $0 != 0 }
        // At most 15 characters: the name is NUL-terminated within its field, as `encoded()` writes it.
        guard !name.isEmpty, name.count < DecoderProtocol.loaderNameLength,
              name.allSatisfy({ (0x61...0x7a).contains($0) || (0x30...0x39).contains($0) }) else { return nil }
        loaderType = String(decoding: name, as: UTF8.self)
        let bound = Int(reader.u32()), width = Int(reader.u32()), height = Int(reader.u32())
        let pixels = reader.u64(), count = reader.u64()
        let frames = Int(reader.u32()), frameBytes = reader.u64()
        guard bound <= DecoderProtocol.maxSide, width <= DecoderProtocol.maxSide, height <= DecoderProtocol.maxSide,
              (width == 0) == (height == 0), pixels <= UInt64(DecoderProtocol.maxPixels),
              count <= UInt64(DecoderProtocol.maxEncodedBytes), frames <= DecoderProtocol.maxFrames,
              frameBytes <= UInt64(DecoderProtocol.maxFrameBytes), (frames == 0) == (frameBytes == 0),
              reader.u32() == 0 else { return nil }
        maxFrames = frames
        maxFrameBytes = Int(frameBytes)
        maxPixelSize = bound == 0 ? nil : bound
        expectedSize = width == 0 ? nil : Size(width: width, height: height)
        maxPixels = pixels == 0 ? nil : Int(pixels)
        byteCount = Int(count)
    }
}

/// The helper's answer to a request, or its greeting once it is ready (`.ready`).
public struct DecodeReply: Equatable, Sendable {
    public enum Status: UInt32, Sendable {
        /// Decoded: a memfd with the pixels comes with this reply.
        case decoded = 0
        /// The loader reported a size other than the expected one or over the limit (`originalWidth` ×
        /// `originalHeight`), and was stopped before allocating it.
        case refused = 1
        case noLoader = 2
        /// The loader failed; `message` says why.
        case failed = 3
        /// The loader ran out of the memory the helper may use.
        case outOfMemory = 4
        /// The greeting after start-up: `protections` says what the helper runs under.
        case ready = 5
    }

    /// What the helper put itself under before its first request (`Status.ready`).
    public struct Protections: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        public static let seccomp = Protections(rawValue: 1)
        public static let memoryLimit = Protections(rawValue: 2)
        public static let cpuLimit = Protections(rawValue: 4)
    }

    public var status: Status
    public var width = 0
    public var height = 0
    public var rowStride = 0
    public var hasAlpha = false
    public var originalWidth = 0
    public var originalHeight = 0
    public var pixelBytes = 0
    public var protections = Protections()
    /// 0: a still image (or no image). Otherwise the frames in the memfd, each `rowStride` × `height` bytes.
    public var frameCount = 0
    /// Each frame's delay in milliseconds as the loader states it; read after the header, `frameCount` of them.
    public var frameDelays: [Int] = []
    public var message = ""

    public init(status: Status) { self.status = status }

    /// The header; `message`'s bytes follow it.
    public func encoded() -> [UInt8] {
        var writer = HeaderWriter()
        writer.u32(DecoderProtocol.replyMagic)
        writer.u32(status.rawValue)
        for field in [width, height, rowStride, hasAlpha ? 4 : 3, originalWidth, originalHeight] {
            writer.u32(UInt32(clamping: field))
        }
        writer.u64(UInt64(clamping: pixelBytes))
        writer.u32(protections.rawValue)
        writer.u32(UInt32(clamping: messageBytes.count))
        writer.u32(UInt32(clamping: frameCount))
        writer.u32(0)
        return writer.bytes
    }

    /// The frame delays, as they follow the header.
    public var delayBytes: [UInt8] {
        var writer = HeaderWriter()
        for delay in frameDelays { writer.u32(UInt32(clamping: delay)) }
        return writer.bytes
    }

    /// The delays `delayBytes` holds.
    public static func delays(decoding bytes: [UInt8]) -> [Int] {
        var reader = HeaderReader(bytes)
        return (0..<bytes.count / 4).map { _ in Int(reader.u32()) }
    }

    public var messageBytes: [UInt8] { Array(message.utf8.prefix(DecoderProtocol.maxMessageLength)) }

    /// The header's fields, or nil when one is out of bounds: for `.decoded`, a size within the protocol's,
    /// a row stride that holds a row (and not much more) and a pixel byte count that is exactly the image.
    /// Returns the length of the message that follows in `messageLength`.
    public init?(decoding header: [UInt8], messageLength: inout Int) {
        guard header.count == DecoderProtocol.replySize else { return nil }
        var reader = HeaderReader(header)
        guard reader.u32() == DecoderProtocol.replyMagic, let status = Status(rawValue: reader.u32()) else { return nil }
        self.status = status
        width = Int(reader.u32())
        height = Int(reader.u32())
        rowStride = Int(reader.u32())
        let channels = Int(reader.u32())
        originalWidth = Int(reader.u32())
        originalHeight = Int(reader.u32())
        let bytes = reader.u64()
        protections = Protections(rawValue: reader.u32())
        messageLength = Int(reader.u32())
        frameCount = Int(reader.u32())
        guard reader.u32() == 0, frameCount <= DecoderProtocol.maxFrames, status == .decoded || frameCount == 0,
              channels == 3 || channels == 4, messageLength <= DecoderProtocol.maxMessageLength,
              originalWidth <= DecoderProtocol.maxSide, originalHeight <= DecoderProtocol.maxSide,
              bytes <= UInt64(DecoderProtocol.maxFrameBytes) else { return nil }
        hasAlpha = channels == 4
        pixelBytes = Int(bytes)
        if status == .decoded {
            let rowBytes = width * channels
            guard (1...DecoderProtocol.maxSide).contains(width), (1...DecoderProtocol.maxSide).contains(height),
                  width * height <= DecoderProtocol.maxPixels,
                  rowStride >= rowBytes, rowStride <= rowBytes + 64,
                  pixelBytes == rowStride * height * max(1, frameCount) else { return nil }
        } else if width != 0 || height != 0 || rowStride != 0 || pixelBytes != 0 {
            return nil
        }
    }
}

private struct HeaderWriter {
    var bytes: [UInt8] = []
    mutating func u32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
    mutating func u64(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
    mutating func bytes(_ more: [UInt8]) { bytes += more }
}

private struct HeaderReader {
    let data: [UInt8]
    var offset = 0
    init(_ data: [UInt8]) { self.data = data }

    mutating func u32() -> UInt32 {
        defer { offset += 4 }
        return (0..<4).reduce(UInt32(0)) { $0 | UInt32(data[offset + $1]) << (8 * $1) }
    }

    mutating func u64() -> UInt64 {
        defer { offset += 8 }
        return (0..<8).reduce(UInt64(0)) { $0 | UInt64(data[offset + $1]) << (8 * $1) }
    }

    mutating func bytes(_ count: Int) -> ArraySlice<UInt8> {
        defer { offset += count }
        return data[offset..<offset + count]
    }
}
