import GObjectBindings

/// Where `BodyReader` puts a body's chunks: memory (`MemorySink`, a fetch) or a file (`FileSink`, a save).
@MainActor
protocol BodySink: AnyObject {
    /// Stores one chunk and calls `done` once it is stored: nil to read on, or why the body must stop.
    func write(_ chunk: Bytes, done: @escaping @MainActor (ImageLoadError?) -> Void)
}

/// The one loop that reads a response body on the main loop, chunk by chunk, for every download the app makes:
/// the size limit is enforced as bytes arrive (Content-Length can be absent or lie, gzip can grow), every chunk
/// counts for the request's throughput floor (`HTTPBody`), the caller hears the bytes received after each
/// chunk is taken, and the next chunk is read only once the sink took the last one — so a download holds what
/// its sink holds (`FileSink`: a bounded batch) and one chunk more on its way to a file.
@MainActor
final class BodyReader {
    private let body: HTTPBody
    private let limit: Int
    private let alreadyStored: Int
    private let expectedLength: Int?
    private let chunkBytes: Int
    private let cancellable: Cancellable
    private var received = 0
    private var sink: (any BodySink)?
    private var completion: (@MainActor (Result<Int, ImageLoadError>) -> Void)?
    /// Bytes of this body received and stored so far, after every chunk.
    var progress: (@MainActor (_ received: Int) -> Void)?

    /// - Parameters:
    ///   - limit: the most the whole file may hold: `alreadyStored` (a resumed file's first part) and this body.
    ///   - expectedLength: the length this body must have; a shorter one was cut off. Only for a body read as
    ///     sent (identity encoding): libsoup already fails a short body, but not one it decodes.
    init(body: HTTPBody, limit: Int, alreadyStored: Int = 0, expectedLength: Int? = nil, chunkBytes: Int,
         cancellable: Cancellable) {
        self.body = body
        self.limit = limit
        self.alreadyStored = alreadyStored
        self.expectedLength = expectedLength
        self.chunkBytes = chunkBytes
        self.cancellable = cancellable
    }

    /// Reads to the end into `sink`; `completion` runs once with the bytes read, or why it stopped (a transport
    /// error, `.cancelled`, the limit, a cut-off body, the sink's reason). The body is closed either way.
    func read(into sink: any BodySink, completion: @escaping @MainActor (Result<Int, ImageLoadError>) -> Void) {
        self.sink = sink
        self.completion = completion
        readNext()
    }

    /// Reads the next chunks. A body from the network is read without waiting, as libsoup reads inside its own
    /// I/O loop: what has arrived is taken in a loop, and the main loop is asked to call back when more has (or
    /// after `bytesPerTurn`, so that other sources and frames come between); each chunk costs one read, not a
    /// GTask and a main-loop iteration. The disk cache's copy is read with `HTTPBody.read`. The pending callback
    /// (of the read or of the main loop) keeps the reader alive until the body is complete.
    private func readNext() {
        guard body.readsWithoutWaiting else { return readAsynchronously() }
        var taken = 0
        while taken < Self.bytesPerTurn {
            guard let result = body.readNow(maxBytes: chunkBytes, cancellable: cancellable) else { break }
            guard case .success(let chunk) = result, chunk.count > 0 else { return take(result) }
            taken += chunk.count
            // The sink calls back at once while it only holds the chunk, later when it writes (`FileSink`).
            let turn = Turn()
            take(result) {
                guard turn.returned else { return turn.storedAlready = true }
                self.readNext()
            }
            turn.returned = true
            guard turn.storedAlready, completion != nil else { return }
        }
        body.whenReadable(cancellable: cancellable) { self.readNext() }
    }

    /// Whether a chunk's sink answered before `take` returned (it only held the chunk: read on in the loop).
    @MainActor private final class Turn {
        var storedAlready = false
        var returned = false
    }

    /// What one dispatch reads at most before letting the main loop run its other sources (a window's frames):
    /// at loopback speed, a few milliseconds of work.
    private static let bytesPerTurn = 256 * 1024

    private func readAsynchronously() {
        body.read(maxBytes: chunkBytes, cancellable: cancellable) { result in
            self.take(result) { self.readAsynchronously() }
        }
    }

    /// Takes one read's result: the end, a failure, or a chunk for the sink; `readOn` runs once the sink stored it.
    private func take(_ result: Result<Bytes, HTTPError>, readOn: @escaping @MainActor () -> Void = {}) {
        switch result {
        case .failure(let error):
            finish(.failure(.http(error)))
        case .success(let chunk) where chunk.count == 0:
            if let expected = expectedLength, expected != received {
                return finish(.failure(.http(.connectionClosedEarly)))
            }
            finish(.success(received))
        case .success(let chunk):
            received += chunk.count
            guard alreadyStored + received <= limit else {
                return finish(.failure(.http(.tooLarge(limitBytes: limit))))
            }
            sink?.write(chunk) { failure in
                if let failure { return self.finish(.failure(failure)) }
                self.progress?(self.received)
                readOn()
            }
        }
    }

    private func finish(_ result: Result<Int, ImageLoadError>) {
        body.close()
        sink = nil
        progress = nil
        let completion = self.completion
        self.completion = nil
        completion?(result)
    }
}

/// Collects a body in memory (a fetch: an image to decode, a feed page to parse).
@MainActor
final class MemorySink: BodySink {
    private var chunks: [Bytes] = []

    func write(_ chunk: Bytes, done: @escaping @MainActor (ImageLoadError?) -> Void) {
        chunks.append(chunk)
        done(nil)
    }

    /// Everything written, as one buffer.
    func joined() -> Bytes { Bytes.joined(chunks) }
}
