import CGLib
import Collections
import GObjectBindings
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Decoder helpers of one `ImageDecoder` for some formats: about one per core, started when needed, reused
/// across images, replaced when one dies.
///
/// Helpers are started on the main loop (a helper's parent-death signal follows the thread that started it,
/// and GTask's workers come and go); each decode then runs on a GTask worker that blocks on its helper's
/// socket, one worker per request in flight, so the main loop never waits for a helper. A helper that dies is that
/// image's failure, retried once on a new helper; starts are rate-bounded so that a gallery of images that
/// each crash their decoder cannot fork without end.
@MainActor
final class DecoderPool {
    let sandbox: DecoderSandbox
    let size: Int
    /// What its helpers decode: each loads these loaders only, before it shuts itself in.
    let formats: [ImageFormat]
    /// The live helpers; a dead one leaves at once.
    private var helpers: [Helper] = []
    var busy: Int { helpers.reduce(0) { $0 + $1.inFlight } }
    /// When recent helpers were started (monotonic µs), for the rate bound.
    private var starts = Deque<Int>()
    private var reopening: MainLoopSource?
    /// Runs when a helper may be had again after the rate bound held starts back.
    var onAvailable: (@MainActor () -> Void)?
    /// Whether bubblewrap still gets used: false once a helper could not start inside it.
    private(set) var namespaces: Bool
    /// What the last helper to greet said it runs under.
    private(set) var protections: DecodeReply.Protections?
    /// Whether bubblewrap was tried and could not create namespaces here (helpers run without it since).
    private(set) var namespacesFailedHere = false
    /// Runs once, when `namespacesFailedHere` becomes true, so that the window can say so (a user who starts
    /// the app from the desktop's menu never sees stderr).
    var onNamespacesFailed: (@MainActor () -> Void)?

    /// Every helper start so far (monotonic µs), for tests of the rate bound.
    private(set) var startLog: [Int] = []

    /// Requests given to one helper at a time: while it decodes one, the next waits in its socket, so it
    /// starts on it as soon as it has answered, without waiting for the app to read that answer.
    static let depth = 2

    init(sandbox: DecoderSandbox, formats: [ImageFormat] = ImageFormat.allCases, size: Int = DecoderPool.defaultSize) {
        self.sandbox = sandbox
        self.formats = formats
        self.size = max(1, size)
        namespaces = sandbox.bubblewrapPath != nil
    }

    /// One per core: more helpers measured slower on two cores (each start loads its loaders) and larger.
    static var defaultSize: Int { max(1, Int(g_get_num_processors())) }

    /// Whether a decode can start now: a helper has room, or one may be started. When the rate bound is what
    /// holds it back, `onAvailable` runs once the window has moved on.
    var canStart: Bool {
        if helpers.contains(where: { $0.inFlight < Self.depth }) { return true }
        guard helpers.count < size else { return false }
        if mayStartHelper { return true }
        scheduleReopening()
        return false
    }

    private var mayStartHelper: Bool {
        let now = MonotonicClock.microseconds
        while let first = starts.first, now - first > sandbox.startWindowMicroseconds { starts.removeFirst() }
        return starts.count < sandbox.maxStartsPerWindow
    }

    /// One helper: its requests in flight (main loop), and the locks its workers take turns on. A worker sends
    /// while holding `sending` and takes `receiving` before it lets `sending` go, so the replies, which the helper
    /// writes in the order the requests came, are read in that order too: only the worker that sent last can
    /// be waiting for `receiving`. `receiving` also guards whether the greeting has been read.
    final class Helper: Sendable {
        let process: DecoderProcess
        let namespaces: Bool
        private let sending = ThreadLock()
        private let receiving = ThreadLock()
        private let greetingRead = Mutex(false)
        @MainActor var inFlight = 0
        @MainActor var greeted = false
        init(process: DecoderProcess, namespaces: Bool) { (self.process, self.namespaces) = (process, namespaces) }

        /// On a worker: sends `request`, then waits for its reply (after the greeting, if no one has read it yet).
        nonisolated func decode(_ bytes: Bytes, _ request: DecodeRequest, timeout: Int32)
            -> (Result<DecodedPixbuf, DecoderFailure>, DecodeReply.Protections?) {
            sending.lock()
            let failure = process.send(bytes, request)
            receiving.lock()
            sending.unlock()
            defer { receiving.unlock() }
            let greeting: DecodeReply.Protections?
            switch readGreeting(timeout: timeout) {
            case .success(let protections): greeting = protections
            case .failure(let failure): return (.failure(failure), nil)
            }
            if let failure { return (.failure(failure), greeting) }
            return (process.receive(for: request, timeoutMilliseconds: timeout), greeting)
        }

        /// On a worker: the greeting, when no one has read it yet.
        nonisolated func awaitGreeting(timeout: Int32) -> (Result<Void, DecoderFailure>, DecodeReply.Protections?) {
            receiving.lock()
            defer { receiving.unlock() }
            switch readGreeting(timeout: timeout) {
            case .success(let protections): return (.success(()), protections)
            case .failure(let failure): return (.failure(failure), nil)
            }
        }

        /// Holding `receiving`: the protections the greeting states, nil when it was read before.
        private nonisolated func readGreeting(timeout: Int32) -> Result<DecodeReply.Protections?, DecoderFailure> {
            guard !greetingRead.withLock({ $0 }) else { return .success(nil) }
            return process.awaitReady(timeoutMilliseconds: timeout).map { protections in
                greetingRead.withLock { $0 = true }
                return protections
            }
        }
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
        helper.inFlight += 1
        let timeout = sandbox.decodeTimeoutMilliseconds
        WorkerTask.run({ helper.decode(makeBytes(), request, timeout: timeout) }, completion: { [weak self] result, greeting in
            guard let self else { return completion(result) }
            helper.inFlight -= 1
            if let greeting { self.greeted(helper, greeting) }
            let failure: DecoderFailure? = if case .failure(let failure) = result { failure } else { nil }
            switch failure {
            case .died, .timedOut, .protocolViolation: self.drop(helper)
            default: break
            }
            if case .died(signal: 0) = failure, !helper.greeted, helper.namespaces {
                // It could not set itself up inside bubblewrap (no user namespaces here): helpers run without
                // it from now on, with their own limits and filter; not the image's fault, so not its retry.
                self.stopUsingNamespaces()
                return self.decode(request, bytes: makeBytes, retried: retried, completion: completion)
            }
            if case .died = failure, !retried, self.canStart {
                return self.decode(request, bytes: makeBytes, retried: true, completion: completion)
            }
            completion(result)
            self.onAvailable?()
        })
    }

    private func greeted(_ helper: Helper, _ greeting: DecodeReply.Protections) {
        helper.greeted = true
        protections = greeting
    }

    private func drop(_ helper: Helper) {
        helper.process.stop()
        helpers.removeAll { $0 === helper }
    }

    /// Starts the helpers now, each greeting on a worker, so that the first images need not wait for one to
    /// load its loaders (tens of milliseconds).
    func warmUp() {
        let timeout = sandbox.decodeTimeoutMilliseconds
        while helpers.count < size, mayStartHelper, case .success(let helper) = start() {
            helper.inFlight += 1
            WorkerTask.run({ helper.awaitGreeting(timeout: timeout) }, completion: { [weak self] result, greeting in
                guard let self else { return }
                helper.inFlight -= 1
                if let greeting { self.greeted(helper, greeting) }
                if case .failure(let failure) = result {
                    self.drop(helper)
                    if case .died(signal: 0) = failure, helper.namespaces { self.stopUsingNamespaces() }
                }
                self.onAvailable?()
            })
        }
    }

    /// The least busy helper with room, or a new one while there are fewer than `size` and none is free.
    private func take() -> Result<Helper, DecoderFailure> {
        let free = helpers.filter { $0.inFlight < Self.depth }.min { $0.inFlight < $1.inFlight }
        if let free, free.inFlight == 0 { return .success(free) }
        if helpers.count < size && mayStartHelper { return start() }
        if let free { return .success(free) }
        scheduleReopening()
        return .failure(.died(signal: 0))
    }

    private func start() -> Result<Helper, DecoderFailure> {
        guard let command = sandbox.command(namespaces: namespaces, formats: formats) else {
            return .failure(.failed(tr("the image decoder (gallery-decoder) is not installed")))
        }
        starts.append(MonotonicClock.microseconds)
        startLog.append(MonotonicClock.microseconds)
        switch DecoderProcess.spawn(command) {
        case .success(let process):
            let helper = Helper(process: process, namespaces: namespaces)
            helpers.append(helper)
            return .success(helper)
        case .failure(let error): return .failure(.failed(error.message))
        }
    }

    /// Helpers start without bubblewrap from now on: it could not create namespaces here (found by this pool, or
    /// by another one). The note stays on stderr for the command-line modes, once a process.
    func stopUsingNamespaces() {
        guard namespaces else { return }
        namespaces = false
        namespacesFailedHere = true
        helpers.filter { $0.namespaces && $0.inFlight == 0 }.forEach(drop)
        onNamespacesFailed?()
        guard !Self.saidNamespacesOff else { return }
        Self.saidNamespacesOff = true
        let line = Array("gallery-viewer: \(Self.namespacesOffNote)\n".utf8)
        _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }

    /// What the app says, on stderr and in the window, once helpers run without bubblewrap.
    static var namespacesOffNote: String {
        tr("Images are decoded without the namespace sandbox: bubblewrap cannot create namespaces here. The decoders still run as separate processes with their memory limit and system-call filter.")
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

    var processIDs: [Int32] { helpers.map(\.process.pid) }

    /// Ends every idle helper (busy ones end when their decode does and the pool is gone).
    func stopIdle() {
        helpers.filter { $0.inFlight == 0 }.forEach(drop)
    }
}

/// A mutex that is locked and unlocked by calls, not a scope, for the hand-over of `DecoderPool.Helper`'s turns
/// (each is unlocked on the thread that locked it).
final class ThreadLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    init() { pthread_mutex_init(mutex, nil) }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }
}
