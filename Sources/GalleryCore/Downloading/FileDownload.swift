import GObjectBindings

/// Saves one image at full size, byte for byte, into a folder — the work of `ImagePipeline.saveFile` once its
/// task holds a connection slot. The body is read by the same `BodyReader` as every download (size limit,
/// throughput floor, progress) into a `FileSink`: a hidden partial file (".NAME.part") written through GIO's
/// async output stream, one chunk in memory at a time, and renamed to NAME only once it is complete. A partial
/// file left by an earlier run is resumed with a Range request, and kept only if the server really answers with
/// the rest of that file (206 and a matching Content-Range); anything else starts the file over. Bytes a caller
/// already holds (`held`) are written the same way, without a request.
///
/// The same checks as the image downloads: 2xx, a Content-Type that may be an image, the size limit (declared
/// and as bytes arrive), and an HTML page is refused even when it claims to be an image.
@MainActor
final class FileDownload {
    private let url: String
    private let name: String
    private let client: HTTPClient
    private let maxBytes: Int
    private let usesDiskCache: Bool
    private let held: Bytes?
    private let renamesWhenComplete: Bool
    private let finalFile: File
    private let partialFile: File
    private let cancellable = Cancellable()
    private let readChunkBytes = 256 * 1024

    /// Bytes in the partial file when this download started (0: none or empty).
    private var resumeOffset: Int
    private var hasPartialFile: Bool
    private var body: HTTPBody?
    private var sink: FileSink?
    private var resumed = false
    private var progress: (@MainActor (LoadProgress) -> Void)?
    private var transferEnded: (@MainActor () -> Void)?
    private var completion: (@MainActor (Result<SavedFile, ImageLoadError>) -> Void)?

    init(url: String, destination: FileDestination, client: HTTPClient, maxBytes: Int, usesDiskCache: Bool,
         held: Bytes?) {
        self.url = url
        self.client = client
        self.maxBytes = maxBytes
        self.usesDiskCache = usesDiskCache
        self.held = held
        renamesWhenComplete = destination.renamesWhenComplete
        name = destination.name
        finalFile = File(path: destination.path)
        partialFile = File(path: destination.directory + "/" + DownloadNames.partialName(of: destination.name))
        hasPartialFile = destination.partialFileBytes != nil
        resumeOffset = destination.partialFileBytes ?? 0
    }

    /// `progress` hears this attempt's bytes once the response was accepted (0 first, with the length
    /// expected when declared) and after every chunk written; `transferEnded` that the network part is over
    /// (the file is still being closed and renamed); `completion` runs once, also after `cancel` (with
    /// `.http(.cancelled)`).
    func start(progress: @escaping @MainActor (LoadProgress) -> Void, transferEnded: @escaping @MainActor () -> Void,
               completion: @escaping @MainActor (Result<SavedFile, ImageLoadError>) -> Void) {
        self.progress = progress
        self.transferEnded = transferEnded
        self.completion = completion
        if let held { return writeHeld(held) }
        request(from: resumeOffset)
    }

    /// Stops the transfer; the partial file is closed and kept for the next run.
    func cancel() { cancellable.cancel() }

    // MARK: Request and response

    private func request(from offset: Int) {
        var headers = ["Accept": "image/*", "Accept-Encoding": "identity"]
        if offset > 0 { headers["Range"] = "bytes=\(offset)-" }
        let request = HTTPRequest(url: url, headers: headers, maxBodyBytes: maxBytes, usesDiskCache: usesDiskCache)
        client.open(request, cancellable: cancellable) { [weak self] result in
            guard let self else { return }
            switch result {
            case .failure(let error): self.finish(.failure(.http(error)))
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
            resumed = true
            return saveCompleteFile()
        }
        // Every other answer is checked once, here: the whole image, or the rest of it.
        if let rejection = ImagePipeline.validateImageResponse(head) { return fail(.http(rejection)) }
        let encoded = head.headers["content-encoding"].map { $0.lowercased() != "identity" } ?? false
        switch head.status {
        case 206 where offset > 0:
            guard !encoded, let range, range.continues(from: offset),
                  case .bytes(let first, let last, _) = range,
                  head.contentLength.map({ $0 == last - first + 1 }) ?? true else {
                // Not the rest of our file: throw the partial file away and ask for the whole image.
                return restart(requestAgain: true)
            }
            resumed = true
            accept(offset: offset, length: last - first + 1)
        case 206:
            fail(.file(tr("The server sent part of the image without being asked")))
        case _ where offset > 0:
            // The server ignored the range and sends the whole image: use it, from the start.
            restart(requestAgain: false) { [weak self] in self?.accept(offset: 0, length: encoded ? nil : head.contentLength) }
        default:
            accept(offset: 0, length: encoded ? nil : head.contentLength)
        }
    }

    /// The response (checked by `handle`) is the image from `offset` on, `length` bytes if declared.
    private func accept(offset: Int, length: Int?) {
        if let length, offset + length > maxBytes {
            return fail(.http(.tooLarge(limitBytes: maxBytes)), discardPartial: true)
        }
        progress?(LoadProgress(receivedBytes: 0, expectedBytes: length))
        // The file is created once the first bytes passed the checks; an empty partial file left by a run
        // stopped before its first write would be in the way.
        if offset == 0 && hasPartialFile {
            return restart(requestAgain: false) { [weak self] in self?.readBody(offset: 0, length: length) }
        }
        readBody(offset: offset, length: length)
    }

    /// Deletes the partial file, then asks for the whole image (`requestAgain`) or goes on with `then`.
    private func restart(requestAgain: Bool, then: (@MainActor () -> Void)? = nil) {
        if requestAgain { closeBody() }
        resumeOffset = 0
        let proceed: @MainActor () -> Void = { [weak self] in
            guard let self else { return }
            if self.cancellable.isCancelled { return self.finish(.failure(.http(.cancelled))) }
            self.hasPartialFile = false
            if requestAgain { self.request(from: 0) } else { then?() }
        }
        guard hasPartialFile else { return proceed() }
        partialFile.delete { [weak self] result in
            guard let self else { return }
            if case .failure(let error) = result {
                return self.fail(.file(tr("Could not replace {file}: {reason}",
                                          ["file": self.name + ".part", "reason": error.message])))
            }
            proceed()
        }
    }

    // MARK: Body → file

    private func readBody(offset: Int, length: Int?) {
        guard let body else { return }
        let sink = FileSink(file: partialFile, name: name, mode: offset > 0 ? .append : .create, cancellable: cancellable)
        self.sink = sink
        let reader = BodyReader(body: body, limit: maxBytes, alreadyStored: offset, expectedLength: length,
                                chunkBytes: readChunkBytes, cancellable: cancellable)
        reader.progress = { [weak self] received in self?.progress?(LoadProgress(receivedBytes: received, expectedBytes: length)) }
        reader.read(into: sink) { [weak self] result in
            guard let self else { return }
            self.body = nil
            self.transferEnded?()
            if sink.createdFile { self.hasPartialFile = true }
            switch result {
            case .success: self.saveCompleteFile()
            // Over the limit: the partial file can never become the image.
            case .failure(.http(.tooLarge(let limit))): self.fail(.http(.tooLarge(limitBytes: limit)), discardPartial: true)
            case .failure(let error): self.fail(error)
            }
        }
    }

    /// The bytes a caller holds, written as a download's would be (nothing to resume: any partial file goes).
    private func writeHeld(_ bytes: Bytes) {
        restart(requestAgain: false) { [weak self] in
            guard let self else { return }
            let sink = FileSink(file: self.partialFile, name: self.name, mode: .create, cancellable: self.cancellable)
            self.sink = sink
            self.progress?(LoadProgress(receivedBytes: 0, expectedBytes: bytes.count))
            sink.write(bytes) { [weak self] failure in
                guard let self else { return }
                if sink.createdFile { self.hasPartialFile = true }
                if let failure { return self.fail(failure) }
                self.progress?(LoadProgress(receivedBytes: bytes.count, expectedBytes: bytes.count))
                self.saveCompleteFile()
            }
        }
    }

    /// The partial file holds the whole image: close it and give it its final name (unless the caller does),
    /// both in one trip to a worker when this download wrote the file.
    private func saveCompleteFile() {
        let saved = SavedFile(resumed: resumed, fromHeldOriginal: held != nil)
        guard hasPartialFile, renamesWhenComplete else {
            return closeOutput { [weak self] closeError in
                guard let self else { return }
                if let closeError { return self.finish(.failure(.file(FileSink.couldNotWrite(self.name, closeError)))) }
                guard self.hasPartialFile else { return self.finish(.failure(.file(tr("The server sent an empty file")))) }
                self.finish(.success(saved))
            }
        }
        let renamed: @MainActor (GLibError?) -> Void = { [weak self] error in
            guard let self else { return }
            guard let error else { return self.finish(.success(saved)) }
            self.finish(.failure(.file(tr("Could not rename {file}: {reason}", ["file": self.name, "reason": error.message]))))
        }
        guard let sink else {
            return partialFile.move(to: finalFile) { result in
                if case .failure(let error) = result { renamed(error) } else { renamed(nil) }
            }
        }
        self.sink = nil
        sink.close(moving: partialFile, to: finalFile) { [weak self] result in
            switch result {
            case .success: renamed(nil)
            case .failure(.move(let error)): renamed(error)
            case .failure(.close(let error)):
                guard let self else { return }
                self.finish(.failure(.file(FileSink.couldNotWrite(self.name, error))))
            }
        }
    }

    // MARK: Ending

    /// The partial file is kept for a resume unless it can never become the image.
    private func fail(_ error: ImageLoadError, discardPartial: Bool = false) {
        closeBody()
        closeOutput { [weak self] _ in
            guard let self else { return }
            guard discardPartial, self.hasPartialFile else { return self.finish(.failure(error)) }
            self.partialFile.delete { [weak self] _ in self?.finish(.failure(error)) }
        }
    }

    private func finish(_ result: Result<SavedFile, ImageLoadError>) {
        closeBody()
        guard let completion else { return }
        self.completion = nil
        progress = nil
        transferEnded = nil
        completion(result)
    }

    private func closeBody() {
        body?.close()
        body = nil
    }

    private func closeOutput(_ then: @escaping @MainActor (GLibError?) -> Void) {
        guard let sink else { return then(nil) }
        self.sink = nil
        sink.close(then)
    }
}

/// Writes a body into a partial file, chunk by chunk through GIO's async output stream. A new file is created
/// by the first chunk — and refused if that chunk is an HTML page (an error or login page) rather than saved
/// under an image's name; a resumed one is appended to.
@MainActor
final class FileSink: BodySink {
    private let file: File
    private let name: String
    private let mode: FileOutputStream.Mode
    private let cancellable: Cancellable
    private var output: FileOutputStream?
    /// This sink created the file (so there is a partial file to keep or delete now).
    private(set) var createdFile = false

    init(file: File, name: String, mode: FileOutputStream.Mode, cancellable: Cancellable) {
        self.file = file
        self.name = name
        self.mode = mode
        self.cancellable = cancellable
    }

    func write(_ chunk: Bytes, done: @escaping @MainActor (ImageLoadError?) -> Void) {
        if let output { return write(chunk, to: output, done: done) }
        if mode == .create, Self.looksLikeHTML(chunk) { return done(.http(.notAnImage(mediaType: "text/html"))) }
        if mode == .create {
            // Created and written in one trip to a worker.
            return FileOutputStream.create(file, writing: chunk, cancellable: cancellable) { [weak self] result in
                guard let self else { return done(.http(.cancelled)) }
                switch result {
                case .success(let stream):
                    self.output = stream
                    self.createdFile = true
                    done(nil)
                case .failure(let error) where error.isCancelled:
                    done(.http(.cancelled))
                case .failure(let error):
                    done(.file(tr("Could not create {file}: {reason}",
                                  ["file": DownloadNames.partialName(of: self.name), "reason": error.message])))
                }
            }
        }
        FileOutputStream.open(file, mode: mode, cancellable: cancellable) { [weak self] result in
            guard let self else { return done(.http(.cancelled)) }
            switch result {
            case .success(let stream):
                self.output = stream
                if self.mode == .create { self.createdFile = true }
                self.write(chunk, to: stream, done: done)
            case .failure(let error) where error.isCancelled:
                done(.http(.cancelled))
            case .failure(let error) where self.mode == .create:
                done(.file(tr("Could not create {file}: {reason}",
                              ["file": DownloadNames.partialName(of: self.name), "reason": error.message])))
            case .failure(let error):
                done(.file(Self.couldNotWrite(self.name + ".part", error)))
            }
        }
    }

    private func write(_ chunk: Bytes, to output: FileOutputStream, done: @escaping @MainActor (ImageLoadError?) -> Void) {
        output.write(chunk, cancellable: cancellable) { [name] result in
            switch result {
            case .success: done(nil)
            case .failure(let error) where error.isCancelled: done(.http(.cancelled))
            case .failure(let error): done(.file(Self.couldNotWrite(name, error)))
            }
        }
    }

    /// Closes the file (it was opened: this sink wrote to it) and renames it to `destination`.
    func close(moving file: File, to destination: File,
               completion: @escaping @MainActor (Result<Void, FileOutputStream.CloseAndMoveError>) -> Void) {
        guard let output else { return file.move(to: destination) { completion($0.mapError { .move($0) }) } }
        self.output = nil
        output.close(moving: file, to: destination, completion: completion)
    }

    /// Closes the file, if it was opened; `then` hears a failure to write its last bytes.
    func close(_ then: @escaping @MainActor (GLibError?) -> Void) {
        guard let output else { return then(nil) }
        self.output = nil
        output.close { result in
            if case .failure(let error) = result { return then(error) }
            then(nil)
        }
    }

    static func couldNotWrite(_ file: String, _ error: GLibError) -> String {
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
