import CGLib
import CSoup

extension Soup {
    /// An HTTP/1.1 server (SoupServer) on the GLib main loop. Keep-alive is libsoup's default.
    ///
    /// Handlers are closures per path prefix; each request reaches the handler of the longest matching prefix
    /// as a `ServerMessage`. A handler either answers before returning or pauses the message and answers later.
    /// `disconnect()` closes the listening socket and every client connection and releases the handler closures
    /// (which often capture their owner, so a server that is never disconnected keeps its owner alive).
    @MainActor
    public final class Server {
        public let ref: ObjectRef
        private var handlerPaths: Set<String> = []

        /// `serverHeader` becomes the `Server:` response header.
        public convenience init(serverHeader: String? = nil) {
            self.init(ObjectRef(gv_soup_server_new()!, transfer: .full), serverHeader: serverHeader)
        }

        /// A server that can listen with HTTPS (`listenLocal(https: true)`), using a PEM file that holds a
        /// certificate and its private key.
        public convenience init(serverHeader: String? = nil, tlsCertificatePEM path: String) throws(GLibError) {
            let certificate = try GLibError.check { error in g_tls_certificate_new_from_file(path, error) }!
            defer { g_object_unref(certificate.raw) }
            self.init(ObjectRef(gv_soup_server_new_with_tls(certificate)!, transfer: .full), serverHeader: serverHeader)
        }

        private init(_ ref: ObjectRef, serverHeader: String?) {
            self.ref = ref
            if let serverHeader { ref.set("server-header", serverHeader) }
        }

        var server: UnsafeMutablePointer<SoupServer> { ref.typed() }

        /// Starts listening on 127.0.0.1 only (never on other interfaces). `port` 0 picks a free port.
        /// Returns the bound port.
        /// With `https`, the server speaks TLS with the certificate it was created with.
        @discardableResult
        public func listenLocal(port: UInt16 = 0, https: Bool = false) throws(GLibError) -> UInt16 {
            let server = self.server
            let options = https ? SoupServerListenOptions(SOUP_SERVER_LISTEN_IPV4_ONLY.rawValue | SOUP_SERVER_LISTEN_HTTPS.rawValue)
                : SOUP_SERVER_LISTEN_IPV4_ONLY
            _ = try GLibError.check { error in
                soup_server_listen_local(server, guint(port), options, error)
            }
            guard let bound = boundPort else {
                throw GLibError(domain: gv_io_error_quark(), code: Int32(G_IO_ERROR_FAILED.rawValue),
                                message: tr("The server listens but reports no address"))
            }
            return bound
        }

        /// The port of the first listening socket, nil when not listening.
        public var boundPort: UInt16? {
            guard let uris = soup_server_get_uris(server) else { return nil }
            defer { g_slist_free_full(uris) { soup_uri_free($0?.assumingMemoryBound(to: SoupURI.self)) } }
            guard let first = uris.pointee.data else { return nil }
            return UInt16(first.assumingMemoryBound(to: SoupURI.self).pointee.port)
        }

        /// Handles requests whose path is `path` or below it ("/images" matches "/images/a.png");
        /// nil or "/" is the default handler. Replaces an earlier handler for the same path.
        public func addHandler(_ path: String?, _ handler: @escaping @MainActor (ServerMessage) -> Void) {
            let key = path ?? "/"
            let box = HandlerBox { [weak self] arguments in
                guard let self else { return }
                handler(ServerMessage(server: self, arguments: arguments))
            }
            soup_server_add_handler(server, key, handlerTrampoline, Unmanaged.passRetained(box).toOpaque(),
                                    releaseBoxNotify)
            handlerPaths.insert(key)
        }

        public func removeHandler(_ path: String?) {
            let key = path ?? "/"
            guard handlerPaths.remove(key) != nil else { return }
            soup_server_remove_handler(server, key)
        }

        /// Stops listening, drops client connections and releases every handler closure. Idempotent.
        public func disconnect() {
            soup_server_disconnect(server)
            for path in handlerPaths { soup_server_remove_handler(server, path) }
            handlerPaths.removeAll()
        }
    }
}

/// What a SoupServerCallback receives, with the pointers valid for the duration of the call.
struct ServerCallbackArguments {
    let message: UnsafeMutablePointer<SoupMessage>
    let path: String
    let client: OpaquePointer?
}

private typealias HandlerBox = SignalHandlerBox<ServerCallbackArguments, Void>

// Shape: void callback(SoupServer *, SoupMessage *, const char *path, GHashTable *query,
//                      SoupClientContext *client, gpointer user_data)
private let handlerTrampoline: SoupServerCallback = { _, message, path, _, client, data in
    let box = HandlerBox.from(data)
    nonisolated(unsafe) let arguments = ServerCallbackArguments(
        message: message!, path: path.map { String(cString: $0) } ?? "/", client: client)
    MainActor.assumeIsolated { box.handler(arguments) }
}
