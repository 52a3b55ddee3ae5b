import GObjectBindings

/// An animation decoded to be played (the large view asks for one with `ImageRequest.playsAnimation`): one play
/// of it, every frame composited by the decoder helper and scaled as the first frame was, and its timing.
public final class ImageAnimation: Sendable {
    /// The frames in order, each whole: the helper's pixels, mapped read-only.
    public let frames: [Pixbuf]
    /// Frames in the file.
    public let frameCount: Int
    /// Each frame's delay in milliseconds, one per frame: the file's own where its header could be read, the
    /// loader's otherwise, bounded (see `AnimationLayout.displayDelay` for how long it shows).
    public let frameDelays: [Int]
    /// How many times it plays; nil: forever.
    public let plays: Int?

    /// The longest delay a frame keeps: a WebP frame may state 4.6 hours, GIF's longest is 655.35 s.
    static let maxDelay = 655_350

    init(frames: [AnimationFrame], frameCount: Int, layout: AnimationLayout) {
        self.frames = frames.map(\.pixbuf)
        self.frameCount = frameCount
        frameDelays = frames.indices.map { index in
            let stated = index < layout.frameDelays.count ? layout.frameDelays[index] : frames[index].delay
            return min(max(0, stated), Self.maxDelay)
        }
        plays = layout.plays
    }
}
