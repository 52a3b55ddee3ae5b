import CGLib
import Collections
import GObjectBindings
#if canImport(Glibc)
import Glibc
#endif

/// The decoder helpers of one `ImageDecoder`: about one per core, started when needed, reused across images,
/// replaced when one dies.
///
/// Helpers are started on the main loop (a helper's parent-death signal follows the thread that started it,
/// and GTask's workers come and go); each decode then runs on a GTask worker that blocks on its helper's
/// socket, one worker per busy helper, so the main loop never waits for a helper. A helper that dies is that
/// image's failure, retried once on a new helper; starts are rate-bounded so that a gallery of images that
/// each crash their decoder cannot fork without end.
@MainActor
final class DecoderPool {
    let sandbox: DecoderSandbox
    let size: Int
    private var idle: [Helper] = []
    /// Helpers decoding now, by identity.
    private var lent: [ObjectIdentifier: Helper] = [:]
    var busy: Int { lent.count }
    /// When recent helpers were started (monotonic µs), for the rate bound.
    private var starts = Deque<Int>()
    private var reopening: MainLoopSource?
    /// Runs when a helper may be had again after the rate bound held starts back.
    var onAvailable: (@MainActor () -> Void)?
    /// Whether bubblewrap still gets used: false once a helper could not start inside it.
    private(set) var namespaces: Bool
    /// What the last helper to greet said it runs under.
    private(set) var protections: DecodeReply.Protections?

    /// Every helper start so far (monotonic µs), for tests of the rate bound.
    private(set) var startLog: [Int] = []

    init(sandbox: DecoderSandbox, size: Int = DecoderPool.defaultSize) {
        self.sandbox = sandbox
        self.size = max(1, size)
        namespaces = sandbox.bubblewrapPath != nil
    }

    static var defaultSize: Int { max(1, Int(g_get_num_processors())) }

    /// Whether a decode can start now: a helper is idle, or one may be started. When the rate bound is what
    /// holds it back, `onAvailable` runs once the window has moved on.
    var canStart: Bool {
        guard busy < size else { return false }
        if !idle.isEmpty || mayStartHelper { return true }
        scheduleReopening()
        return false
    }

    private var mayStartHelper: Bool {
        let now = MonotonicClock.microseconds
        while let first = starts.first, now - first > sandbox.startWindowMicroseconds { starts.removeFirst() }
        return starts.count < sandbox.maxStartsPerWindow
    }

    /// One helper that decodes, and whether it has greeted (its first use waits for that, on the worker).
    final class Helper: @unchecked Sendable {
        let process: DecoderProcess
        let namespaces: Bool
        var greeted = false
        init(process: DecoderProcess, namespaces: Bool) { (self.process, self.namespaces) = (process, namespaces) }
    }

    /// Decodes `request` on a helper; `completion` runs on the main loop. `makeBytes` runs on the worker.
    /// Call only when `canStart`.
    func decode(_ request: DecodeRequest, bytes makeBytes: @escaping @Sendable () -> Bytes,
                retried: Bool = false, completion: @escaping @MainActor (Result<DecodedPixbuf, DecoderFailure>) -> Void) {
        let helper: Helper
        switch take() {
        case .success(let taken): helper = taken
        case .failure(let failure): return completion(.failure(failure))
        }
        lent[ObjectIdentifier(helper)] = helper
        let timeout = sandbox.decodeTimeoutMilliseconds
        WorkerTask.run({ () -> (Result<DecodedPixbuf, DecoderFailure>, DecodeReply.Protections?) in
            var greeting: DecodeReply.Protections?
            if !helper.greeted {
                switch helper.process.awaitReady(timeoutMilliseconds: timeout) {
                case .success(let protections): greeting = protections
                case .failure(let failure): return (.failure(failure), nil)
                }
            }
            return (helper.process.decode(makeBytes(), request, timeoutMilliseconds: timeout), greeting)
        }, completion: { [weak self] result, greeting in
            guard let self else { return completion(result) }
            self.lent[ObjectIdentifier(helper)] = nil
            if let greeting {
                helper.greeted = true
                self.protections = greeting
            }
            let failure: DecoderFailure? = if case .failure(let failure) = result { failure } else { nil }
            switch failure {
            case .died, .timedOut, .protocolViolation: helper.process.stop()
            default: self.idle.append(helper)
            }
            if case .died(signal: 0) = failure, !helper.greeted, helper.namespaces {
                // It could not set itself up inside bubblewrap (no user namespaces here): helpers run without
                // it from now on, with their own limits and filter; not the image's fault, so not its retry.
                self.namespacesFailed()
                return self.decode(request, bytes: makeBytes, retried: retried, completion: completion)
            }
            if case .died = failure, !retried, self.canStart {
                return self.decode(request, bytes: makeBytes, retried: true, completion: completion)
            }
            completion(result)
            self.onAvailable?()
        })
    }

    private func take() -> Result<Helper, DecoderFailure> {
        if let helper = idle.popLast() { return .success(helper) }
        guard mayStartHelper else {
            scheduleReopening()
            return .failure(.died(signal: 0))
        }
        guard let command = sandbox.command(namespaces: namespaces) else {
            return .failure(.failed(tr("the image decoder (gallery-decoder) is not installed")))
        }
        starts.append(MonotonicClock.microseconds)
        startLog.append(MonotonicClock.microseconds)
        switch DecoderProcess.spawn(command) {
        case .success(let process): return .success(Helper(process: process, namespaces: namespaces))
        case .failure(let error): return .failure(.failed(error.message))
        }
    }

    private func namespacesFailed() {
        guard namespaces else { return }
        namespaces = false
        idle.removeAll { $0.namespaces }
        guard !Self.saidNamespacesOff else { return }
        Self.saidNamespacesOff = true
        let note = tr("Images are decoded without the namespace sandbox: bubblewrap cannot create namespaces here. The decoders still run as separate processes with their memory limit and system-call filter.")
        let line = Array("gallery-viewer: \(note)\n".utf8)
        _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }

    /// Said once a process, whichever pool found out first.
    private static var saidNamespacesOff = false

    /// Calls `onAvailable` once the oldest start leaves the rate window.
    private func scheduleReopening() {
        guard reopening == nil, let first = starts.first else { return }
        let wait = max(1, (first + sandbox.startWindowMicroseconds - MonotonicClock.microseconds) / 1000 + 1)
        reopening = MainLoopSource.after(milliseconds: UInt32(wait)) { [weak self] in
            self?.reopening = nil
            self?.onAvailable?()
        }
    }

    var processIDs: [Int32] { (idle + lent.values).map(\.process.pid) }

    /// Ends every idle helper (busy ones end when their decode does and the pool is gone).
    func stopIdle() {
        idle.forEach { $0.process.stop() }
        idle.removeAll()
    }
}
