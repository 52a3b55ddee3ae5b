import GObjectBindings

/// An animation decoded to be played (the large view asks for one with `ImageRequest.playsAnimation`): the
/// loader's frames, scaled as the first frame was, and the file's own timing.
public final class ImageAnimation: Sendable {
    /// gdk-pixbuf's animation: frames are made from it on a worker, one at a time (`PixbufAnimationIterator`).
    public let frames: PixbufAnimation
    /// Frames in the file.
    public let frameCount: Int
    /// Each frame's delay as the file states it (see `AnimationLayout.displayDelay` for how long it shows).
    public let frameDelays: [Int]
    /// How many times it plays; nil: forever.
    public let plays: Int?

    init(frames: PixbufAnimation, frameCount: Int, layout: AnimationLayout) {
        self.frames = frames
        self.frameCount = frameCount
        frameDelays = layout.frameDelays
        plays = layout.plays
    }
}
