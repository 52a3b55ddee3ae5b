/// What the pipeline learned about an image file while fetching and decoding it: its format, read from its
/// bytes (never from the server's Content-Type), how many bytes it has, and its frames (1 for a still image).
/// The large view's details show them.
public struct ImageFileInfo: Equatable, Sendable {
    public var format: ImageFormat
    public var byteCount: Int
    public var frames: Int

    public init(format: ImageFormat, byteCount: Int, frames: Int = 1) {
        self.format = format
        self.byteCount = byteCount
        self.frames = frames
    }

    init(_ header: ImageHeader, byteCount: Int) {
        self.init(format: header.format, byteCount: byteCount, frames: header.frames)
    }
}
