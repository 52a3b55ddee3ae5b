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
        guard let uri = takeString(g_filename_to_uri(path, nil, nil)) else { return completion(.failed("")) }
        // libportal 0.6 dereferences the session bus without checking it exists (it does since 0.7).
        guard hasSessionBus else { return completion(settingOutcome(uri)) }
        let portal = ObjectRef(UnsafeMutableRawPointer(xdp_portal_new()!), transfer: .full)
        let call = PortalCall(portal: portal, parent: xdp_parent_new_gtk(parent.widget.raw.as(GtkWindow.self))) { error in
            guard let error else { return completion(.set(.portal)) }
            if g_error_matches(error, g_io_error_quark(), Int32(G_IO_ERROR_CANCELLED.rawValue)) != 0 {
                g_error_free(error)
                return completion(.cancelled)
            }
            // No portal on this bus, or one without a Wallpaper backend: the desktop's own setting instead.
            if error.pointee.domain == g_dbus_error_quark() {
                g_error_free(error)
                return completion(settingOutcome(uri))
            }
            completion(.failed(GLibError(consuming: error).message))
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

    private static var hasSessionBus: Bool {
        // The application's own connection when it has registered on the bus: no new connection is made.
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, nil) else { return false }
        g_object_unref(UnsafeMutableRawPointer(bus))
        return true
    }

    /// Sets GNOME's setting to `uri` when its schema is installed.
    private static func settingOutcome(_ uri: String) -> Outcome {
        guard let source = g_settings_schema_source_get_default(),
              let schema = g_settings_schema_source_lookup(source, schemaID, 1) else { return .unavailable }
        defer { g_settings_schema_unref(schema) }
        let settings = g_settings_new_full(schema, nil, nil)!
        defer { g_object_unref(UnsafeMutableRawPointer(settings)) }
        for key in ["picture-uri", "picture-uri-dark"] where g_settings_schema_has_key(schema, key) != 0 {
            g_settings_set_string(settings, key, uri)
        }
        // "none" shows no picture at all.
        if let options = takeString(g_settings_get_string(settings, "picture-options")), options == "none" {
            g_settings_set_string(settings, "picture-options", "zoom")
        }
        return .set(.gnomeSettings)
    }

    /// GNOME's background picture now (tests; nil without the schema).
    public static var gnomePictureURI: String? {
        guard let source = g_settings_schema_source_get_default(),
              let schema = g_settings_schema_source_lookup(source, schemaID, 1) else { return nil }
        defer { g_settings_schema_unref(schema) }
        let settings = g_settings_new_full(schema, nil, nil)!
        defer { g_object_unref(UnsafeMutableRawPointer(settings)) }
        return takeString(g_settings_get_string(settings, "picture-uri"))
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
