import GObjectBindings
import GStreamerBindings

/// The bytes of one video or sound, read through the app's `HTTPClient` on the main loop and pushed into
/// GStreamer's `appsrc` as it asks for them: playback starts with the first chunk, a demuxer's seek to a part
/// not read yet becomes a Range request, and reading pauses while appsrc's bounded queue is full (the
/// connection is closed then, and a Range request resumes where it stopped), so memory does not grow with
/// the file's length.
///
/// Every request goes through the client like a picture's: its User-Agent, per-host cap, TLS policy, address
/// checks, throughput floor and size limit.
@MainActor
final class MediaStream {
    let url: String
    private let client: HTTPClient
    private let maxBytes: Int
    private let chunkBytes = 64 * 1024
    /// The file's size, once the first response said it.
    private(set) var size: Int?
    /// The next byte to hand to appsrc.
    private(set) var offset = 0
    /// Bytes of a 200 answer to a Range request still to be dropped (a server that ignores Range).
    private var skipping = 0
    private var body: HTTPBody?
    private var cancellable = Cancellable()
    private var opening = false
    private var reading = false
    private var finished = false
    /// Bytes appsrc refused for now (a seek on its way, or its queue not flushed yet), pushed at its next
    /// "need data" before anything more is read; `endPending`: so is the end of the stream.
    private var pending: Bytes?
    private var endPending = false
    private var source: AppSource?
    /// Range requests made so far (the first GET not counted): tests and diagnostics.
    private(set) var rangeRequests = 0
    /// Bytes pushed into appsrc in all.
    private(set) var bytesPushed = 0
    /// A request or a read failed: the player ends with this error (never called for a cancel).
    var onFailure: (@MainActor (HTTPError) -> Void)?

    init(url: String, client: HTTPClient, maxBytes: Int) {
        self.url = url
        self.client = client
        self.maxBytes = maxBytes
    }

    /// Sends the first request; `completion` gets its head (or why it failed) before any byte is pushed, so a
    /// 404 or an HTML page ends here and the size is known before GStreamer starts.
    func start(completion: @escaping @MainActor (Result<HTTPResponseHead, HTTPError>) -> Void) {
        open(at: 0, completion: completion)
    }

    /// Feeds `source` from now on.
    func attach(_ source: AppSource) {
        self.source = source
        source.onNeedData = { [weak self] in self?.demand() }
        source.onSeek = { [weak self] offset in self?.seek(to: offset) }
        demand()
    }

    /// Nothing is being read: appsrc's queue is full (or the file ended), and the connection is closed.
    var isIdle: Bool { body == nil && !opening }

    /// Stops every request; nothing is pushed after this.
    func cancel() {
        source?.detach()
        source = nil
        closeBody()
        onFailure = nil
    }

    private func closeBody() {
        cancellable.cancel()
        cancellable = Cancellable()
        body?.close()
        body = nil
        opening = false
        reading = false
    }

    /// appsrc wants bytes: what it refused first, then read on, or reopen where reading stopped.
    private func demand() {
        guard let source else { return }
        if endPending {
            endPending = !source.endOfStream()
            return
        }
        if let chunk = pending {
            guard source.push(chunk) else { return }
            pending = nil
            offset += chunk.count
            bytesPushed += chunk.count
        }
        guard !finished else { return }
        if body != nil {
            if !reading { readNext() }
        } else if !opening {
            open(at: offset, completion: nil)
        }
    }

    private func seek(to newOffset: Int) {
        // A seek to where reading stands (appsrc seeks to 0 as it starts) needs no new request: the open answer,
        // and a chunk kept for appsrc, go on from exactly there.
        if newOffset == offset, body != nil {
            finished = false
            endPending = false
            return
        }
        closeBody()
        offset = newOffset
        finished = false
        pending = nil
        endPending = false
        if let size, newOffset >= size {
            finished = true
            endPending = !(source?.endOfStream() ?? true)
            return
        }
        open(at: newOffset, completion: nil)
    }

    private func open(at start: Int, completion: (@MainActor (Result<HTTPResponseHead, HTTPError>) -> Void)?) {
        opening = true
        let cancellable = self.cancellable
        var headers: [String: String] = [:]
        if start > 0 {
            headers["Range"] = "bytes=\(start)-"
            rangeRequests += 1
        }
        // Only the whole file may come from (and go to) the disk cache: libsoup does not store partial answers.
        let request = HTTPRequest(url: url, headers: headers, maxBodyBytes: maxBytes, usesDiskCache: start == 0)
        client.open(request, cancellable: cancellable) { [weak self] result in
            guard let self, self.cancellable === cancellable else {
                if case .success(let response) = result { response.body.close() }
                return
            }
            self.opening = false
            switch result {
            case .failure(let error):
                completion?(.failure(error))
                if completion == nil { self.fail(error) }
            case .success(let response):
                if let error = self.accept(response.head, from: start) {
                    response.body.close()
                    completion?(.failure(error))
                    if completion == nil { self.fail(error) }
                    return
                }
                self.body = response.body
                completion?(.success(response.head))
                if self.source?.wantsData == true { self.readNext() }
            }
        }
    }

    /// Checks an answer for bytes from `start` on; nil when it is one, else why not.
    private func accept(_ head: HTTPResponseHead, from start: Int) -> HTTPError? {
        guard head.isSuccess else { return .status(head.status, head.reason) }
        if let length = head.contentLength, length > maxBytes { return .tooLarge(limitBytes: maxBytes) }
        if head.status == 206 {
            guard let range = head.headers["content-range"].flatMap(ContentRange.init), range.continues(from: start)
            else { return .network(tr("The server sent another part of the file than the one asked for")) }
            if case .bytes(_, _, let complete?) = range { size = size ?? complete }
            skipping = 0
        } else {
            if size == nil { size = head.contentLength }
            skipping = start
        }
        return nil
    }

    private func readNext() {
        guard let body, !reading else { return }
        reading = true
        let cancellable = self.cancellable
        body.read(maxBytes: chunkBytes, cancellable: cancellable) { [weak self] result in
            guard let self, self.cancellable === cancellable else { return }
            self.reading = false
            switch result {
            case .failure(let error):
                self.fail(error)
            case .success(let chunk):
                self.received(chunk)
            }
        }
    }

    private func received(_ chunk: Bytes) {
        guard chunk.count > 0 else {
            // The body ended: short of the size the server announced, the file was cut off.
            closeBody()
            if let size, offset < size { return fail(.connectionClosedEarly) }
            finished = true
            endPending = !(source?.endOfStream() ?? true)
            return
        }
        var chunk = chunk
        if skipping > 0 {
            let dropped = min(skipping, chunk.count)
            skipping -= dropped
            guard dropped < chunk.count else { return readNext() }
            chunk = Bytes(chunk.withUnsafeBytes { Array($0[dropped...]) })
        }
        guard let source else { return }
        guard source.push(chunk) else {
            // Kept, and reading stops until appsrc asks again (or a seek replaces all of it).
            pending = chunk
            return
        }
        offset += chunk.count
        bytesPushed += chunk.count
        if offset > maxBytes { return fail(.tooLarge(limitBytes: maxBytes)) }
        if source.wantsData {
            readNext()
        } else {
            // appsrc's queue is full: no connection is held open meanwhile (the throughput floor would end
            // it); the next need-data resumes with a Range request from `offset`.
            closeBody()
        }
    }

    private func fail(_ error: HTTPError) {
        guard error != .cancelled else { return }
        closeBody()
        onFailure?(error)
    }
}
