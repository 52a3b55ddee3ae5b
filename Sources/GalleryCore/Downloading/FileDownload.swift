import GObjectBindings

/// Saves one image at full size, byte for byte, into a folder: the body is streamed to a hidden partial
/// file (".NAME.part") through GIO's async output stream, one chunk in memory at a time, and renamed to
/// NAME only once it is complete. A partial file left by an earlier run is resumed with a Range request,
/// and kept only if the server really answers with the rest of that file (206 and a matching
/// Content-Range); anything else starts the file over.
///
/// The same checks as the window's image loader: 2xx, a Content-Type that may be an image, the size limit
/// (declared and as bytes arrive), and an HTML page is refused even when it claims to be an image.
@MainActor
public final class FileDownload {
    public enum Outcome: Equatable, Sendable {
        case saved(resumed: Bool)
        case failed(String)
        case cancelled
    }

    public let url: String
    public let name: String
    private let client: HTTPClient
    private let maxBytes: Int
    private let finalFile: File
    private let partialFile: File
    private let cancellable = Cancellable()
    private let readChunkBytes = 256 * 1024

    /// Bytes in the partial file when this download started (0: none or empty).
    private var resumeOffset: Int
    private var hasPartialFile: Bool
    private var body: HTTPBody?
    private var output: FileOutputStream?
    /// Bytes in the partial file now.
    private var written = 0
    private var expectedTotal: Int?
    private var resumed = false
    private var onHead: (@MainActor (_ expectedBytes: Int?, _ alreadySaved: Int) -> Void)?
    private var onBytes: (@MainActor (Int) -> Void)?
    private var completion: (@MainActor (Outcome) -> Void)?

    /// `partialFileBytes`: size of NAME's partial file found in `directory`, nil when there is none.
    public init(url: String, directory: String, name: String, partialFileBytes: Int?, client: HTTPClient,
                maxBytes: Int) {
        self.url = url
        self.name = name
        self.client = client
        self.maxBytes = maxBytes
        finalFile = File(path: directory + "/" + name)
        partialFile = File(path: directory + "/" + DownloadNames.partialName(of: name))
        hasPartialFile = partialFileBytes != nil
        resumeOffset = partialFileBytes ?? 0
    }

    /// `onHead` runs when the response headers were accepted (the file's full size if known, and the bytes
    /// kept from an earlier run), `onBytes` for every chunk received; `completion` once, also after `cancel`.
    public func start(onHead: @escaping @MainActor (_ expectedBytes: Int?, _ alreadySaved: Int) -> Void,
                      onBytes: @escaping @MainActor (Int) -> Void,
                      completion: @escaping @MainActor (Outcome) -> Void) {
        self.onHead = onHead
        self.onBytes = onBytes
        self.completion = completion
        request(from: resumeOffset)
    }

    /// Stops the transfer; the partial file is closed and kept for the next run. Completes with `.cancelled`.
    public func cancel() { cancellable.cancel() }

    // MARK: Request and response

    private func request(from offset: Int) {
        var headers = ["Accept": "image/*", "Accept-Encoding": "identity"]
        if offset > 0 { headers["Range"] = "bytes=\(offset)-" }
        client.open(HTTPRequest(url: url, headers: headers, maxBodyBytes: maxBytes), cancellable: cancellable) {
            [weak self] result in
            guard let self else { return }
            switch result {
            case .failure(let error): self.finish(error == .cancelled ? .cancelled : .failed(error.message))
            case .success(let response): self.handle(response, requestedFrom: offset)
            }
        }
    }

    private func handle(_ response: HTTPStreamingResponse, requestedFrom offset: Int) {
        body = response.body
        let head = response.head
        let range = head.headers["content-range"].flatMap(ContentRange.init)
        if offset > 0, head.status == 416 {
            // Nothing after the partial file: it is already the whole image (the last run stopped just
            // before the rename), unless the image is now shorter than what we have.
            guard case .unsatisfied(let complete) = range, complete == offset else {
                return restart(requestAgain: true)
            }
            closeBody()
            written = offset
            resumed = true
            return saveCompleteFile()
        }
        // Every other answer is checked once, here: the whole image, or the rest of it.
        if let rejection = ImageLoader.validateImageResponse(head) { return fail(rejection.message) }
        switch head.status {
        case 206 where offset > 0:
            let encoded = head.headers["content-encoding"].map { $0.lowercased() != "identity" } ?? false
            guard !encoded, let range, range.continues(from: offset),
                  case .bytes(let first, let last, _) = range,
                  head.contentLength.map({ $0 == last - first + 1 }) ?? true else {
                // Not the rest of our file: throw the partial file away and ask for the whole image.
                return restart(requestAgain: true)
            }
            resumed = true
            accept(head, offset: offset, length: last - first + 1)
        case 206:
            fail(tr("The server sent part of the image without being asked"))
        case _ where offset > 0:
            // The server ignored the range and sends the whole image: use it, from the start.
            restart(requestAgain: false) { [weak self] in self?.accept(head, offset: 0, length: head.contentLength) }
        default:
            accept(head, offset: 0, length: head.contentLength)
        }
    }

    /// The response (checked by `handle`) is the image from `offset` on, `length` bytes if declared.
    private func accept(_ head: HTTPResponseHead, offset: Int, length: Int?) {
        expectedTotal = length.map { offset + $0 }
        if let expectedTotal, expectedTotal > maxBytes {
            return fail(HTTPError.tooLarge(limitBytes: maxBytes).message, discardPartial: true)
        }
        written = offset
        onHead?(expectedTotal, offset)
        guard offset > 0 else {
            // The file is created once the first bytes passed the checks; an empty partial file left by a run
            // stopped before its first write would be in the way.
            if hasPartialFile { return restart(requestAgain: false) { [weak self] in self?.readNext() } }
            return readNext()
        }
        FileOutputStream.open(partialFile, mode: .append, cancellable: cancellable) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let stream):
                self.output = stream
                self.readNext()
            case .failure(let error):
                self.fail(error.isCancelled ? nil : Self.couldNotWrite(self.name + ".part", error))
            }
        }
    }

    /// Deletes the partial file, then asks for the whole image (`requestAgain`) or goes on with `then`.
    private func restart(requestAgain: Bool, then: (@MainActor () -> Void)? = nil) {
        if requestAgain { closeBody() }
        resumeOffset = 0
        let proceed: @MainActor () -> Void = { [weak self] in
            guard let self else { return }
            if self.cancellable.isCancelled { return self.finish(.cancelled) }
            self.hasPartialFile = false
            if requestAgain { self.request(from: 0) } else { then?() }
        }
        guard hasPartialFile else { return proceed() }
        partialFile.delete { [weak self] result in
            guard let self else { return }
            if case .failure(let error) = result {
                return self.fail(tr("Could not replace {file}: {reason}", ["file": self.name + ".part", "reason": error.message]))
            }
            proceed()
        }
    }

    // MARK: Body → file

    private func readNext() {
        guard let body else { return }
        body.read(maxBytes: readChunkBytes, cancellable: cancellable) { [weak self] result in
            guard let self else { return }
            switch result {
            case .failure(let error):
                self.fail(error == .cancelled ? nil : error.message)
            case .success(let chunk) where chunk.count == 0:
                self.closeBody()
                if let expected = self.expectedTotal, expected != self.written {
                    return self.fail(HTTPError.connectionClosedEarly.message)
                }
                self.saveCompleteFile()
            case .success(let chunk):
                self.received(chunk)
            }
        }
    }

    private func received(_ chunk: Bytes) {
        guard written + chunk.count <= maxBytes else {
            return fail(HTTPError.tooLarge(limitBytes: maxBytes).message, discardPartial: true)
        }
        if let output { return write(chunk, to: output) }
        // The first bytes of a new file: an HTML error page is not saved under an image's name.
        if Self.looksLikeHTML(chunk) { return fail(HTTPError.notAnImage(mediaType: "text/html").message) }
        FileOutputStream.open(partialFile, mode: .create, cancellable: cancellable) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let stream):
                self.output = stream
                self.hasPartialFile = true
                self.write(chunk, to: stream)
            case .failure(let error):
                self.fail(error.isCancelled ? nil : tr("Could not create {file}: {reason}",
                                                       ["file": DownloadNames.partialName(of: self.name), "reason": error.message]))
            }
        }
    }

    private func write(_ chunk: Bytes, to output: FileOutputStream) {
        output.write(chunk, cancellable: cancellable) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success:
                self.written += chunk.count
                self.onBytes?(chunk.count)
                self.readNext()
            case .failure(let error):
                self.fail(error.isCancelled ? nil : Self.couldNotWrite(self.name, error))
            }
        }
    }

    /// The partial file holds the whole image: close it and give it its final name.
    private func saveCompleteFile() {
        closeOutput { [weak self] closeError in
            guard let self else { return }
            if let closeError { return self.finish(.failed(Self.couldNotWrite(self.name, closeError))) }
            guard self.hasPartialFile else {
                return self.finish(.failed(tr("The server sent an empty file")))
            }
            self.partialFile.move(to: self.finalFile) { [weak self] result in
                guard let self else { return }
                switch result {
                case .success: self.finish(.saved(resumed: self.resumed))
                case .failure(let error):
                    self.finish(.failed(tr("Could not rename {file}: {reason}", ["file": self.name, "reason": error.message])))
                }
            }
        }
    }

    // MARK: Ending

    /// `reason` nil: cancelled. The partial file is kept for a resume unless it can never become the image.
    private func fail(_ reason: String?, discardPartial: Bool = false) {
        closeBody()
        closeOutput { [weak self] _ in
            guard let self else { return }
            let outcome: Outcome = reason.map { .failed($0) } ?? .cancelled
            guard discardPartial, self.hasPartialFile else { return self.finish(outcome) }
            self.partialFile.delete { [weak self] _ in self?.finish(outcome) }
        }
    }

    private func finish(_ outcome: Outcome) {
        closeBody()
        guard let completion else { return }
        self.completion = nil
        onHead = nil
        onBytes = nil
        completion(outcome)
    }

    private func closeBody() {
        body?.close()
        body = nil
    }

    private func closeOutput(_ then: @escaping @MainActor (GLibError?) -> Void) {
        guard let output else { return then(nil) }
        self.output = nil
        output.close { result in
            if case .failure(let error) = result { return then(error) }
            then(nil)
        }
    }

    private static func couldNotWrite(_ file: String, _ error: GLibError) -> String {
        // TRANSLATORS: {file} is a file name, {reason} the system's explanation (such as "No space left on device").
        tr("Could not write {file}: {reason}", ["file": file, "reason": error.message])
    }

    /// An HTML document (an error or login page) where an image was expected, from its first bytes.
    static func looksLikeHTML(_ chunk: Bytes) -> Bool {
        chunk.withUnsafeBytes { buffer in
            let start = buffer.prefix(1024).drop { [9, 10, 13, 32, 0xEF, 0xBB, 0xBF].contains($0) }
            let head = String(decoding: start.prefix(15), as: UTF8.self).lowercased()
            return head.hasPrefix("<!doctype html") || head.hasPrefix("<html")
        }
    }
}
