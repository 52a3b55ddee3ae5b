import Collections
import GObjectBindings

/// Turns downloaded bytes into a pixbuf no larger than needed, on GTask worker threads, so decoding a 4000 px
/// photo never stalls the main loop — and refuses what would cost too much before any decoder sees it.
///
/// Each image goes through three steps, two on worker threads and a decision on the main loop between them:
/// 1. its header is read (`ImageHeader.probe`): the format from the bytes, the declared size, frames;
/// 2. an image over `ImageDecodeLimits` is refused as `.tooLarge`; the others wait until the memory their
///    decode needs (estimated from the header) fits beside the decodes already running;
/// 3. it is decoded by the loader of the format that was probed (never one gdk-pixbuf picks by sniffing), which
///    must report the same size in `size-prepared` or is stopped there (`ImageFormat.reportsDeclaredSize`).
/// Results are delivered on the main loop.
@MainActor
public final class ImageDecoder {
    public let limits: ImageDecodeLimits
    /// Estimated bytes of the decodes running now.
    public private(set) var bytesInUse = 0
    private var waiting = CancellableQueue<Pending> { $0.cancellable.isCancelled }

    public init(limits: ImageDecodeLimits = .init()) {
        self.limits = limits
    }

    public typealias Completion = @MainActor (Result<DecodedPixbuf, ImageLoadError>) -> Void

    /// Decodes `bytes` so the longer side is at most `maxPixelSize` (nil: original size). `completion` runs
    /// once on the main loop, with `.http(.cancelled)` when `cancellable` was cancelled first.
    public func decode(_ bytes: Bytes, maxPixelSize: Int?, cancellable: Cancellable,
                       completion: @escaping Completion) {
        WorkerTask.run(cancellable: cancellable, {
            bytes.withUnsafeBytes { ImageHeader.probe($0) }
        }, completion: { [weak self] probed in
            guard let self, !cancellable.isCancelled else { return completion(.failure(.http(.cancelled))) }
            switch probed {
            case .failure(.unsupported(let name)): completion(.failure(.unsupportedFormat(name)))
            case .failure(.unknown): completion(.failure(.decode(tr("not an image format the app knows"))))
            case .failure(.malformed(let detail)): completion(.failure(.decode(detail)))
            case .success(let header):
                guard header.fits(self.limits, maxPixelSize: maxPixelSize) else {
                    return completion(.failure(.tooLarge(width: header.width, height: header.height, frames: header.frames)))
                }
                let pending = Pending(bytes: bytes, header: header, maxPixelSize: maxPixelSize,
                                      cost: header.decodeBytes(maxPixelSize: maxPixelSize),
                                      cancellable: cancellable, completion: completion)
                self.waiting.append(pending)
                self.startWaiting()
            }
        })
    }

    private struct Pending {
        let bytes: Bytes
        let header: ImageHeader
        let maxPixelSize: Int?
        let cost: Int
        let cancellable: Cancellable
        let completion: Completion
    }

    /// Starts waiting decodes in arrival order while they fit; one always starts when nothing runs. Runs when
    /// one is queued and when one ends: cancelled ones leave the queue then, wherever they are in it.
    private func startWaiting() {
        for cancelled in waiting.removeCancelled() { cancelled.completion(.failure(.http(.cancelled))) }
        while let next = waiting.first, bytesInUse == 0 || bytesInUse + next.cost <= limits.concurrentDecodeBytes {
            run(waiting.removeFirst())
        }
    }

    private func run(_ pending: Pending) {
        bytesInUse += pending.cost
        let header = pending.header
        let isVector = header.format == .svg
        let bytes = pending.bytes
        let cancellable = pending.cancellable
        let maxPixelSize = isVector ? pending.maxPixelSize ?? ImageDecodeLimits.vectorPixelSize : pending.maxPixelSize
        let maxPixels = limits.maxPixels
        WorkerTask.run(cancellable: cancellable, {
            PixbufDecoding.decode(bytes, loaderType: header.format.loaderName, maxPixelSize: maxPixelSize,
                                  expectedSize: header.format.reportsDeclaredSize ? (header.width, header.height) : nil,
                                  maxPixels: isVector ? nil : maxPixels, cancellable: cancellable)
        }, completion: { [weak self] result in
            self?.bytesInUse -= pending.cost
            pending.completion(result.mapError { error in
                switch error {
                case .refused(let width, let height): .tooLarge(width: width, height: height, frames: 1)
                case .failed(let error) where error.isCancelled: .http(.cancelled)
                case .noLoader: .unsupportedFormat(header.format.displayName)
                case .failed(let error): .decode(error.message)
                }
            })
            self?.startWaiting()
        })
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
