import CGLib

/// A position in a `PixbufAnimation` (GdkPixbufAnimationIter), moved along the animation's own clock: the
/// player says which millisecond it wants, so frames can be made ahead of time on a worker and pausing is
/// simply not asking for the next one.
///
/// @unchecked Sendable: one worker job at a time uses it (the player waits for each frame before asking for the
/// next), and every call holds the animation's lock, which also covers the state the loaders keep in the
/// animation.
public final class PixbufAnimationIterator: @unchecked Sendable {
    /// A frame of the animation, copied out of the loader's canvas (which the next frame overwrites).
    public struct Frame: Sendable {
        public let pixbuf: Pixbuf
        /// How long the loader says this frame shows from the time asked for, in milliseconds; nil when it is the
        /// last one for good (the animation's loops are over).
        public let delay: Int?
    }

    private let animation: PixbufAnimation
    private var iterator: ObjectRef?
    /// The last time asked for, on the animation's clock.
    public private(set) var time = 0

    init(_ animation: PixbufAnimation) { self.animation = animation }

    /// Moves to `milliseconds` on the animation's clock (never back: a time before the last one asked for is
    /// taken as that one) and copies the frame shown then. Makes the underlying iterator first if there is
    /// none (WebP decodes every frame then), so call it on a worker thread. Nil when gdk-pixbuf gives no frame
    /// (out of memory).
    public func frame(at milliseconds: Int) -> Frame? {
        animation.lock.withLock { _ -> Frame? in
            let iterator: ObjectRef
            if let existing = self.iterator {
                iterator = existing
            } else {
                guard let made = gv_pixbuf_animation_get_iter_at_start(animation.pointer) else { return nil }
                iterator = ObjectRef(made, transfer: .full)
                self.iterator = iterator
            }
            time = max(time, milliseconds)
            _ = gv_pixbuf_animation_iter_advance_to(iterator.opaque, gint64(time))
            guard let current = gdk_pixbuf_animation_iter_get_pixbuf(iterator.opaque),
                  let copy = gdk_pixbuf_copy(current) else { return nil }
            let delay = Int(gdk_pixbuf_animation_iter_get_delay_time(iterator.opaque))
            return Frame(pixbuf: Pixbuf(owning: copy), delay: delay < 0 ? nil : delay)
        }
    }
}
