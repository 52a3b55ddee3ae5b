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

            public init(userAgent: String, maxConnectionsPerHost: Int32, maxConnections: Int32,
                        ioTimeoutSeconds: UInt32, idleTimeoutSeconds: UInt32 = 60) {
                self.userAgent = userAgent
                self.maxConnectionsPerHost = maxConnectionsPerHost
                self.maxConnections = maxConnections
                self.ioTimeoutSeconds = ioTimeoutSeconds
                self.idleTimeoutSeconds = idleTimeoutSeconds
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
