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

    /// Each read's callback keeps the reader alive until the next read is issued or the body is complete.
    private func readNext() {
        body.read(maxBytes: chunkBytes, cancellable: cancellable) { result in
            switch result {
            case .failure(let error):
                self.finish(.failure(.http(error)))
            case .success(let chunk) where chunk.count == 0:
                if let expected = self.expectedLength, expected != self.received {
                    return self.finish(.failure(.http(.connectionClosedEarly)))
                }
                self.finish(.success(self.received))
            case .success(let chunk):
                self.received += chunk.count
                guard self.alreadyStored + self.received <= self.limit else {
                    return self.finish(.failure(.http(.tooLarge(limitBytes: self.limit))))
                }
                self.sink?.write(chunk) { failure in
                    if let failure { return self.finish(.failure(failure)) }
                    self.progress?(self.received)
                    self.readNext()
                }
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
