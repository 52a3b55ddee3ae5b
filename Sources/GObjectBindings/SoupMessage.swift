import CGLib
import CSoup

extension Soup {
    /// An HTTP request and, once sent, its response status and headers.
    public final class Message {
        public let ref: ObjectRef

        /// nil when `url` is not an absolute http(s) URL libsoup accepts.
        public init?(method: String = "GET", url: String) {
            guard let message = soup_message_new(method, url) else { return nil }
            ref = ObjectRef(message, transfer: .full)
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
        /// after any wait in the session's queue for a free connection. An answer the cache gives without
        /// asking the server does not run it.
        @MainActor
        public func onStarting(_ handler: @escaping @MainActor () -> Void) {
            ref.connect("starting", handler)
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
