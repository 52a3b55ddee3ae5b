import GObjectBindings

/// Asks a fediverse server what it runs (NodeInfo: discovery, then the schema document), on the main loop
/// with the app's HTTP client, to tell Mastodon from Misskey for a `/@NAME` link. Never guesses from the
/// host name. Bounded: each reply by size, the whole lookup by a deadline, redirects by libsoup's own cap,
/// and both replies are parsed on a GTask worker.
@MainActor
public final class ServerSoftwareLookup {
    public struct Limits: Sendable {
        public var maxDiscoveryBytes: Int
        /// Documents carry free-form metadata (Pleroma's lists its federation policies), so more room.
        public var maxDocumentBytes: Int
        /// Both requests together, from the first byte sent to the answer.
        public var deadlineMilliseconds: Int

        public init(maxDiscoveryBytes: Int = 64 * 1024, maxDocumentBytes: Int = 1_048_576, deadlineMilliseconds: Int = 10_000) {
            self.maxDiscoveryBytes = maxDiscoveryBytes
            self.maxDocumentBytes = maxDocumentBytes
            self.deadlineMilliseconds = deadlineMilliseconds
        }
    }

    private let client: HTTPClient
    public let limits: Limits

    public init(client: HTTPClient, limits: Limits = .init()) {
        self.client = client
        self.limits = limits
    }

    public typealias Completion = @MainActor (Result<SourceKind, GalleryError>) -> Void

    /// Finds the source for accounts on `server` (host[:port]) by asking `origin` (its https:// address, or the
    /// endpoint override, which then answers for it). `completion` runs once on the main loop, never before
    /// this returns; not at all once the returned cancellable is cancelled.
    @discardableResult
    public func sourceKind(forServer server: String, askingAt origin: String? = nil,
                           completion: @escaping Completion) -> Cancellable {
        let endpoint = Endpoint(canonical: "https://" + server, override: origin)
        // The server the user named is the gallery's endpoint from now on (see `AddressPolicy`).
        client.useEndpoint(endpoint.origin)
        let job = Job(server: server, completion: completion)
        job.deadline = MainLoopSource.after(milliseconds: UInt32(max(1, limits.deadlineMilliseconds))) { [weak job] in
            guard let job else { return }
            let seconds = (self.limits.deadlineMilliseconds + 999) / 1000
            job.finish(.failure(.unidentifiedServer(
                server: server, detail: trn("It did not answer within {count} second.",
                                            "It did not answer within {count} seconds.", seconds))))
        }
        let discovery = HTTPRequest(url: endpoint.url("/.well-known/nodeinfo"), headers: Self.headers,
                                    maxBodyBytes: limits.maxDiscoveryBytes)
        client.fetch(discovery, cancellable: job.requests) { [limits, client] result in
            job.handle(result) { response in
                WorkerTask.run(cancellable: job.requests, {
                    NodeInfo.documentLink(in: response.body, replyURL: response.head.url)
                }, completion: { link in
                    let href: String
                    switch link {
                    case .success(let value): href = value
                    case .failure(let failure): return job.fail(failure)
                    }
                    // The document is the server's own: on its host, or moved onto the endpoint override.
                    guard let url = endpoint.rebase(href) else { return job.fail(.noLink) }
                    let document = HTTPRequest(url: url, headers: Self.headers, maxBodyBytes: limits.maxDocumentBytes)
                    client.fetch(document, cancellable: job.requests) { result in
                        job.handle(result) { response in
                            WorkerTask.run(cancellable: job.requests, { NodeInfo.softwareName(in: response.body) },
                                           completion: { name in job.found(name) })
                        }
                    }
                })
            }
        }
        return job.requests
    }

    private static let headers = ["Accept": "application/json"]

    /// One lookup: its requests (cancelled together by the deadline or the caller) and its one completion.
    @MainActor
    private final class Job {
        let server: String
        /// The caller's handle: cancelled by the caller (the completion is dropped) or by `finish`.
        let requests = Cancellable()
        var completion: Completion?
        var deadline: MainLoopSource?

        init(server: String, completion: @escaping Completion) {
            self.server = server
            self.completion = completion
        }

        /// Runs the completion once, unless the caller cancelled; stops whatever is still in flight.
        func finish(_ result: Result<SourceKind, GalleryError>) {
            guard let completion else { return }
            self.completion = nil
            deadline?.cancel()
            deadline = nil
            let abandoned = requests.isCancelled
            requests.cancel()
            if !abandoned { completion(result) }
        }

        /// A reply that is there and 2xx goes on to `next`; anything else ends the lookup with its message.
        func handle(_ result: Result<HTTPResponse, HTTPError>, next: (HTTPResponse) -> Void) {
            guard completion != nil else { return }
            switch result {
            case .failure(.cancelled):
                finish(.failure(.unidentifiedServer(server: server, detail: tr("Cancelled."))))
            case .success(let response) where response.head.isSuccess:
                next(response)
            case .success(let response):
                // TRANSLATORS: {status} is an HTTP status line such as "HTTP 404 Not Found".
                finish(.failure(.unidentifiedServer(server: server, detail: tr(
                    "It has no NodeInfo ({status}).", ["status": response.head.statusLine]))))
            case .failure(.tooLarge):
                finish(.failure(.unidentifiedServer(server: server, detail: tr("Its NodeInfo is far larger than any real one."))))
            case .failure(let error) where error.isUnreachable || error == .connectionClosedEarly:
                finish(.failure(.network(service: server, detail: error.message)))
            case .failure(let error):
                finish(.failure(.unidentifiedServer(server: server, detail: error.message + ".")))
            }
        }

        func fail(_ failure: NodeInfo.Failure) {
            let detail = switch failure {
            case .noLink: tr("Its NodeInfo links to no document the app reads.")
            case .unreadable: tr("Its NodeInfo could not be read.")
            case .noName: tr("Its NodeInfo names no server software.")
            }
            finish(.failure(.unidentifiedServer(server: server, detail: detail)))
        }

        func found(_ name: Result<String, NodeInfo.Failure>) {
            switch name {
            case .failure(let failure): fail(failure)
            case .success(let name):
                guard let kind = ServerSoftware.sourceKind(for: name) else {
                    return finish(.failure(.unsupportedServer(server: server, software: DisplayText.clean(name, limit: 64))))
                }
                finish(.success(kind))
            }
        }
    }
}
