internal import CGLib
internal import CGtk
import GObjectBindings

/// Keeps the session from blanking the screen while something is watched (a slideshow), through GNOME's
/// session manager (`org.gnome.SessionManager.Inhibit`, the flag for idle), as Eye of GNOME does.
/// `gtk_application_inhibit` makes that same call synchronously, with no timeout, on the main loop: here it is
/// asynchronous, and bounded. Where no session manager answers (another desktop, a test's bus) nothing is
/// inhibited and nothing is said: the screen may blank, as it would for any other app there.
@MainActor
public final class IdleInhibitor {
    /// The session manager's answer, while inhibited.
    public private(set) var cookie: UInt32?
    /// Inhibiting is wanted (asked for, and not ended since).
    private var wanted = false
    private var isAsking = false
    private var connection: OpaquePointer?

    /// How long the session manager may take to answer.
    static let timeoutMilliseconds: Int32 = 10_000
    static let name = "org.gnome.SessionManager"
    static let path = "/org/gnome/SessionManager"
    /// GsmInhibitorFlag: the session is not to be marked idle.
    static let idleFlag: UInt32 = 8

    public init() {}

    /// Asks for the screen to stay on; `reason` is shown where the session lists what keeps it awake.
    public func inhibit(reason: String) {
        wanted = true
        guard cookie == nil, !isAsking, let application = g_application_get_default(),
              let connection = g_application_get_dbus_connection(application) else { return }
        self.connection = connection
        isAsking = true
        let appID = string(g_application_get_application_id(application)) ?? ""
        let parameters = g_variant_new_tuple([g_variant_new_string(appID), g_variant_new_uint32(0),
                                              g_variant_new_string(reason), g_variant_new_uint32(Self.idleFlag)], 4)
        let replyType = g_variant_type_new("(u)")
        defer { g_variant_type_free(replyType) }
        // The connection outlives this object (the application holds it), so an answer that comes after the
        // inhibitor went away can still end the inhibition it made.
        g_object_ref(UnsafeMutableRawPointer(connection))
        AsyncCallback { [weak self] _, result in
            defer { g_object_unref(UnsafeMutableRawPointer(connection)) }
            var error: UnsafeMutablePointer<GError>?
            let reply = g_dbus_connection_call_finish(connection, result, &error)
            if let error { g_error_free(error) }
            var cookie: UInt32?
            if let reply {
                if let value = g_variant_get_child_value(reply, 0) {
                    cookie = g_variant_get_uint32(value)
                    g_variant_unref(value)
                }
                g_variant_unref(reply)
            }
            guard let self else {
                if let cookie { Self.uninhibit(cookie, on: connection) }
                return
            }
            self.isAsking = false
            self.cookie = cookie
            if !self.wanted { self.uninhibit() }
        }.pass {
            g_dbus_connection_call(connection, Self.name, Self.path, Self.name, "Inhibit", parameters, replyType,
                                   G_DBUS_CALL_FLAGS_NO_AUTO_START, Self.timeoutMilliseconds, nil, $0, $1)
        }
    }

    /// The screen may blank again (at once, or when the session manager's answer comes).
    public func uninhibit() {
        wanted = false
        guard let cookie, let connection else { return }
        self.cookie = nil
        Self.uninhibit(cookie, on: connection)
    }

    /// Fire and forget: nothing waits for the answer.
    private static func uninhibit(_ cookie: UInt32, on connection: OpaquePointer) {
        g_dbus_connection_call(connection, name, path, name, "Uninhibit", g_variant_new_tuple([g_variant_new_uint32(cookie)], 1),
                               nil, G_DBUS_CALL_FLAGS_NO_AUTO_START, -1, nil, nil, nil)
    }

    isolated deinit { uninhibit() }
}
