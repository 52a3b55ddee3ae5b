import CGLib
import CSoup

/// `onConnecting`'s handler, owned by its signal connection. Sendable: GLib calls it on the main thread only.
private final class ConnectingBox: Sendable {
    let handler: @MainActor ([UInt8], String, String) -> Bool
    init(_ handler: @escaping @MainActor ([UInt8], String, String) -> Bool) { self.handler = handler }
}

extension Soup {
    /// An HTTP request and, once sent, its response status and headers.
    public final class Message {
        public let ref: ObjectRef

        /// nil when `url` is not an absolute http(s) URL libsoup accepts. A user name and password in `url`
        /// are dropped: a feed's link must not make the app log in anywhere (the session has no auth manager
        /// either, see `Session`).
        public init?(method: String = "GET", url: String) {
            guard let message = soup_message_new(method, url) else { return nil }
            ref = ObjectRef(message, transfer: .full)
            let uri = soup_message_get_uri(message)
            soup_uri_set_user(uri, nil)
            soup_uri_set_password(uri, nil)
        }

        /// The scheme of the URL the message is at now ("https", "http"), after any redirect.
        public var scheme: String { Self.scheme(of: message) }

        private static func scheme(of message: UnsafeMutablePointer<SoupMessage>) -> String {
            string(soup_message_get_uri(message).pointee.scheme) ?? ""
        }

        private static func host(of message: UnsafeMutablePointer<SoupMessage>) -> String {
            string(soup_message_get_uri(message).pointee.host) ?? ""
        }

        private var message: UnsafeMutablePointer<SoupMessage> { ref.typed() }

        public var statusCode: UInt32 { message.pointee.status_code }

        /// The server's reason phrase; the standard one when it sent none, or the "Unknown Error" an older
        /// libsoup server sends for codes it does not know.
        public var reasonPhrase: String {
            string(message.pointee.reason_phrase).flatMap { $0.isEmpty || $0 == "Unknown Error" ? nil : $0 }
                ?? Soup.reasonPhrase(for: statusCode)
        }

        /// The URL the response came from, after redirects.
        public var url: String {
            takeString(soup_uri_to_string(soup_message_get_uri(message), 0)) ?? ""
        }

        /// Runs `handler` each time the session hands the message to a connection to be sent (`starting`):
        /// after any wait in the session's queue for a free connection, before the request is written, with the
        /// scheme of the URL it is sent to (redirects change it). An answer the cache gives without asking the
        /// server does not run it.
        @MainActor
        public func onStarting(_ handler: @escaping @MainActor (_ scheme: String) -> Void) {
            ref.connectWithEmitter("starting") { emitter in
                handler(Self.scheme(of: emitter.pointer.assumingMemoryBound(to: SoupMessage.self)))
            }
        }

        /// Runs `handler` each time the session is about to open a TCP connection for this message (the first
        /// request and every redirect that needs a new connection), after the host name was resolved, with the
        /// address's bytes (4 for IPv4, 16 for IPv6) and the scheme and host of the URL it is for. `handler` returns
        /// true to refuse the connection: its socket is closed before connect(2), so nothing is sent to the
        /// address, and the message fails (a connection error, or a cancellation if the caller cancels). A message sent on a kept-alive connection does not run it.
        @MainActor
        public func onConnecting(_ handler: @escaping @MainActor (_ address: [UInt8], _ scheme: String, _ host: String) -> Bool) {
            let box = Unmanaged.passRetained(ConnectingBox(handler)).toOpaque()
            let trampoline: @convention(c) (gpointer?, GSocketClientEvent, gpointer?, gpointer?) -> Void = { message, event, connection, data in
                guard event == G_SOCKET_CLIENT_CONNECTING, let message, let connection, let data,
                      let address = Message.remoteAddress(of: connection) else { return }
                let box = Unmanaged<ConnectingBox>.fromOpaque(data).takeUnretainedValue()
                let typed = message.assumingMemoryBound(to: SoupMessage.self)
                let (scheme, host) = (Message.scheme(of: typed), Message.host(of: typed))
                let refused = MainActor.assumeIsolated { box.handler(address, scheme, host) }
                if refused, let socket = g_socket_connection_get_socket(connection.assumingMemoryBound(to: GSocketConnection.self)) {
                    g_socket_close(socket, nil)
                }
            }
            let release: GClosureNotify = { data, _ in Unmanaged<ConnectingBox>.fromOpaque(data!).release() }
            g_signal_connect_data(ref.pointer, "network-event", unsafeBitCast(trampoline, to: GCallback.self), box, release,
                                  GConnectFlags(rawValue: 0))
        }

        /// The address a connection that is being made goes to (GIO sets it before the CONNECTING event).
        private static func remoteAddress(of connection: gpointer) -> [UInt8]? {
            guard g_type_check_instance_is_a(connection.assumingMemoryBound(to: GTypeInstance.self),
                                             g_socket_connection_get_type()) != 0,
                  let socketAddress = g_socket_connection_get_remote_address(connection.assumingMemoryBound(to: GSocketConnection.self), nil) else { return nil }
            defer { g_object_unref(socketAddress) }
            guard g_type_check_instance_is_a(UnsafeMutableRawPointer(socketAddress).assumingMemoryBound(to: GTypeInstance.self),
                                             g_inet_socket_address_get_type()) != 0,
                  let inet = g_inet_socket_address_get_address(UnsafeMutableRawPointer(socketAddress).assumingMemoryBound(to: GInetSocketAddress.self)),
                  let bytes = g_inet_address_to_bytes(inet) else { return nil }
            let count = Int(g_inet_address_get_native_size(inet))
            return Array(UnsafeBufferPointer(start: bytes, count: count))
        }

        /// Sends the message as though the session had no disk cache: nothing is stored in it (the feature is
        /// off for this message) or answered from it (libsoup 2.4 asks the cache for a fresh copy whatever the
        /// message's features; a request's `Cache-Control: no-store` makes it say there is none).
        public func bypassDiskCache() {
            soup_message_disable_feature(message, soup_cache_get_type())
            soup_message_headers_append(message.pointee.request_headers, "Cache-Control", "no-store")
        }

        public func setRequestHeader(_ name: String, _ value: String) {
            soup_message_headers_replace(message.pointee.request_headers, name, value)
        }

        /// The request's body (copied), sent with `contentType` and its Content-Length.
        public func setRequestBody(_ bytes: [UInt8], contentType: String) {
            bytes.withUnsafeBufferPointer { buffer in
                soup_message_set_request(message, contentType, SOUP_MEMORY_COPY, buffer.baseAddress.map(UnsafeRawPointer.init)?
                    .assumingMemoryBound(to: CChar.self), gsize(buffer.count))
            }
        }

        public func responseHeader(_ name: String) -> String? {
            string(soup_message_headers_get_one(message.pointee.response_headers, name))
        }

        /// Every response header, names lower-cased; repeated headers are joined with ", " as HTTP allows.
        public var responseHeaders: [String: String] {
            final class Collector { var headers: [String: String] = [:] }
            let collector = Collector()
            soup_message_headers_foreach(message.pointee.response_headers, { name, value, data in
                let collector = Unmanaged<Collector>.fromOpaque(data!).takeUnretainedValue()
                let key = String(cString: name!).lowercased()
                let value = String(cString: value!)
                collector.headers[key] = collector.headers[key].map { "\($0), \(value)" } ?? value
            }, Unmanaged.passUnretained(collector).toOpaque())
            return withExtendedLifetime(collector) { collector.headers }
        }

        /// The response's media type without parameters ("image/jpeg"), lower-cased.
        public var responseMediaType: String? {
            string(soup_message_headers_get_content_type(message.pointee.response_headers, nil))?.lowercased()
        }

        /// The declared body length, when the response has a Content-Length.
        public var responseContentLength: Int? {
            let headers = message.pointee.response_headers
            guard soup_message_headers_get_encoding(headers) == SOUP_ENCODING_CONTENT_LENGTH else { return nil }
            return Int(soup_message_headers_get_content_length(headers))
        }
    }
}
