import GObjectBindings

/// A Soup.Server on 127.0.0.1 that counts what it sees: the base of the demo server and of the tests'
/// TestHTTPServer. Every request goes to the handler given to `start`, after being counted (and, for tests and
/// benchmarks, logged).
@MainActor
public final class LocalHTTPServer {
    public private(set) var baseURL = ""
    /// Distinct client TCP connections seen (by remote address and port), when recording. Requests over a
    /// kept-alive connection do not add to it.
    public var acceptedConnections: Int { clientAddresses.count }
    public private(set) var requestCount = 0
    /// Path and query of every request, in arrival order, when recording.
    public private(set) var requestLog: [String] = []
    /// Whether `requestLog` and `acceptedConnections` keep what they see: they grow with every request, so the
    /// demo server inside the app (which may page through a gallery of a million items) keeps nothing.
    public let recordsRequests: Bool
    /// Told each request's path and query as it arrives (gallery-demo-server --log-requests).
    public var onRequest: (@MainActor (String) -> Void)?
    /// Requests whose response has not finished (still being written, paused, or stalled).
    public private(set) var responsesInFlight = 0

    private let server: Soup.Server
    private var clientAddresses = Set<String>()

    public init(serverHeader: String, recordsRequests: Bool = true) {
        server = Soup.Server(serverHeader: serverHeader)
        self.recordsRequests = recordsRequests
    }

    /// A forgotten `stop()` must not leave a listening socket behind.
    isolated deinit { server.disconnect() }

    /// Listens on 127.0.0.1:`port` (0: any free port), sets `baseURL` and passes every request to `handler`
    /// until `stop()`.
    public func start(port: UInt16 = 0,
                      handler: @escaping @MainActor (Soup.ServerMessage) -> Void) throws(GLibError) {
        let bound = try server.listenLocal(port: port)
        baseURL = "http://127.0.0.1:\(bound)"
        server.addHandler(nil) { [weak self] message in
            guard let self else { return }
            requestCount += 1
            if recordsRequests || onRequest != nil {
                let target = message.path + (message.rawQuery.map { "?\($0)" } ?? "")
                onRequest?(target)
                if recordsRequests {
                    requestLog.append(target)
                    clientAddresses.insert(message.remoteAddress)
                }
            }
            responsesInFlight += 1
            message.onFinished { [weak self] in self?.responsesInFlight -= 1 }
            handler(message)
        }
    }

    /// Closes the listening socket and all client connections (responses in progress end) and releases the
    /// handler.
    public func stop() {
        server.disconnect()
    }

    public func resetCounters() {
        requestCount = 0
        requestLog.removeAll()
        clientAddresses.removeAll()
    }
}
