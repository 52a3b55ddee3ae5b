import GObjectBindings

/// The libsoup session one `HTTPClient` sends on, with its disk cache attached once the cache's index is read,
/// and the sessions it replaced, which finish what they had in flight and are kept until the client goes.
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
    private(set) var current: Soup.Session
    private var retired: [Soup.Session] = []

    /// With a `cache`, requests wait until its index is read (`whenCacheReady`), then go through it.
    init(configuration: HTTPClient.Configuration, cache: HTTPCache?) {
        self.configuration = configuration
        self.cache = cache
        current = Self.makeSession(configuration)
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

    /// Runs `send` once the disk cache (if any) can answer.
    func whenCacheReady(_ send: @escaping @MainActor () -> Void) {
        if let cache { cache.whenReady(send) } else { send() }
    }

    /// Puts a new session in place of the current one (so no kept-alive connection of the old one is reused);
    /// the disk cache moves over if attached.
    func replace() {
        let movesCache = cache?.isAttached == true
        if movesCache { cache?.detach(from: current) }
        retired.append(current)
        current = Self.makeSession(configuration)
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
            self.retired.append(self.current)
            let trash = cache.replaceWithEmptyCache()
            self.current = Self.makeSession(self.configuration)
            cache.attach(to: self.current)
            HTTPCache.removeTrash(trash, completion: completion)
        }
    }

    /// Cancels everything in flight, on every session.
    func abortAll() {
        current.abort()
        for session in retired { session.abort() }
    }
}
