import CDecoderSandbox
import CGLib
import DecoderBindings
#if canImport(Glibc)
import Glibc
#endif

/// An animation's frames for the app to play: one play of it composited by gdk-pixbuf's iterator, frame after
/// frame, into one memfd, so the app never runs a loader on a server's bytes to play it.
enum AnimationFrames {
    /// The reply to a frames request: every frame of one play (at most `maxFrames`, each `rowStride` × `height`
    /// bytes, their delays in the reply) while they fit in `maxFrameBytes` together, else the first frame alone
    /// (`frameCount` 1). Nil when a memfd could not be made or filled.
    static func reply(_ decoded: DecodedPixbuf, animation: PixbufAnimation?, maxFrames: Int,
                      maxFrameBytes: Int) -> (DecodeReply, Int32)? {
        guard let (still, stillFd) = pixelReply(decoded) else { return nil }
        var reply = still
        reply.frameCount = 1
        reply.frameDelays = [0]
        guard let animation, maxFrames > 1 else { return seal(reply, stillFd) }
        let frameBytes = reply.pixelBytes
        let fd = gv_memfd_create("gallery-frames", 0)
        guard fd >= 0 else { return seal(reply, stillFd) }
        let iterator = animation.makeIterator()
        var frames: [Int] = []
        var complete = false
        var time = 1
        while !complete, (frames.count + 1) * frameBytes <= maxFrameBytes, let frame = iterator.frame(at: time) {
            let pointer = frame.pixbuf.pointer
            guard frame.pixbuf.width == reply.width, frame.pixbuf.height == reply.height,
                  Int(gdk_pixbuf_get_rowstride(pointer)) == reply.rowStride,
                  (gdk_pixbuf_get_has_alpha(pointer) != 0) == reply.hasAlpha,
                  append(pointer, frameBytes: frameBytes, to: fd) else { break }
            frames.append(frame.delay ?? 0)
            // The end of one play: as many frames as the file has, or the loader's last for good.
            complete = frames.count == maxFrames || frame.delay == nil
            time += max(1, frame.delay ?? 0)
        }
        // All of one play, or the first frame alone (over the bytes allowed, or a frame gdk-pixbuf did not give).
        guard complete && frames.count > 1 else {
            close(fd)
            return seal(reply, stillFd)
        }
        close(stillFd)
        reply.frameCount = frames.count
        reply.frameDelays = frames
        reply.pixelBytes = frames.count * frameBytes
        return seal(reply, fd)
    }

    /// `fd` sealed against any change, or closed and nil.
    static func seal(_ reply: DecodeReply, _ fd: Int32) -> (DecodeReply, Int32)? {
        guard gv_memfd_seal(fd) == 0 else {
            close(fd)
            return nil
        }
        return (reply, fd)
    }

    /// Appends a pixbuf's pixels, its last row padded with zeros to a whole stride.
    private static func append(_ pixbuf: OpaquePointer, frameBytes: Int, to fd: Int32) -> Bool {
        let length = Int(gdk_pixbuf_get_byte_length(pixbuf))
        guard length <= frameBytes else { return false }
        let padding = [UInt8](repeating: 0, count: frameBytes - length)
        return gv_write_all_fd(fd, gdk_pixbuf_read_pixels(pixbuf), length) == 0
            && (padding.isEmpty || gv_write_all_fd(fd, padding, padding.count) == 0)
    }
}
