internal import CGLib
internal import CGtk
internal import CPortal
import GObjectBindings

/// Sets the desktop background to a local image file, as GNOME's image viewers do: through
/// xdg-desktop-portal's Wallpaper portal (libportal) where a portal answers on the session bus — it shows its
/// own preview, in which the user may still cancel —, else through GNOME's `org.gnome.desktop.background`
/// setting (both the light and the dark style's picture) where that schema is installed.
@MainActor
public enum DesktopBackground {
    public enum Outcome: Equatable, Sendable {
        /// Set, by the portal or the setting.
        case set(Route)
        /// The user cancelled in the portal's preview.
        case cancelled
        /// Neither a portal nor GNOME's setting is there to set it with.
        case unavailable
        /// The portal refused or failed: its message.
        case failed(String)
    }

    public enum Route: Sendable {
        case portal
        case gnomeSettings
    }

    /// GNOME's background setting and its keys.
    static let schemaID = "org.gnome.desktop.background"

    /// Sets `path` (an image file) as the background; `completion` runs once on the main loop.
    public static func set(file path: String, parent: ApplicationWindow,
                           completion: @escaping @MainActor (Outcome) -> Void) {
        guard let uri = takeString(g_filename_to_uri(path, nil, nil)) else {
            return completion(.failed(tr("The file has no address to give the desktop.")))
        }
        // Asked of the application, without I/O: is it on the session bus? Without one there is no portal, and
        // no dconf to keep GNOME's setting either (libportal 0.6 would also crash: it dereferences the bus
        // without checking it exists). With one, libportal's g_bus_get_sync returns that same connection.
        guard let application = g_application_get_default(), g_application_get_dbus_connection(application) != nil else {
            return completion(.unavailable)
        }
        let portal = ObjectRef(UnsafeMutableRawPointer(xdp_portal_new()!), transfer: .full)
        let call = PortalCall(portal: portal, parent: xdp_parent_new_gtk(parent.widget.raw.as(GtkWindow.self))) { error in
            guard let error else { return completion(.set(.portal)) }
            if g_error_matches(error, g_io_error_quark(), Int32(G_IO_ERROR_CANCELLED.rawValue)) != 0 {
                g_error_free(error)
                return completion(.cancelled)
            }
            // No portal on this bus, or one without a Wallpaper backend: the desktop's own setting instead. A
            // portal that answered and refused is not gone around.
            let absent = [G_DBUS_ERROR_SERVICE_UNKNOWN, G_DBUS_ERROR_NAME_HAS_NO_OWNER, G_DBUS_ERROR_UNKNOWN_METHOD,
                          G_DBUS_ERROR_UNKNOWN_INTERFACE, G_DBUS_ERROR_UNKNOWN_OBJECT]
            if absent.contains(where: { g_error_matches(error, g_dbus_error_quark(), Int32($0.rawValue)) != 0 }) {
                g_error_free(error)
                return completion(settingOutcome(uri))
            }
            g_dbus_error_strip_remote_error(error)
            let message = GLibError(consuming: error).message
            completion(.failed(message.isEmpty || message == "SetWallpaper failed"
                               ? tr("The desktop did not set the background.") : message))
        }
        let flags = XdpWallpaperFlags(rawValue: XDP_WALLPAPER_FLAG_BACKGROUND.rawValue | XDP_WALLPAPER_FLAG_PREVIEW.rawValue)
        xdp_portal_set_wallpaper(portal.opaque, call.parent, uri, flags, nil, { source, result, data in
            let call = Unmanaged<PortalCall>.fromOpaque(data!).takeRetainedValue()
            var error: UnsafeMutablePointer<GError>?
            _ = xdp_portal_set_wallpaper_finish(OpaquePointer(source), result, &error)
            nonisolated(unsafe) let failure = error
            MainActor.assumeIsolated { call.finish(failure) }
        }, Unmanaged.passRetained(call).toOpaque())
    }

    /// Sets GNOME's setting to `uri` when its schema is installed.
    private static func settingOutcome(_ uri: String) -> Outcome {
        let set: Bool? = withGnomeSetting { settings, schema in
            for key in ["picture-uri", "picture-uri-dark"] where g_settings_schema_has_key(schema, key) != 0 {
                g_settings_set_string(settings, key, uri)
            }
            // "none" shows no picture at all.
            if let options = takeString(g_settings_get_string(settings, "picture-options")), options == "none" {
                g_settings_set_string(settings, "picture-options", "zoom")
            }
            return true
        }
        return set == nil ? .unavailable : .set(.gnomeSettings)
    }

    /// GNOME's background picture now (tests; nil without the schema).
    public static var gnomePictureURI: String? {
        withGnomeSetting { settings, _ in takeString(g_settings_get_string(settings, "picture-uri")) } ?? nil
    }

    /// `body` with GNOME's background setting and its schema; nil when the schema is not installed (looked up
    /// first: GSettings aborts on a schema it does not know).
    private static func withGnomeSetting<Result>(_ body: (UnsafeMutablePointer<GSettings>, OpaquePointer) -> Result) -> Result? {
        guard let source = g_settings_schema_source_get_default(),
              let schema = g_settings_schema_source_lookup(source, schemaID, 1) else { return nil }
        defer { g_settings_schema_unref(schema) }
        let settings = g_settings_new_full(schema, nil, nil)!
        defer { g_object_unref(UnsafeMutableRawPointer(settings)) }
        return body(settings, schema)
    }
}

/// One request to the portal, alive until its answer: the portal object and the exported parent window.
@MainActor
private final class PortalCall {
    let portal: ObjectRef
    let parent: OpaquePointer?
    private let completion: @MainActor (UnsafeMutablePointer<GError>?) -> Void

    init(portal: ObjectRef, parent: OpaquePointer?, completion: @escaping @MainActor (UnsafeMutablePointer<GError>?) -> Void) {
        self.portal = portal
        self.parent = parent
        self.completion = completion
    }

    func finish(_ error: UnsafeMutablePointer<GError>?) { completion(error) }

    isolated deinit { if let parent { xdp_parent_free(parent) } }
}
