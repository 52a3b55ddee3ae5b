import CGLib
import GObjectBindings
import XCTest

/// A D-Bus service of a test's own on the session bus (.ci/headless's private one), on a connection of its
/// own: one object at `path` implementing the interface in `xml`, under a name it owns, so the app calls it as
/// it would call the desktop's. Each method call reaches `handler` on the main loop: the caller's unique name,
/// the method, its parameters and the invocation to answer.
@MainActor
final class FakeBusService {
    typealias Handler = @MainActor (_ sender: String, _ method: String, _ parameters: OpaquePointer,
                                    _ invocation: OpaquePointer) -> Void

    let connection: OpaquePointer
    private let handler: Handler

    init(name: String, path: String, xml: String, handler: @escaping Handler) throws {
        self.handler = handler
        var error: UnsafeMutablePointer<GError>?
        let address = g_dbus_address_get_for_bus_sync(G_BUS_TYPE_SESSION, nil, &error)
        guard let address else { throw GLibError(consuming: error!) }
        defer { g_free(address) }
        let flags = GDBusConnectionFlags(rawValue: G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue
                                         | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
        guard let connection = g_dbus_connection_new_for_address_sync(address, flags, nil, nil, &error) else {
            throw GLibError(consuming: error!)
        }
        self.connection = connection
        let node = g_dbus_node_info_new_for_xml(xml, &error)!
        defer { g_dbus_node_info_unref(node) }
        var vtable = GDBusInterfaceVTable()
        vtable.method_call = { _, sender, _, _, method, parameters, invocation, data in
            let service = Unmanaged<FakeBusService>.fromOpaque(data!).takeUnretainedValue()
            nonisolated(unsafe) let call = (sender, method, parameters, invocation)
            MainActor.assumeIsolated {
                guard let sender = call.0, let method = call.1, let parameters = call.2, let invocation = call.3 else { return }
                service.handler(String(cString: sender), String(cString: method), parameters, invocation)
            }
        }
        // Unretained: the connection is closed in deinit, before the service goes.
        let registered = g_dbus_connection_register_object(connection, path, node.pointee.interfaces[0], &vtable,
                                                            Unmanaged.passUnretained(self).toOpaque(), nil, &error)
        guard registered != 0 else { throw GLibError(consuming: error!) }
        let reply = g_dbus_connection_call_sync(connection, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                                "org.freedesktop.DBus", "RequestName",
                                                g_variant_new_tuple([g_variant_new_string(name), g_variant_new_uint32(4)], 2),
                                                nil, G_DBUS_CALL_FLAGS_NONE, -1, nil, &error)
        guard let reply else { throw GLibError(consuming: error!) }
        defer { g_variant_unref(reply) }
        let answer = g_variant_get_child_value(reply, 0)!
        defer { g_variant_unref(answer) }
        // 1: the primary owner. Anything else: a real service holds the name, and this one would not be asked.
        guard g_variant_get_uint32(answer) == 1 else {
            throw GLibError(domain: 0, code: 0, message: "\(name) is taken on the test's bus")
        }
    }

    isolated deinit {
        g_dbus_connection_close_sync(connection, nil, nil)
        g_object_unref(UnsafeMutableRawPointer(connection))
    }
}
