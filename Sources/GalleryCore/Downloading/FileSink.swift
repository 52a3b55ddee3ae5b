import GObjectBindings

/// Writes a body into a partial file, with GIO's calls on a GTask worker. Chunks are held until `flushBytes`
/// of them are (or `maxHeldChunks` chunks, or the body ended) and then written together, with one writev(2):
/// an image smaller than that — most are — is created, written, closed and renamed in one trip to a worker,
/// instead of a trip per chunk the network happened to deliver (on loopback, ~10 kB each). A new file is created by the first write — and refused if
/// the body starts as an HTML page (an error or login page) rather than saved under an image's name; a resumed
/// one is appended to. Closing writes what is held first, also when the download is being stopped: what was
/// received stays in the partial file for the next run to resume.
@MainActor
final class FileSink: BodySink {
    private let file: File
    private let name: String
    private let mode: FileOutputStream.Mode
    private let flushBytes: Int
    private let tag: String?
    private var output: FileOutputStream?
    private var held: [Bytes] = []
    private var heldBytes = 0
    /// This sink created the file (so there is a partial file to keep or delete now).
    private(set) var createdFile = false
    /// The file to append to was not the one listed, so nothing was written (`FileOutputStream.Mode.append`).
    private(set) var refusedPartialFile = false
    /// The file's first bytes (`SavedExtension.headBytes` at most): what it starts with, given by the caller
    /// for a file being appended to, then taken from the chunks written.
    private(set) var head: [UInt8]

    /// `tag`: stored with a file this sink creates, for a resume's `If-Range`.
    init(file: File, name: String, mode: FileOutputStream.Mode, flushBytes: Int, tag: String? = nil, head: [UInt8] = []) {
        self.file = file
        self.head = head
        self.name = name
        self.mode = mode
        self.flushBytes = flushBytes
        self.tag = tag
    }

    /// Bytes received and not yet written.
    var holdsBytes: Bool { heldBytes > 0 }
    /// Also written once this many chunks are held: a server that drips a byte a read would otherwise have a
    /// few hundred thousand of them held, each an object of its own.
    static let maxHeldChunks = 64

    func write(_ chunk: Bytes, done: @escaping @MainActor (ImageLoadError?) -> Void) {
        guard chunk.count > 0 else { return done(nil) }
        if output == nil, !createdFile, held.isEmpty, mode == .create, Self.looksLikeHTML(chunk) {
            return done(.http(.notAnImage(mediaType: "text/html")))
        }
        if head.count < SavedExtension.headBytes {
            chunk.withUnsafeBytes { head += $0.prefix(SavedExtension.headBytes - head.count) }
        }
        held.append(chunk)
        heldBytes += chunk.count
        guard heldBytes >= flushBytes || held.count >= Self.maxHeldChunks else { return done(nil) }
        // Not cancellable: these bytes were received, and a download being stopped keeps what it received
        // (writing a few hundred kilobytes to a local file is quick; the stop is seen at the next read).
        writeHeld(then: .keepOpen) { [weak self] failure in
            guard let self else { return done(.http(.cancelled)) }
            guard let failure else { return done(nil) }
            done(.file(self.message(for: failure)))
        }
    }

    /// Drops what is held: the download failed in a way that makes its bytes useless.
    func discardHeld() {
        held = []
        heldBytes = 0
    }

    /// Writes what is held, closes the file and renames it to `destination` (nil: leaves it as it is).
    func close(movingTo destination: File?, completion: @escaping @MainActor (FileOutputStream.StepError?) -> Void) {
        if output == nil, held.isEmpty {
            // Nothing written by this sink: the file, if there is one, is as an earlier run left it.
            guard let destination else { return completion(nil) }
            return file.move(to: destination) { result in
                if case .failure(let error) = result { return completion(.move(error)) }
                completion(nil)
            }
        }
        writeHeld(then: destination.map { .closeAndMove(to: $0) } ?? .close, completion: completion)
    }

    /// What went wrong in a step, as a row or `--download` says it.
    func message(for failure: FileOutputStream.StepError) -> String {
        switch failure {
        case .open(let error) where mode == .create:
            tr("Could not create {file}: {reason}", ["file": DownloadNames.partialName(of: name), "reason": error.message])
        case .open(let error): Self.couldNotWrite(name + ".part", error)
        case .write(let error), .close(let error): Self.couldNotWrite(name, error)
        case .move(let error): Self.couldNotRename(name, error)
        }
    }

    private func writeHeld(then ending: FileOutputStream.Ending,
                           completion: @escaping @MainActor (FileOutputStream.StepError?) -> Void) {
        let chunks = held
        discardHeld()
        let stream = output
        output = nil
        FileOutputStream.perform(on: stream, file: file, mode: mode, writing: chunks, tag: tag, then: ending) { [weak self] result in
            // Closing or renaming may fail after the file was written (perhaps not all of it): it is there then too.
            let fileIsThere = switch result {
            case .success, .failure(.close), .failure(.move): true
            case .failure(.open), .failure(.write): false
            }
            if fileIsThere, let self, self.mode == .create { self.createdFile = true }
            switch result {
            case .success(let stream):
                self?.output = stream
                completion(nil)
            case .failure(let failure):
                if case .open(let error) = failure, self?.mode != .create, FileOutputStream.isNotTheListedFile(error) {
                    self?.refusedPartialFile = true
                }
                completion(failure)
            }
        }
    }

    static func couldNotRename(_ file: String, _ error: GLibError) -> String {
        tr("Could not rename {file}: {reason}", ["file": file, "reason": error.message])
    }

    static func couldNotWrite(_ file: String, _ error: GLibError) -> String {
        // TRANSLATORS: {file} is a file name, {reason} the system's explanation (such as "No space left on device").
        tr("Could not write {file}: {reason}", ["file": file, "reason": error.message])
    }

    /// An HTML document (an error or login page) where an image was expected, from its first bytes.
    static func looksLikeHTML(_ chunk: Bytes) -> Bool {
        chunk.withUnsafeBytes { buffer in
            let start = buffer.prefix(1024).drop { [9, 10, 13, 32, 0xEF, 0xBB, 0xBF].contains($0) }
            // ASCII letters compared without their case: the markers are ASCII.
            let head = start.prefix(14).map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 32 : $0 }
            return head.starts(with: "<!doctype html".utf8) || head.starts(with: "<html".utf8)
        }
    }
}
