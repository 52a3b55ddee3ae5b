import CGLib
import Synchronization

/// An animated image as gdk-pixbuf's loader decoded it (GdkPixbufAnimation), to be played frame by frame
/// through a `PixbufAnimationIterator`.
///
/// What each loader keeps (gdk-pixbuf 2.42, webp-pixbuf-loader 0.2): GIF's keeps every frame compressed and
/// composites the one asked for into a canvas of its own; WebP's keeps the file and decodes every frame, each
/// onto a whole canvas, when an iterator is made; an animation the loader was asked to shrink is wrapped in one
/// that scales each frame as it is asked for. The decode's cost estimate (`ImageHeader.decodeBytes`) counts
/// the largest of these.
///
/// Used by the decoder helper (`gallery-decoder`), which composites one play's frames for the app to show; the
/// app itself runs no loader on a server's bytes.
///
/// @unchecked Sendable: the loaders keep mutable state in the animation itself (GIF's composited canvas, the
/// scaled wrapper's last frame), so everything that touches it or its iterators holds `lock`: one thread at a
/// time, whichever.
public final class PixbufAnimation: @unchecked Sendable {
    private let ref: ObjectRef
    let lock = Mutex<Void>(())

    /// Adds a reference to an animation a loader made (`gdk_pixbuf_loader_get_animation`, transfer none).
    public init(retaining pointer: OpaquePointer) { ref = ObjectRef(pointer, transfer: .none) }

    var pointer: OpaquePointer { ref.opaque }

    public var width: Int { lock.withLock { _ in Int(gdk_pixbuf_animation_get_width(pointer)) } }
    public var height: Int { lock.withLock { _ in Int(gdk_pixbuf_animation_get_height(pointer)) } }

    /// One frame only: nothing to play.
    public var isStill: Bool { lock.withLock { _ in gdk_pixbuf_animation_is_static_image(pointer) != 0 } }

    /// An iterator at the start of the animation's clock. For WebP this decodes every frame: call it on a
    /// worker thread (as `PixbufAnimationIterator.frame(at:)` does when it has none yet).
    public func makeIterator() -> PixbufAnimationIterator { PixbufAnimationIterator(self) }
}
