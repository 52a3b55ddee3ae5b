/// What the pipeline learned about an image file while fetching and decoding it: its format, read from its
/// bytes (never from the server's Content-Type), and how many bytes it has. The large view's details show them.
public struct ImageFileInfo: Equatable, Sendable {
    public var format: ImageFormat
    public var byteCount: Int

    public init(format: ImageFormat, byteCount: Int) {
        self.format = format
        self.byteCount = byteCount
    }
}
