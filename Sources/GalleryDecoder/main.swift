// gallery-decoder: decodes images for Gallery Viewer in a process of its own, so that what a server's bytes make a
// loader do (allocate gigabytes, crash, loop) happens here and not in the app. Started by the app only, with its
// socket as fd 3 (see DecoderProtocol): it sets its limits, loads the loaders of its formats (every other gdk-pixbuf
// loader turned off), shuts itself in with seccomp, greets, then answers one request at a time until the socket
// closes.
//
//   gallery-decoder --memory-limit BYTES --cpu-limit SECONDS --formats png,jpeg,…
import CDecoderSandbox
import CGLib
import DecoderBindings
#if canImport(Glibc)
import Glibc
#endif

let socket: Int32 = 3

func option(_ name: String) -> String? {
    let arguments = CommandLine.arguments
    return arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
}

/// AddressSanitizer reserves terabytes of address space for its shadow memory: under it the address-space
/// limit is left off (the test builds only; the seccomp filter still applies).
var underAddressSanitizer: Bool { dlsym(nil, "__asan_init") != nil }

var protections = DecodeReply.Protections()
_ = gv_die_with_parent()
// Background work, like the app's GTask workers: the app's main loop must keep its core for input and frames.
_ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
let memoryLimit = option("--memory-limit").flatMap { UInt64($0) } ?? 0
let cpuLimit = option("--cpu-limit").flatMap { UInt($0) } ?? 0
if gv_limit_resources(underAddressSanitizer ? 0 : memoryLimit, cpuLimit) == 0 {
    if memoryLimit > 0 && !underAddressSanitizer { protections.insert(.memoryLimit) }
    if cpuLimit > 0 { protections.insert(.cpuLimit) }
}

// Everything that opens files happens before the filter: the loaders (shared libraries), and for SVG fontconfig's
// configuration and caches, which librsvg reads on the first SVG with text.
let formats = (option("--formats") ?? "png,jpeg,gif,webp,avif,bmp,svg").split(separator: ",").map(String.init)
_ = PixbufDecoding.loadLoaders(formats)
if formats.contains("svg") {
    _ = PixbufDecoding.decode(Bytes("<svg xmlns='http://www.w3.org/2000/svg' width='8' height='8'><text y='8'>a</text></svg>"),
                              loaderType: "svg", maxPixelSize: 8, cancellable: nil)
}
EmbeddedImages.install(formats: formats)
if gv_install_seccomp() == 0 { protections.insert(.seccomp) }

func send(_ reply: DecodeReply, fd: Int32 = -1) {
    let header = reply.encoded()
    let delays = reply.delayBytes
    guard gv_send_with_fd(socket, header, header.count, fd) == 0,
          delays.isEmpty || gv_write_all(socket, delays, delays.count) == 0,
          reply.messageBytes.isEmpty || gv_write_all(socket, reply.messageBytes, reply.messageBytes.count) == 0 else {
        exit(0)
    }
}

/// The pixels in a memfd, rows as the pixbuf has them; not sealed yet.
func pixelReply(_ decoded: DecodedPixbuf) -> (DecodeReply, Int32)? {
    let pointer = decoded.pixbuf.pointer
    guard gdk_pixbuf_get_bits_per_sample(pointer) == 8, gdk_pixbuf_get_colorspace(pointer) == GDK_COLORSPACE_RGB else { return nil }
    var reply = DecodeReply(status: .decoded)
    reply.width = decoded.pixbuf.width
    reply.height = decoded.pixbuf.height
    reply.rowStride = Int(gdk_pixbuf_get_rowstride(pointer))
    reply.hasAlpha = gdk_pixbuf_get_has_alpha(pointer) != 0
    reply.originalWidth = decoded.originalWidth
    reply.originalHeight = decoded.originalHeight
    reply.pixelBytes = reply.rowStride * reply.height
    let fd = gv_memfd_create("gallery-pixels", reply.pixelBytes)
    guard fd >= 0 else { return nil }
    // The last row of a pixbuf may stop at its last pixel; the memfd's zeros pad it to a whole stride.
    let length = Int(gdk_pixbuf_get_byte_length(pointer))
    guard gv_write_all_fd(fd, gdk_pixbuf_read_pixels(pointer), length) == 0 else {
        close(fd)
        return nil
    }
    return (reply, fd)
}

func gv_write_all_fd(_ fd: Int32, _ pixels: UnsafePointer<UInt8>, _ length: Int) -> Int32 {
    var written = 0
    while written < length {
        let count = write(fd, pixels + written, length - written)
        if count < 0 && errno == EINTR { continue }
        if count <= 0 { return -1 }
        written += count
    }
    return 0
}

/// The images that pass every limit when none is asked for.
let defaultMaxPixels = 100_000_000

func answer(_ request: DecodeRequest, _ bytes: Bytes) {
    let expected = request.expectedSize.map { (width: $0.width, height: $0.height) }
    // A vector image's own size costs nothing (it is rendered at the size asked for); what it embeds does.
    let isVector = request.loaderType == "svg"
    EmbeddedImages.begin(format: request.loaderType, maxPixels: request.maxPixels ?? defaultMaxPixels)
    let decoded = PixbufDecoding.decodeKeepingAnimation(
        bytes, loaderType: request.loaderType, maxPixelSize: request.maxPixelSize, expectedSize: expected,
        maxPixels: isVector ? nil : request.maxPixels, keepsAnimation: request.maxFrames > 0, cancellable: nil)
    switch EmbeddedImages.refusal {
    case .tooLarge(let width, let height):
        return answer(.failure(.refused(width: width, height: height)), request)
    case .format(let name):
        var reply = DecodeReply(status: .failed)
        reply.message = "it embeds an image in a format the app does not decode (\(name))"
        return send(reply)
    case nil: answer(decoded, request)
    }
}

func answer(_ decoded: Result<(image: DecodedPixbuf, animation: PixbufAnimation?), PixbufDecodingError>,
            _ request: DecodeRequest) {
    switch decoded {
    case .success(let (image, animation)):
        let pixels = request.maxFrames > 0
            ? AnimationFrames.reply(image, animation: animation, maxFrames: request.maxFrames,
                                    maxFrameBytes: request.maxFrameBytes)
            : pixelReply(image).flatMap { reply, fd in AnimationFrames.seal(reply, fd) }
        guard let (reply, fd) = pixels else { return send(DecodeReply(status: .outOfMemory)) }
        send(reply, fd: fd)
        close(fd)
    case .failure(.refused(let width, let height)):
        var reply = DecodeReply(status: .refused)
        reply.originalWidth = min(width, DecoderProtocol.maxSide)
        reply.originalHeight = min(height, DecoderProtocol.maxSide)
        send(reply)
    case .failure(.noLoader): send(DecodeReply(status: .noLoader))
    case .failure(.failed(let error))
        where error.matches(gdk_pixbuf_error_quark(), Int32(GDK_PIXBUF_ERROR_INSUFFICIENT_MEMORY.rawValue)):
        send(DecodeReply(status: .outOfMemory))
    case .failure(.failed(let error)):
        var reply = DecodeReply(status: .failed)
        reply.message = error.message
        send(reply)
    }
}

/// Seconds of CPU this process has used.
func cpuSeconds() -> Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return usage.ru_utime.tv_sec + usage.ru_stime.tv_sec
}

var ready = DecodeReply(status: .ready)
ready.protections = protections
send(ready)

while true {
    var header = [UInt8](repeating: 0, count: DecoderProtocol.requestSize)
    var stray: Int32 = -1
    guard gv_recv_with_fd(socket, &header, header.count, &stray, -1) == 0 else { exit(0) }
    if stray >= 0 { close(stray) }
    guard let request = DecodeRequest(decoding: header) else { exit(2) }
    let buffer = g_malloc(gsize(max(request.byteCount, 1)))
    guard gv_recv_with_fd(socket, buffer, request.byteCount, &stray, -1) == 0 else { exit(0) }
    if stray >= 0 { close(stray) }
    answer(request, Bytes(owning: g_bytes_new_take(buffer, gsize(request.byteCount))))
    // A helper that has used half its CPU allowance leaves before the limit can stop it mid-image; the app
    // starts another.
    if cpuLimit > 0 && cpuSeconds() * 2 > Int(cpuLimit) { exit(0) }
}
