import Glibc
import GObjectBindings

/// Saves one image at full size, byte for byte, into a folder — the work of `ImagePipeline.saveFile` once its
/// task holds a connection slot. The body is read by the same `BodyReader` as every download (size limit,
/// throughput floor, progress) into a `FileSink`: a hidden partial file (".NAME.part") written by GIO on a
/// GTask worker, with at most `writeChunkBytes` and one read in memory at a time, and renamed to NAME only once
/// it is complete (with the extension of the format its first bytes are, when the destination
/// `correctsExtension`: `SavedExtension`). A partial file left by an earlier run is resumed with a Range
/// request (and `If-Range` with the validator stored with it, so an image that changed on the server comes
/// whole), and kept only if the server really answers with the rest of that file (206 and a matching
/// Content-Range) and the file is still the one listed (`FileOutputStream.Mode.append`: no symbolic link
/// followed); anything else starts the file over.
/// Bytes a caller already holds (`held`) are written the same way, without a request.
///
/// The same checks as the image downloads: 2xx, a Content-Type that may be an image, the size limit (declared
/// and as bytes arrive), and an HTML page is refused even when it claims to be an image.
@MainActor
final class FileDownload {
    private let url: String
    private let name: String
    private let client: HTTPClient
    private let maxBytes: Int
    /// A video or sound is saved: video/ and audio/ answers are accepted.
    private let acceptsMedia: Bool
    private let usesDiskCache: Bool
    private let held: Bytes?
    private let renamesWhenComplete: Bool
    private let directory: String
    private let correctsExtension: Bool
    /// The first bytes of the partial file being resumed (`SavedExtension`).
    private var head: [UInt8] = []
    private let partialFile: File
    private let cancellable = Cancellable()
    /// A read's most: under the threshold at which glibc gives a block a mapping of its own (256 KiB, fixed by
    /// `WorkerTask.returnLargeBlocksWhenFreed`). GIO allocates each read's buffer at the size asked and shrinks
    /// it to what came: a 256 KiB read paid a mapping, page faults and an unmap for every ~10 kB chunk.
    private let readChunkBytes = 64 * 1024
    /// The most a download holds in memory before writing it (`FileSink`).
    private let writeChunkBytes = 256 * 1024

    /// Bytes in the partial file when this download started (0: none or empty).
    private var resumeOffset: Int
    /// The validator stored with the partial file, sent as `If-Range`.
    private let resumeTag: String?
    private var hasPartialFile: Bool
    private var body: HTTPBody?
    private var sink: FileSink?
    private var resumed = false
    private var progress: (@MainActor (LoadProgress) -> Void)?
    private var transferEnded: (@MainActor () -> Void)?
    private var completion: (@MainActor (Result<SavedFile, ImageLoadError>) -> Void)?

    init(url: String, destination: FileDestination, client: HTTPClient, maxBytes: Int, usesDiskCache: Bool,
         held: Bytes?, acceptsMedia: Bool = false) {
        self.acceptsMedia = acceptsMedia
        self.url = url
        self.client = client
        self.maxBytes = maxBytes
        self.usesDiskCache = usesDiskCache
        self.held = held
        renamesWhenComplete = destination.renamesWhenComplete
        name = destination.name
        directory = destination.directory
        correctsExtension = destination.correctsExtension
        partialFile = File(path: destination.directory + "/" + DownloadNames.partialName(of: destination.name))
        hasPartialFile = destination.partialFileBytes != nil
        resumeOffset = destination.partialFileBytes ?? 0
        resumeTag = destination.partialFileTag.flatMap(Self.usableTag)
    }

    /// `progress` hears this attempt's bytes once the response was accepted (0 first, with the length
    /// expected when declared) and after every chunk the sink took; `transferEnded` that the network part is
    /// over (the file is still being closed and renamed); `completion` runs once, also after `cancel` (with
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
        if offset > 0 {
            headers["Range"] = "bytes=\(offset)-"
            if let resumeTag { headers["If-Range"] = resumeTag }
        }
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
            return readHead { [weak self] in self?.saveCompleteFile() }
        }
        // Every other answer is checked once, here: the whole image, or the rest of it.
        if let rejection = ImagePipeline.validateImageResponse(head, acceptsMedia: acceptsMedia) { return fail(.http(rejection)) }
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
            readHead { [weak self] in self?.accept(offset: offset, length: last - first + 1) }
        case 206:
            fail(.file(tr("The server sent part of the image without being asked")))
        case _ where offset > 0:
            // The server ignored the range and sends the whole image: use it, from the start.
            restart(requestAgain: false) { [weak self] in
                self?.accept(offset: 0, length: encoded ? nil : head.contentLength, tag: Self.resumeTag(of: head))
            }
        default:
            accept(offset: 0, length: encoded ? nil : head.contentLength, tag: Self.resumeTag(of: head))
        }
    }

    /// The longest validator stored with a partial file and sent back as `If-Range`.
    static let maxResumeTagBytes = 256

    /// What a resume of this response may send as `If-Range`: its strong ETag, else its Last-Modified.
    static func resumeTag(of head: HTTPResponseHead) -> String? {
        let etag = head.headers["etag"].flatMap { $0.hasPrefix("W/") ? nil : $0 }
        return (etag.flatMap(usableTag) ?? head.headers["last-modified"].flatMap(usableTag))
    }

    /// `tag` if it can go back in a header as it is: printable ASCII, not too long.
    private static func usableTag(_ tag: String) -> String? {
        let bytes = tag.utf8
        guard !bytes.isEmpty, bytes.count <= maxResumeTagBytes, bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
        return tag
    }

    /// The response (checked by `handle`) is the image from `offset` on, `length` bytes if declared.
    private func accept(offset: Int, length: Int?, tag: String? = nil) {
        if let length, offset + length > maxBytes {
            return fail(.http(.tooLarge(limitBytes: maxBytes)), discardPartial: true)
        }
        progress?(LoadProgress(receivedBytes: 0, expectedBytes: length))
        // The file is created once the first bytes passed the checks; an empty partial file left by a run
        // stopped before its first write would be in the way.
        if offset == 0 && hasPartialFile {
            return restart(requestAgain: false) { [weak self] in self?.readBody(offset: 0, length: length, tag: tag) }
        }
        readBody(offset: offset, length: length, tag: tag)
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

    private func readBody(offset: Int, length: Int?, tag: String?) {
        guard let body else { return }
        let sink = FileSink(file: partialFile, name: name, mode: offset > 0 ? .append(expectedBytes: offset) : .create,
                            flushBytes: writeChunkBytes, tag: tag, head: offset > 0 ? head : [])
        self.sink = sink
        let reader = BodyReader(body: body, limit: maxBytes, alreadyStored: offset, expectedLength: length,
                                chunkBytes: readChunkBytes, cancellable: cancellable)
        reader.progress = { [weak self] received in self?.progress?(LoadProgress(receivedBytes: received, expectedBytes: length)) }
        reader.read(into: sink) { [weak self] result in
            guard let self else { return }
            self.body = nil
            self.transferEnded?()
            if sink.createdFile { self.hasPartialFile = true }
            // Not the partial file listed (a symbolic link, another's file, changed): nothing was written to it.
            if sink.refusedPartialFile {
                self.sink = nil
                self.resumed = false
                return self.restart(requestAgain: true)
            }
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
            let sink = FileSink(file: self.partialFile, name: self.name, mode: .create, flushBytes: self.writeChunkBytes)
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

    /// Reads the first bytes of the partial file being resumed into `head`, on a worker, then goes on with
    /// `then` (with what could be read: a file that cannot be read now fails where it is appended to).
    private func readHead(then: @escaping @MainActor () -> Void) {
        let path = partialFile.path ?? ""
        WorkerTask.run({ Self.firstBytes(of: path) }, completion: { [weak self] bytes in
            guard let self else { return }
            self.head = bytes
            then()
        })
    }

    /// Up to `SavedExtension.headBytes` from the start of the file at `path`, never through a link.
    nonisolated static func firstBytes(of path: String) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return [] }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: SavedExtension.headBytes)
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        return Array(bytes.prefix(max(0, count)))
    }

    /// The whole image was received: what the sink holds is written, the file closed and given its final name
    /// (unless the caller does that), all in one trip to a worker.
    private func saveCompleteFile() {
        let sink = self.sink
        self.sink = nil
        let format = correctsExtension ? SavedExtension.format(of: sink?.head ?? head) : nil
        let savedName = SavedExtension.name(name, for: format)
        let saved = SavedFile(resumed: resumed, fromHeldOriginal: held != nil, name: savedName, format: format)
        guard hasPartialFile || sink?.holdsBytes == true else {
            return closeOutput(of: sink) { [weak self] _ in self?.finish(.failure(.file(tr("The server sent an empty file")))) }
        }
        let destination = renamesWhenComplete ? File(path: directory + "/" + savedName) : nil
        guard let sink else {
            // A partial file from an earlier run that was already the whole image.
            guard let destination else { return finish(.success(saved)) }
            return partialFile.move(to: destination) { [weak self] result in
                guard let self else { return }
                if case .failure(let error) = result {
                    return self.finish(.failure(.file(FileSink.couldNotRename(self.name, error))))
                }
                self.finish(.success(saved))
            }
        }
        sink.close(movingTo: destination) { [weak self] failure in
            guard let self else { return }
            if sink.createdFile { self.hasPartialFile = true }
            guard let failure else { return self.finish(.success(saved)) }
            self.finish(.failure(.file(sink.message(for: failure))))
        }
    }

    // MARK: Ending

    /// The partial file is kept for a resume unless it can never become the image.
    private func fail(_ error: ImageLoadError, discardPartial: Bool = false) {
        closeBody()
        if discardPartial { sink?.discardHeld() }
        let sink = self.sink
        self.sink = nil
        closeOutput(of: sink) { [weak self] _ in
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

    /// Writes what `sink` holds and closes its file; `then` hears whether that failed.
    private func closeOutput(of sink: FileSink?, _ then: @escaping @MainActor (FileOutputStream.StepError?) -> Void) {
        guard let sink else { return then(nil) }
        sink.close(movingTo: nil) { [weak self] failure in
            if sink.createdFile { self?.hasPartialFile = true }
            then(failure)
        }
    }
}
