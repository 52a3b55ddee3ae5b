import GObjectBindings

/// Writes one small file of the app's (readable by the user only, replaced atomically through GIO's
/// asynchronous calls), one write at a time: saves that come faster than the disk are coalesced, and the
/// newest wins. Contents that take a while to make (JSON) are made on a GTask worker.
@MainActor
final class CoalescingFileWriter {
    let path: String
    /// Called after each write with its error, if any (tests).
    var onSaved: (@MainActor (GLibError?) -> Void)?

    private enum Contents {
        case ready(Bytes)
        /// Made on a worker; nil: nothing to write.
        case encode(@Sendable () -> Bytes?)
    }

    private var saving = false
    private var pending: Contents?
    /// Bumped by `discard`, so that a write already under way does not leave the file behind.
    private var generation = 0

    init(path: String) { self.path = path }

    /// A write under way or waiting.
    var isWriting: Bool { saving || pending != nil }

    func save(_ bytes: Bytes) {
        pending = .ready(bytes)
        writePending()
    }

    func save(encodingOnAWorker encode: @escaping @Sendable () -> Bytes?) {
        pending = .encode(encode)
        writePending()
    }

    /// Drops the save waiting, and deletes what a write under way leaves (the caller deletes the file).
    func discard() {
        generation += 1
        pending = nil
    }

    private func writePending() {
        guard !saving, let contents = pending else { return }
        pending = nil
        saving = true
        let generation = generation
        switch contents {
        case .ready(let bytes):
            write(bytes, generation: generation)
        case .encode(let encode):
            WorkerTask.run(encode, completion: { [weak self] bytes in
                guard let self else { return }
                guard let bytes, generation == self.generation else { return self.finish(nil) }
                self.write(bytes, generation: generation)
            })
        }
    }

    private func write(_ bytes: Bytes, generation: Int) {
        File(path: path).replaceContents(bytes, private: true) { [weak self] error in
            guard let self else { return }
            // Discarded while this was being written: remove the file written after all.
            if generation != self.generation { File(path: self.path).delete { _ in } }
            self.finish(error)
        }
    }

    private func finish(_ error: GLibError?) {
        saving = false
        onSaved?(error)
        writePending()
    }
}
