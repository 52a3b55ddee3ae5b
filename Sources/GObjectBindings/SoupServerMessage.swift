import CGLib
import CSoup
import Glibc

extension Soup {
    /// One request received by a `Soup.Server`, and the response being built for it.
    ///
    /// Lifetime and safety: the wrapper keeps itself and a reference to the SoupMessage alive from the handler
    /// call until the message finished (response written, client gone, or `abortConnection()`), so a paused or
    /// streaming response always has its message. Once `isFinished` is true every response call is a no-op:
    /// libsoup has released the message's I/O state and touching it would be an error.
    @MainActor
    public final class ServerMessage {
        public let ref: ObjectRef
        public let method: String
        /// The decoded path ("/images/a b.png").
        public let path: String
        /// The raw query string without "?", nil when the URL has none.
        public let rawQuery: String?
        /// The query decoded as an HTML form (soup_form_decode); a repeated key keeps its last value.
        public let query: [String: String]
        /// The client's "address:port"; two requests with the same value came over the same TCP connection.
        public let remoteAddress: String
        public private(set) var isFinished = false
        public private(set) var isPaused = false

        private let server: Server
        private let client: OpaquePointer?
        private var inFlight: ServerMessage?
        private var finishedHandlers: [@MainActor () -> Void] = []
        private var connections: [SignalConnection] = []
        private var disconnectWatch: MainLoopSource?

        init(server: Server, arguments: ServerCallbackArguments) {
            self.server = server
            ref = ObjectRef(arguments.message, transfer: .none)
            let message = arguments.message
            method = GObjectBindings.string(message.pointee.method) ?? "GET"
            path = arguments.path
            let uri = soup_message_get_uri(message)
            rawQuery = uri.flatMap { GObjectBindings.string($0.pointee.query) }
            query = rawQuery.map(Self.decodeForm) ?? [:]
            client = arguments.client.map { OpaquePointer(g_boxed_copy(soup_client_context_get_type(), $0.raw)) }
            remoteAddress = client.map(Self.remoteAddress(of:)) ?? "?"
            inFlight = self
            connections.append(ref.connect("finished") { [weak self] in self?.didFinish() })
        }

        isolated deinit {
            connections.forEach { $0.disconnect() }
            disconnectWatch?.cancel()
            if let client { g_boxed_free(soup_client_context_get_type(), client.raw) }
        }

        private var message: UnsafeMutablePointer<SoupMessage> { ref.typed() }

        // MARK: Request

        public func requestHeader(_ name: String) -> String? {
            GObjectBindings.string(soup_message_headers_get_one(message.pointee.request_headers, name))
        }

        /// Every request header in arrival order.
        public var requestHeaders: [(name: String, value: String)] {
            var iterator = SoupMessageHeadersIter()
            soup_message_headers_iter_init(&iterator, message.pointee.request_headers)
            var name: UnsafePointer<CChar>?
            var value: UnsafePointer<CChar>?
            var headers: [(name: String, value: String)] = []
            while soup_message_headers_iter_next(&iterator, &name, &value) != 0 {
                if let name, let value { headers.append((String(cString: name), String(cString: value))) }
            }
            return headers
        }

        /// The request's body (a POST's), which libsoup has read whole before the handler runs; empty for none.
        public var requestBody: Bytes {
            let buffer = soup_message_body_flatten(message.pointee.request_body)
            defer { soup_buffer_free(buffer) }
            return Bytes(owning: soup_buffer_get_as_bytes(buffer))
        }

        // MARK: Response

        public func setStatus(_ code: UInt32) {
            guard !isFinished else { return }
            soup_message_set_status_full(message, guint(code), Soup.reasonPhrase(for: code))
        }

        /// Sets a response header, replacing earlier values of it.
        public func setResponseHeader(_ name: String, _ value: String) {
            guard !isFinished else { return }
            soup_message_headers_replace(message.pointee.response_headers, name, value)
        }

        /// The whole body at once, with Content-Type. The bytes are shared, not copied. libsoup sets the
        /// Content-Length from the complete body itself, and answers a `Range` request to a 200 with the
        /// range (206, Content-Range) or 416; an explicit Content-Length here would stay the full length on
        /// a 206 and leave the client waiting for bytes that never come.
        public func setBody(_ bytes: Bytes, contentType: String) {
            guard !isFinished else { return }
            soup_message_headers_set_content_type(message.pointee.response_headers, contentType, nil)
            append(bytes, range: 0..<bytes.count)
            soup_message_body_complete(message.pointee.response_body)
        }

        /// Starts a body that is sent as it is appended: with a Content-Length when `contentLength` is given
        /// (the response ends after that many bytes), chunked otherwise (it ends at `completeBody()`).
        /// Sent chunks are not kept in memory.
        public func beginStreamingBody(contentType: String, contentLength: Int?) {
            guard !isFinished else { return }
            let headers = message.pointee.response_headers
            soup_message_headers_set_content_type(headers, contentType, nil)
            if let contentLength {
                soup_message_headers_set_content_length(headers, goffset(contentLength))
            } else {
                soup_message_headers_set_encoding(headers, SOUP_ENCODING_CHUNKED)
            }
            soup_message_body_set_accumulate(message.pointee.response_body, 0)
        }

        /// Appends part of `bytes` to a streaming body (shared, not copied) and resumes sending: libsoup pauses
        /// a streaming message by itself whenever it has written everything appended so far. While paused
        /// with `pause()`, the bytes wait for `unpause()`.
        public func appendBody(_ bytes: Bytes, range: Range<Int>) {
            guard !isFinished else { return }
            append(bytes, range: range)
            if !isPaused { soup_server_unpause_message(server.server, message) }
        }

        /// Ends a chunked body (not needed with a Content-Length) and resumes sending.
        public func completeBody() {
            guard !isFinished else { return }
            soup_message_body_complete(message.pointee.response_body)
            if !isPaused { soup_server_unpause_message(server.server, message) }
        }

        private func append(_ bytes: Bytes, range: Range<Int>) {
            precondition(range.lowerBound >= 0 && range.upperBound <= bytes.count, "range outside the bytes")
            // A zero-length chunk would mean "end of body" to libsoup.
            guard !range.isEmpty else { return }
            bytes.withUnsafeBytes { buffer in
                let owner = bytes.retainedPointer()
                let chunk = soup_buffer_new_with_owner(buffer.baseAddress! + range.lowerBound, gsize(range.count),
                                                       owner.raw, releaseBytesNotify)
                soup_message_body_append_buffer(message.pointee.response_body, chunk)
                soup_buffer_free(chunk)
            }
        }

        /// Holds the response back (nothing more is written) until `unpause()`. Pausing inside the handler
        /// delays even the status line and headers.
        public func pause() {
            guard !isFinished, !isPaused else { return }
            isPaused = true
            soup_server_pause_message(server.server, message)
        }

        /// Resumes after `pause()`; does nothing when not paused.
        public func unpause() {
            guard !isFinished, isPaused else { return }
            isPaused = false
            soup_server_unpause_message(server.server, message)
        }

        /// Closes the client's TCP connection at once, whatever was written so far; the client sees the
        /// connection drop (e.g. a body shorter than its Content-Length). Finishes the message.
        public func abortConnection() {
            guard !isFinished else { return }
            if let client, let stream = soup_client_context_steal_connection(client) {
                g_io_stream_close(stream, nil, nil)
                g_object_unref(stream.raw)
            }
            didFinish()
        }

        /// Watches the client's socket while the response is stuck (e.g. a stalled body, where libsoup itself
        /// is not reading or writing) and aborts the message as soon as the client hangs up.
        public func abortWhenClientDisconnects() {
            guard !isFinished, disconnectWatch == nil, let client,
                  let socket = soup_client_context_get_gsocket(client) else { return }
            let condition = GIOCondition(rawValue: G_IO_IN.rawValue | G_IO_HUP.rawValue | G_IO_ERR.rawValue)
            disconnectWatch = MainLoopSource.watch(socket: socket, condition: condition) { [weak self] _ in
                guard let self, !self.isFinished else { return false }
                var byte: UInt8 = 0
                let peeked = recv(g_socket_get_fd(socket), &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
                if peeked < 0 && (errno == EAGAIN || errno == EINTR) { return true }
                self.disconnectWatch = nil
                // More data means the client is still there (sending its next request); stop watching.
                if peeked <= 0 { self.abortConnection() }
                return false
            }
        }

        // MARK: Signals

        /// Runs once when the message finished: fully written, failed because the client went away, or
        /// aborted. Runs immediately when it already finished.
        public func onFinished(_ handler: @escaping @MainActor () -> Void) {
            if isFinished { handler() } else { finishedHandlers.append(handler) }
        }

        /// Runs after each appended chunk of a streaming body was written to the socket.
        public func onWroteChunk(_ handler: @escaping @MainActor () -> Void) {
            guard !isFinished else { return }
            connections.append(ref.connect("wrote-chunk") { [weak self] in
                guard let self, !self.isFinished else { return }
                handler()
            })
        }

        private func didFinish() {
            guard !isFinished else { return }
            isFinished = true
            disconnectWatch?.cancel()
            disconnectWatch = nil
            connections.forEach { $0.disconnect() }
            connections.removeAll()
            let handlers = finishedHandlers
            finishedHandlers.removeAll()
            handlers.forEach { $0() }
            inFlight = nil
        }

        // MARK: Helpers

        private static func decodeForm(_ encoded: String) -> [String: String] {
            guard let table = soup_form_decode(encoded) else { return [:] }
            defer { g_hash_table_unref(table) }
            var result: [String: String] = [:]
            var iterator = GHashTableIter()
            g_hash_table_iter_init(&iterator, table)
            var key: gpointer?
            var value: gpointer?
            while g_hash_table_iter_next(&iterator, &key, &value) != 0 {
                guard let key else { continue }
                result[String(cString: key.assumingMemoryBound(to: CChar.self))] =
                    value.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? ""
            }
            return result
        }

        private static func remoteAddress(of client: OpaquePointer) -> String {
            guard let address = soup_client_context_get_remote_address(client),
                  isInstance(address.raw, of: g_inet_socket_address_get_type()) else { return "?" }
            let inet = address.raw.as(GInetSocketAddress.self)
            let host = takeString(g_inet_address_to_string(g_inet_socket_address_get_address(inet))) ?? "?"
            return "\(host):\(g_inet_socket_address_get_port(inet))"
        }
    }
}

private let releaseBytesNotify: GDestroyNotify = { data in
    g_bytes_unref(OpaquePointer(data))
}
