import CDecoderSandbox
import CGLib
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Why a decoder helper gave no image.
public enum DecoderFailure: Error, Equatable, Sendable {
    /// The helper's loader refused the size (as `PixbufDecodingError.refused`).
    case refused(width: Int, height: Int)
    case noLoader
    /// The loader's own error message.
    case failed(String)
    /// The image needs more memory than the helper may use.
    case outOfMemory
    /// No reply within the time allowed; the helper was killed.
    case timedOut
    /// The helper ended: the signal that ended it, 0 when it exited.
    case died(signal: Int32)
    /// The helper broke the protocol (a field out of bounds, a memfd not sealed or of the wrong size); it was
    /// killed, since it may be doing what a server's bytes made it do.
    case protocolViolation(String)
}

/// One running decoder helper and its end of the socket. Made on the main thread (the helper's parent death
/// signal follows the thread that started it, and the main thread lives as long as the app); used by one
/// worker thread at a time (the pool's lock), which blocks on its replies; `stop` may come from anywhere.
public final class DecoderProcess: Sendable {
    public let pid: pid_t
    private let socket: Int32
    /// Set by whoever reaps the helper first: a worker that saw it die, or the main loop dropping it.
    private let ended = Atomic(false)

    private init(pid: pid_t, socket: Int32) {
        self.pid = pid
        self.socket = socket
    }

    deinit {
        stop()
        close(socket)
    }

    /// Starts `arguments[0]` (an absolute path) with its end of a new socket pair as fd 3.
    public static func spawn(_ arguments: [String]) -> Result<DecoderProcess, GLibError> {
        var ends: [Int32] = [-1, -1]
        guard gv_socketpair(&ends) == 0 else { return .failure(.errno(tr("Could not start the image decoder"))) }
        let strings = arguments.map { strdup($0) }
        defer { strings.forEach { free($0) } }
        let pid = (strings.map { UnsafePointer($0) } + [nil]).withUnsafeBufferPointer { gv_spawn($0.baseAddress, ends[1]) }
        let failure = GLibError.errno(tr("Could not start the image decoder"))
        close(ends[1])
        guard pid > 0 else {
            close(ends[0])
            return .failure(failure)
        }
        return .success(DecoderProcess(pid: pid, socket: ends[0]))
    }

    /// Waits for the helper's greeting: what it put itself under. A helper that cannot set itself up (bubblewrap
    /// without namespaces) ends instead.
    public func awaitReady(timeoutMilliseconds: Int32) -> Result<DecodeReply.Protections, DecoderFailure> {
        readReply(timeoutMilliseconds: timeoutMilliseconds).flatMap { reply, fd in
            if fd >= 0 { close(fd) }
            guard reply.status == .ready else { return .failure(kill(.protocolViolation("no greeting"))) }
            return .success(reply.protections)
        }
    }

    /// Sends `bytes` to be decoded as `request` says and waits for the image, for a worker thread. The image
    /// is the helper's memfd mapped read-only: no copy, unmapped when the pixbuf is finalized.
    public func decode(_ bytes: Bytes, _ request: DecodeRequest, timeoutMilliseconds: Int32)
        -> Result<DecodedPixbuf, DecoderFailure> {
        if let failure = send(bytes, request) { return .failure(failure) }
        return receive(for: request, timeoutMilliseconds: timeoutMilliseconds)
    }

    /// The first half of `decode`: sends the request and its bytes, or says how the helper ended. The helper
    /// answers requests in the order they came, so a request may go out while the one before is decoded, as
    /// long as the replies are read in the same order (`receive`). Blocks while the socket is full.
    public func send(_ bytes: Bytes, _ request: DecodeRequest) -> DecoderFailure? {
        var request = request
        request.byteCount = bytes.count
        let header = request.encoded()
        let sent = bytes.withUnsafeBytes { buffer in
            gv_send_with_fd(socket, header, header.count, -1) == 0
                && (buffer.isEmpty || gv_write_all(socket, buffer.baseAddress, buffer.count) == 0)
        }
        return sent ? nil : reap()
    }

    /// The second half of `decode`: waits for the reply to `request`, the oldest one not read yet.
    public func receive(for request: DecodeRequest, timeoutMilliseconds: Int32) -> Result<DecodedPixbuf, DecoderFailure> {
        readReply(timeoutMilliseconds: timeoutMilliseconds).flatMap { reply, fd in
            switch reply.status {
            case .decoded: return image(reply, fd: fd, request: request)
            case .refused: return .failure(.refused(width: reply.originalWidth, height: reply.originalHeight))
            case .noLoader: return .failure(.noLoader)
            case .failed: return .failure(.failed(reply.message))
            case .outOfMemory: return .failure(.outOfMemory)
            case .ready: return .failure(kill(.protocolViolation("a second greeting")))
            }
        }
    }

    private func readReply(timeoutMilliseconds: Int32) -> Result<(DecodeReply, Int32), DecoderFailure> {
        var header = [UInt8](repeating: 0, count: DecoderProtocol.replySize)
        var fd: Int32 = -1
        guard gv_recv_with_fd(socket, &header, header.count, &fd, timeoutMilliseconds) == 0 else {
            return .failure(errno == ETIMEDOUT ? kill(.timedOut) : reap())
        }
        var messageLength = 0
        guard var reply = DecodeReply(decoding: header, messageLength: &messageLength),
              (reply.status == .decoded) == (fd >= 0) else {
            if fd >= 0 { close(fd) }
            return .failure(kill(.protocolViolation("a reply out of bounds")))
        }
        if reply.frameCount > 0 {
            var delays = [UInt8](repeating: 0, count: reply.frameCount * 4)
            var extra: Int32 = -1
            guard gv_recv_with_fd(socket, &delays, delays.count, &extra, timeoutMilliseconds) == 0, extra < 0 else {
                if fd >= 0 { close(fd) }
                if extra >= 0 { close(extra) }
                return .failure(kill(.protocolViolation("delays cut off")))
            }
            reply.frameDelays = DecodeReply.delays(decoding: delays)
        }
        if messageLength > 0 {
            var message = [UInt8](repeating: 0, count: messageLength)
            var extra: Int32 = -1
            guard gv_recv_with_fd(socket, &message, messageLength, &extra, timeoutMilliseconds) == 0, extra < 0 else {
                if fd >= 0 { close(fd) }
                if extra >= 0 { close(extra) }
                return .failure(kill(.protocolViolation("a message cut off")))
            }
            reply.message = String(decoding: message, as: UTF8.self)
        }
        return .success((reply, fd))
    }

    /// Checks the memfd against the reply (sealed, exactly the size stated) and the reply against the request
    /// (no larger than asked; frames only when asked for, no more of them nor bytes than allowed), then maps it.
    private func image(_ reply: DecodeReply, fd: Int32, request: DecodeRequest) -> Result<DecodedPixbuf, DecoderFailure> {
        defer { close(fd) }
        guard gv_memfd_is_sealed(fd) == 1 else { return .failure(kill(.protocolViolation("pixels not sealed"))) }
        guard gv_fd_size(fd) == Int64(reply.pixelBytes) else { return .failure(kill(.protocolViolation("pixels of another size"))) }
        if let bound = request.maxPixelSize, max(reply.width, reply.height) > bound {
            return .failure(kill(.protocolViolation("an image larger than asked")))
        }
        if let maxPixels = request.maxPixels, reply.width * reply.height > maxPixels {
            return .failure(kill(.protocolViolation("an image over the pixel limit")))
        }
        if reply.frameCount > max(request.maxFrames, 0) || (reply.frameCount > 1 && reply.pixelBytes > request.maxFrameBytes)
            || (request.maxFrames > 0 && reply.frameCount == 0) {
            return .failure(kill(.protocolViolation("frames other than asked")))
        }
        guard let mapped = mmap(nil, reply.pixelBytes, PROT_READ, MAP_SHARED, fd, 0), mapped != MAP_FAILED else {
            return .failure(.failed(GLibError.errno("mmap").message))
        }
        let mapping = PixelMapping(mapped, length: reply.pixelBytes)
        let frameBytes = reply.rowStride * reply.height
        var pixbufs: [Pixbuf] = []
        for index in 0..<max(1, reply.frameCount) {
            let retained = Unmanaged.passRetained(mapping).toOpaque()
            guard let pixbuf = gdk_pixbuf_new_from_data(
                (mapped + index * frameBytes).assumingMemoryBound(to: guchar.self), GDK_COLORSPACE_RGB,
                reply.hasAlpha ? 1 : 0, 8, Int32(reply.width), Int32(reply.height), Int32(reply.rowStride),
                releaseMapping, retained) else {
                Unmanaged<PixelMapping>.fromOpaque(retained).release()
                return .failure(.outOfMemory)
            }
            pixbufs.append(Pixbuf(owning: pixbuf))
        }
        var decoded = DecodedPixbuf(pixbuf: pixbufs[0], originalWidth: reply.originalWidth,
                                    originalHeight: reply.originalHeight)
        if pixbufs.count > 1 {
            decoded.frames = zip(pixbufs, reply.frameDelays).map { AnimationFrame(pixbuf: $0, delay: $1) }
        }
        return .success(decoded)
    }

    /// Kills the helper and returns `failure`.
    public func kill(_ failure: DecoderFailure) -> DecoderFailure {
        stop()
        return failure
    }

    /// Waits for a helper that closed its socket to end, and says how.
    private func reap() -> DecoderFailure {
        guard ended.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else {
            return .died(signal: 0)
        }
        var code: Int32 = 0
        let signal = gv_reap(pid, &code)
        // bubblewrap exits with 128 + the signal that ended the helper inside it.
        return .died(signal: signal > 0 ? signal : code > 128 && code < 160 ? code - 128 : 0)
    }

    /// Ends the helper (SIGKILL) and reaps it; nothing when it already ended.
    public func stop() {
        guard ended.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
        Glibc.kill(pid, SIGKILL)
        var code: Int32 = 0
        _ = gv_reap(pid, &code)
    }
}

/// The helper's memfd mapped read-only, shared by the pixbufs of its frames: unmapped when the last is finalized.
private final class PixelMapping {
    let address: UnsafeMutableRawPointer
    let length: Int

    init(_ address: UnsafeMutableRawPointer, length: Int) {
        self.address = address
        self.length = length
    }

    deinit { munmap(address, length) }
}

/// A pixbuf's destroy notify: `data` is its retained `PixelMapping`.
private let releaseMapping: GdkPixbufDestroyNotify = { _, mapping in
    guard let mapping else { return }
    Unmanaged<PixelMapping>.fromOpaque(mapping).release()
}

extension GLibError {
    /// `message`, with errno's description.
    static func errno(_ message: String) -> GLibError {
        let code = Glibc.errno
        return GLibError(domain: g_file_error_quark(), code: Int32(g_file_error_from_errno(code).rawValue),
                         message: "\(message): \(String(cString: strerror(code)))")
    }
}
