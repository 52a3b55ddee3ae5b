import GObjectBindings

/// The libsoup session one `HTTPClient` sends on, with its disk cache attached once the cache's index is read,
/// and the sessions it replaced, which finish what they had in flight and are let go once nothing is (letting go
/// aborts a session and closes its idle connections: a window that clears its cache many times keeps none).
///
/// A session is replaced rather than changed: libsoup's features count a reference per request queued while
/// they are attached and drop one when it leaves the queue, so a cache detached from or attached to a session
/// with requests in flight would be released once too often.
@MainActor
final class HTTPSessions {
    private let configuration: HTTPClient.Configuration
    /// The disk cache requests go through; nil: every request goes to the network.
    let cache: HTTPCache?
    /// Replaced by a new one when the disk cache is cleared or the address policy narrows.
    var current: Soup.Session { currentSession.session }
    private var currentSession: CountedSession
    /// Replaced sessions with requests still in their queue.
    private var retired: [CountedSession] = []
    private var releasing: MainLoopSource?

    /// The sessions held now: the current one, and those replaced that still have requests in flight.
    var keptSessionCount: Int { 1 + retired.count }

    /// A session and the requests in its queue, counted by libsoup's `request-queued` and `request-unqueued`
    /// from the session's start: a request leaves the queue once its response is done with (body read to its
    /// end or closed, cancelled, failed).
    private final class CountedSession {
        let session: Soup.Session
        var queued = 0
        init(_ session: Soup.Session) { self.session = session }
    }

    /// With a `cache`, requests wait until its index is read (`whenCacheReady`), then go through it.
    init(configuration: HTTPClient.Configuration, cache: HTTPCache?) {
        self.configuration = configuration
        self.cache = cache
        currentSession = CountedSession(Self.makeSession(configuration))
        track(currentSession)
        guard let cache else { return }
        cache.claim()
        cache.whenReady { [weak self] in
            guard let self, let cache = self.cache else { return }
            cache.attach(to: self.current)
        }
    }

    private static func makeSession(_ configuration: HTTPClient.Configuration) -> Soup.Session {
        Soup.Session(.init(
            userAgent: configuration.userAgent,
            maxConnectionsPerHost: Int32(configuration.maxConnectionsPerHost),
            maxConnections: Int32(configuration.maxConnections),
            ioTimeoutSeconds: UInt32(configuration.ioTimeoutSeconds),
            trustedCertificatesFile: configuration.trustedCertificatesFile))
    }

    private func track(_ counted: CountedSession) {
        counted.session.ref.connect("request-queued") { [weak counted] (_: UnsafeMutableRawPointer?) in
            counted?.queued += 1
        }
        counted.session.ref.connect("request-unqueued") { [weak self, weak counted] (_: UnsafeMutableRawPointer?) in
            guard let counted else { return }
            counted.queued -= 1
            if counted.queued == 0 { self?.releaseIdleRetired() }
        }
    }

    /// Lets go of the replaced sessions with nothing in flight, from an idle callback: never inside one of
    /// the session's own signals (the last request leaving its queue, a connection's `network-event` that
    /// narrowed the policy), where aborting it would pull libsoup's state from under its caller.
    private func releaseIdleRetired() {
        guard releasing == nil else { return }
        releasing = MainLoopSource.idle { [weak self] in
            guard let self else { return }
            self.releasing = nil
            self.retired.removeAll { $0.queued == 0 }
        }
    }

    /// Puts a new session in place of the current one, its own requests counted; the old one is kept while
    /// it has some in flight.
    private func retireCurrent() {
        retired.append(currentSession)
        currentSession = CountedSession(Self.makeSession(configuration))
        track(currentSession)
        releaseIdleRetired()
    }

    /// Runs `send` once the disk cache (if any) can answer.
    func whenCacheReady(_ send: @escaping @MainActor () -> Void) {
        if let cache { cache.whenReady(send) } else { send() }
    }

    /// Puts a new session in place of the current one (so no kept-alive connection of the old one is reused);
    /// the disk cache moves over if attached.
    func replace() {
        let movesCache = cache?.isAttached == true
        if movesCache { cache?.detach(from: current) }
        retireCurrent()
        if movesCache { cache?.attach(to: current) }
    }

    /// Empties the disk cache without making the main loop wait for the disk; `completion` gets the bytes
    /// freed (0 without a cache).
    ///
    /// A new, empty cache takes the old one's place at once, on a new session. The old session finishes what
    /// it has in flight (with the old cache, which stops serving and storing anything new). Whatever the old
    /// cache still writes is an unknown file the next start deletes.
    func clearCache(completion: @escaping @MainActor (Int) -> Void) {
        guard let cache else {
            MainLoopSource.idle { completion(0) }
            return
        }
        cache.whenReady { [weak self] in
            guard let self else { return completion(0) }
            cache.detach(from: self.current)
            let trash = cache.replaceWithEmptyCache()
            self.retireCurrent()
            cache.attach(to: self.current)
            HTTPCache.removeTrash(trash, completion: completion)
        }
    }

    /// Cancels everything in flight, on every session.
    func abortAll() {
        current.abort()
        for counted in retired { counted.session.abort() }
    }
}
