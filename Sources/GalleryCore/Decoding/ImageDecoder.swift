import Collections
import GObjectBindings
#if canImport(Glibc)
import Glibc
#endif

/// Turns downloaded bytes into a pixbuf no larger than needed, in `gallery-decoder` helper processes, so decoding
/// a 4000 px photo never stalls the main loop and what a server's bytes make a loader do never reaches the app —
/// and refuses what would cost too much before any decoder sees it.
///
/// Each image goes through three steps, off the main loop but for a decision between them:
/// 1. its header is read on a GTask worker (`ImageHeader.probe`): the format from the bytes, the declared size,
///    frames;
/// 2. an image over `ImageDecodeLimits` is refused as `.tooLarge`; the others wait until the memory their
///    decode needs (estimated from the header) fits beside the decodes already running, and a helper is free;
/// 3. a helper (`DecoderPool`) decodes it with the loader of the format that was probed (never one gdk-pixbuf
///    picks by sniffing), which must report the same size in `size-prepared` or is stopped there
///    (`ImageFormat.reportsDeclaredSize`); an animation to play comes back as its frames, composited there.
/// Results are delivered on the main loop.
@MainActor
public final class ImageDecoder {
    public let limits: ImageDecodeLimits
    /// Estimated bytes of the decodes running now.
    public private(set) var bytesInUse = 0
    private var waiting = CancellableQueue<Pending> { $0.cancellable.isCancelled }
    /// The helper processes that decode (see `DecoderPool`): raster images in helpers that load only the raster
    /// loaders, SVG in helpers that load them all. librsvg, with Pango, Cairo and fontconfig's configuration
    /// (read before a helper shuts itself in), is most of a helper's start: measured 17 ms against 36 ms a
    /// start, and most galleries never show an SVG, so those helpers start at the first SVG only.
    let rasterPool: DecoderPool
    let vectorPool: DecoderPool
    private var pools: [DecoderPool] { [rasterPool, vectorPool] }
    /// Whether `whenNamespaceSandboxFails` has said so already (each pool finds it out on its own).
    private var namespacesFailed = false
    private var namespacesFailedListeners: [@MainActor (String) -> Void] = []

    public init(limits: ImageDecodeLimits = .init(), sandbox: DecoderSandbox = .init()) {
        self.limits = limits
        rasterPool = DecoderPool(sandbox: sandbox, formats: ImageFormat.allCases.filter { $0 != .svg })
        // An SVG's embedded images are decoded in its helper too: it needs every loader.
        vectorPool = DecoderPool(sandbox: sandbox, formats: ImageFormat.allCases)
        for pool in pools {
            pool.onAvailable = { [weak self] in self?.startWaiting() }
            pool.onNamespacesFailed = { [weak self] in self?.namespaceSandboxFailed() }
        }
    }

    isolated deinit { pools.forEach { $0.stopIdle() } }

    private func pool(for format: ImageFormat) -> DecoderPool { format == .svg ? vectorPool : rasterPool }

    /// Starts the raster decoder helpers ahead of the first image (the window's pipeline does at start).
    public func startHelpers() { rasterPool.warmUp() }

    /// The pids of the helpers decoding or idle now (tests stop one to see the app survive it).
    public var helperProcessIDs: [Int32] { pools.flatMap(\.processIDs) }
    /// When each helper was started (monotonic µs).
    public var helperStarts: [Int] { pools.flatMap(\.startLog).sorted() }

    /// Runs `body` once decoding goes on without the namespace sandbox because bubblewrap could not create
    /// namespaces here (at once when that is known already) with the note a person reads; never when
    /// bubblewrap works, nor when it is not there (not installed, or `GALLERY_DECODER_SANDBOX=no-namespaces`).
    public func whenNamespaceSandboxFails(_ body: @escaping @MainActor (String) -> Void) {
        if namespacesFailed { return body(DecoderPool.namespacesOffNote) }
        namespacesFailedListeners.append(body)
    }

    private func namespaceSandboxFailed() {
        guard !namespacesFailed else { return }
        namespacesFailed = true
        // The other pool need not find it out by a failed start of its own.
        pools.forEach { $0.stopUsingNamespaces() }
        for listener in namespacesFailedListeners { listener(DecoderPool.namespacesOffNote) }
        namespacesFailedListeners = []
    }

    /// What the helpers said they run under (the raster ones', once one greeted), and whether bubblewrap is in use.
    public var protections: (DecodeReply.Protections, namespaces: Bool)? {
        pools.lazy.compactMap { pool in pool.protections.map { ($0, pool.namespaces) } }.first
    }

    /// A decode's result: the image (an animation's first frame), and with `keepsAnimation` the animation.
    public struct Output: Sendable {
        public var image: DecodedPixbuf
        public var animation: ImageAnimation?
    }

    public typealias Completion = @MainActor (Result<Output, ImageLoadError>) -> Void

    /// Decodes `bytes` so the longer side is at most `maxPixelSize` (nil: original size). `completion` runs
    /// once on the main loop, with `.http(.cancelled)` when `cancellable` was cancelled first; `headerRead`,
    /// before it, once the header says what the file is (also when its size is then refused).
    ///
    /// An animation over the limits (its frames together, or more than `maxAnimationFrames` of them) is not
    /// refused while its first frame alone fits: that frame is decoded from the file cut after it, and the
    /// image says so (`DecodedPixbuf.isFirstFrameOnly`). With `keepsAnimation`, an animation that fits comes
    /// with its frames to play (`Output.animation`).
    public func decode(_ bytes: Bytes, maxPixelSize: Int?, keepsAnimation: Bool = false, cancellable: Cancellable,
                       headerRead: (@MainActor (ImageHeader) -> Void)? = nil, completion: @escaping Completion) {
        let maxFrames = limits.maxAnimationFrames
        WorkerTask.run(cancellable: cancellable, {
            bytes.withUnsafeBytes { buffer in
                ImageHeader.probe(buffer).map { header in
                    (header, header.frames > 1 ? AnimationLayout.read(buffer, format: header.format, maxFrames: maxFrames) : nil)
                }
            }
        }, completion: { [weak self] probed in
            guard let self, !cancellable.isCancelled else { return completion(.failure(.http(.cancelled))) }
            switch probed {
            case .failure(.unsupported(let name)): completion(.failure(.unsupportedFormat(name)))
            case .failure(.unknown): completion(.failure(.decode(tr("not an image format the app knows"))))
            case .failure(.malformed(let detail)): completion(.failure(.decode(detail)))
            case .success(let (header, layout)):
                headerRead?(header)
                var pending = Pending(bytes: bytes, header: header, layout: layout, maxPixelSize: maxPixelSize,
                                      cost: header.decodeBytes(maxPixelSize: maxPixelSize), firstFrameOnly: false,
                                      keepsAnimation: keepsAnimation && layout != nil,
                                      cancellable: cancellable, completion: completion)
                if !header.fits(self.limits, maxPixelSize: maxPixelSize) {
                    guard let layout, header.firstFrame(of: layout).fits(self.limits, maxPixelSize: maxPixelSize) else {
                        return completion(.failure(.tooLarge(width: header.width, height: header.height, frames: header.frames)))
                    }
                    pending.cost = header.firstFrame(of: layout).decodeBytes(maxPixelSize: maxPixelSize)
                    pending.firstFrameOnly = true
                    pending.keepsAnimation = false
                }
                if pending.keepsAnimation {
                    // The helper holds the composited frames too, up to the bytes one decode may use.
                    let target = header.targetSize(maxPixelSize: maxPixelSize)
                    let frames = target.width.multipliedReportingOverflow(by: target.height * 4 * header.frames)
                    pending.cost += frames.overflow ? self.limits.maxDecodeBytes : min(frames.partialValue, self.limits.maxDecodeBytes)
                }
                self.waiting.append(pending)
                self.startWaiting()
            }
        })
    }

    private struct Pending {
        let bytes: Bytes
        let header: ImageHeader
        let layout: AnimationLayout?
        let maxPixelSize: Int?
        var cost: Int
        /// The animation is over the limits: only its first frame is decoded.
        var firstFrameOnly: Bool
        var keepsAnimation: Bool
        let cancellable: Cancellable
        let completion: Completion
    }

    /// Starts waiting decodes in arrival order while they fit; one always starts when nothing runs. Runs when
    /// one is queued and when one ends: cancelled ones leave the queue then, wherever they are in it.
    private func startWaiting() {
        for cancelled in waiting.removeCancelled() { cancelled.completion(.failure(.http(.cancelled))) }
        while let next = waiting.first, bytesInUse == 0 || bytesInUse + next.cost <= limits.concurrentDecodeBytes,
              pool(for: next.header.format).canStart {
            run(waiting.removeFirst())
        }
    }

    private func run(_ pending: Pending) {
        bytesInUse += pending.cost
        let header = pending.header
        let isVector = header.format == .svg
        let bytes = pending.bytes
        let maxPixelSize = isVector ? pending.maxPixelSize ?? ImageDecodeLimits.vectorPixelSize : pending.maxPixelSize
        let firstFrame = pending.firstFrameOnly ? pending.layout : nil
        let expected = header.format.reportsDeclaredSize ? DecodeRequest.Size(width: header.width, height: header.height) : nil
        var request = DecodeRequest(loaderType: header.format.loaderName, maxPixelSize: maxPixelSize, expectedSize: expected,
                                    maxPixels: limits.maxPixels, byteCount: 0)
        if pending.keepsAnimation, let layout = pending.layout {
            // One play: the frames the file's delays list, or (none listed) as many as its header counts.
            request.maxFrames = min(layout.frameDelays.isEmpty ? header.frames : layout.frameDelays.count,
                                    limits.maxAnimationFrames)
            request.maxFrameBytes = limits.maxDecodeBytes
            if let side = Self.animationSide(header, maxPixelSize: maxPixelSize, frames: request.maxFrames,
                                             frameBytes: limits.maxDecodeBytes) {
                request.maxPixelSize = side
            }
        }
        pool(for: header.format).decode(request, bytes: {
            firstFrame.map { layout in Bytes(bytes.withUnsafeBytes { layout.firstFrameFile(of: $0, format: header.format) }) } ?? bytes
        }, completion: { [weak self] result in
            self?.finish(pending, result.mapError { $0.loadError(format: header.format) })
        })
    }

    /// The longer side an animation's frames are asked for at when all of them at the size asked for would
    /// not fit in `frameBytes` together (a GIF whose small frames change a large canvas: cheap to decode, each
    /// composited frame as large as the canvas): the largest that fits, so that it plays, smaller, rather than
    /// show still. Nil when they fit as asked, or would have to shrink below a quarter of the side asked for
    /// (then the first frame alone shows, at the size asked for).
    static func animationSide(_ header: ImageHeader, maxPixelSize: Int?, frames: Int, frameBytes: Int) -> Int? {
        // One pixel more each way than this side's size: the helper's scaling may round up where this one
        // rounds down.
        func bytes(_ size: (width: Int, height: Int)) -> Int {
            let (area, overflow) = (size.width + 1).multipliedReportingOverflow(by: (size.height + 1) * 4 * max(1, frames))
            return overflow ? Int.max : area
        }
        let asked = header.targetSize(maxPixelSize: maxPixelSize)
        let side = max(asked.width, asked.height)
        guard frames > 1, bytes(asked) > frameBytes else { return nil }
        // Area shrinks as the side squared: start from that estimate, then step down past rounding.
        var fitting = Int(Double(side) * (Double(frameBytes) / Double(bytes(asked))).squareRoot())
        while fitting > 0, bytes(header.targetSize(maxPixelSize: fitting)) > frameBytes { fitting -= 1 }
        return fitting * 4 >= side ? fitting : nil
    }

    private func finish(_ pending: Pending, _ result: Result<DecodedPixbuf, ImageLoadError>) {
        bytesInUse -= pending.cost
        let header = pending.header
        if pending.cancellable.isCancelled {
            pending.completion(.failure(.http(.cancelled)))
        } else {
            pending.completion(result.map { decoded in
                var image = decoded
                image.frames = []
                image.frameCount = header.frames
                let animation = pending.layout.flatMap { layout in
                    decoded.frames.count > 1 ? ImageAnimation(frames: decoded.frames, frameCount: header.frames, layout: layout) : nil
                }
                // Frames asked for that did not fit the bytes allowed together: the first frame alone shows.
                image.isFirstFrameOnly = pending.firstFrameOnly || (pending.keepsAnimation && animation == nil)
                return Output(image: image, animation: animation)
            })
        }
        startWaiting()
    }
}

extension DecoderFailure {
    /// The failure as the row shows it: a person's reason for what stopped the helper.
    func loadError(format: ImageFormat) -> ImageLoadError {
        switch self {
        case .refused(let width, let height): .tooLarge(width: width, height: height, frames: 1)
        case .noLoader: .unsupportedFormat(format.displayName)
        case .failed(let message): .decode(message)
        case .outOfMemory: .unsafe(reason: tr("it needs more memory than allowed"))
        case .timedOut, .died(signal: SIGXCPU): .unsafe(reason: tr("it takes longer to decode than allowed"))
        case .died(signal: SIGKILL): .unsafe(reason: tr("its decoder was stopped"))
        case .died(signal: 0): .unsafe(reason: tr("its decoder ended without an answer"))
        case .died: .unsafe(reason: tr("it crashed its decoder, or needs more memory than allowed"))
        case .protocolViolation: .unsafe(reason: tr("its decoder answered out of bounds"))
        }
    }
}

/// Work waiting its turn, in arrival order, whose cancelled entries can leave from anywhere in the queue: a
/// cancelled decode waiting behind a slow one would otherwise keep its compressed bytes (up to 50 MB) until it
/// reached the head.
struct CancellableQueue<Entry> {
    private var entries = Deque<Entry>()
    private let isCancelled: (Entry) -> Bool

    init(isCancelled: @escaping (Entry) -> Bool) { self.isCancelled = isCancelled }

    var count: Int { entries.count }
    var first: Entry? { entries.first }
    mutating func append(_ entry: Entry) { entries.append(entry) }
    mutating func removeFirst() -> Entry { entries.removeFirst() }

    /// Takes the cancelled entries out, the others keeping their order; telling their owners is the caller's.
    mutating func removeCancelled() -> [Entry] {
        guard entries.contains(where: isCancelled) else { return [] }
        var removed: [Entry] = []
        entries.removeAll { entry in
            guard isCancelled(entry) else { return false }
            removed.append(entry)
            return true
        }
        return removed
    }
}
