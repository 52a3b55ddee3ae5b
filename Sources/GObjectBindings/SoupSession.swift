import CGLib
import CSoup

extension Soup {
    /// One HTTP client session: a connection pool with keep-alive, per-host limits and I/O timeouts.
    public final class Session {
        public struct Configuration: Sendable {
            public var userAgent: String
            public var maxConnectionsPerHost: Int32
            public var maxConnections: Int32
            /// libsoup's `timeout`: seconds a socket read or write may wait without progress.
            public var ioTimeoutSeconds: UInt32
            /// Seconds an unused keep-alive connection stays open.
            public var idleTimeoutSeconds: UInt32
            /// A PEM file of the only certificate authorities trusted instead of the system's (tests' own
            /// server); nil: the system's.
            public var trustedCertificatesFile: String?

            public init(userAgent: String, maxConnectionsPerHost: Int32, maxConnections: Int32,
                        ioTimeoutSeconds: UInt32, idleTimeoutSeconds: UInt32 = 60, trustedCertificatesFile: String? = nil) {
                self.userAgent = userAgent
                self.maxConnectionsPerHost = maxConnectionsPerHost
                self.maxConnections = maxConnections
                self.ioTimeoutSeconds = ioTimeoutSeconds
                self.idleTimeoutSeconds = idleTimeoutSeconds
                self.trustedCertificatesFile = trustedCertificatesFile
            }
        }

        public let ref: ObjectRef
        public let configuration: Configuration

        public init(_ configuration: Configuration) {
            self.configuration = configuration
            ref = ObjectRef(soup_session_new()!, transfer: .full)
            ref.set("user-agent", configuration.userAgent)
            ref.set("max-conns", configuration.maxConnections)
            ref.set("max-conns-per-host", configuration.maxConnectionsPerHost)
            ref.set("timeout", configuration.ioTimeoutSeconds)
            ref.set("idle-timeout", configuration.idleTimeoutSeconds)
            if let path = configuration.trustedCertificatesFile {
                // A file that cannot be read trusts nothing: every https request fails.
                let database = g_tls_file_database_new(path, nil)
                ref.set("tls-database", object: database.map { ObjectRef(UnsafeMutableRawPointer($0), transfer: .full) })
            }
            // No auth manager: a 401 is an answer, never a reason to send credentials (a URL's user:password,
            // or anything else), and libsoup 2.4's Digest code (CVE-2025-32910, -32912, -4476) is never run.
            soup_session_remove_feature_by_type(ref.typed(), soup_auth_manager_get_type())
        }

        deinit { soup_session_abort(ref.typed()) }

        /// Sends `message` and calls back once the response headers arrived (redirects already followed),
        /// with the body as a stream. Transport failures (DNS, TLS, refused, timeout) arrive as errors;
        /// HTTP error statuses arrive as a successful response whose status the caller checks.
        @MainActor
        public func send(_ message: Message, cancellable: Cancellable,
                         completion: @escaping @MainActor (Result<ReadableStream, GLibError>) -> Void) {
            let session: UnsafeMutablePointer<SoupSession> = ref.typed()
            AsyncCallback { _, result in
                do throws(GLibError) {
                    let stream = try GLibError.check { error in
                        soup_session_send_finish(session, result, error)
                    }
                    completion(.success(ReadableStream(owning: stream!.raw)))
                } catch {
                    completion(.failure(error))
                }
            }.pass { soup_session_send_async(session, message.ref.typed(), cancellable.pointer, $0, $1) }
        }

        /// Cancels every pending request; their callbacks run with a cancellation error.
        public func abort() { soup_session_abort(ref.typed()) }
    }
}

extension Soup {
    /// What libsoup loads, synchronously, when a session makes its first connection — http as much as https:
    /// all of GIO's modules (the TLS backend with GnuTLS, the proxy resolver, the settings backend) and the
    /// system's certificate database, every certificate parsed. Tens of milliseconds of the main loop on this
    /// machine's class of hardware, the first time in a process; later sessions find it loaded. `whenLoaded`
    /// has it loaded once on a GTask worker instead and runs `body` after: a client sends nothing before.
    @MainActor
    public enum NetworkSetup {
        private static var waiting: [@MainActor () -> Void] = []
        private static var loaded = false

        public static func whenLoaded(_ body: @escaping @MainActor () -> Void) {
            guard !loaded else { return body() }
            waiting.append(body)
            guard waiting.count == 1 else { return }
            WorkerTask.run({
                // Each is cached where it is made (the backend keeps its database), so the session's own calls
                // on the main loop only look them up.
                _ = g_proxy_resolver_get_default()
                if let database = g_tls_backend_get_default_database(g_tls_backend_get_default()) {
                    g_object_unref(UnsafeMutableRawPointer(database))
                }
            }, completion: {
                loaded = true
                let work = waiting
                waiting = []
                for body in work { body() }
            })
        }
    }
}

