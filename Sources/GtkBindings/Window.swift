internal import CGLib
internal import CGtk
import GObjectBindings

/// An application window. Closing it (title bar, Ctrl+W, `close()`) destroys it; the application quits when
/// its last window is gone.
@MainActor
public final class ApplicationWindow: Bin, ActionMap {
    public init(application: Application) {
        super.init(gtk_application_window_new(application.ref.typed()))
    }

    /// The window's "win.*" actions.
    public var actionMap: ActionMapHandle { ActionMapHandle(ref: ref) }

    private var window: UnsafeMutablePointer<GtkWindow> { widget.raw.as(GtkWindow.self) }

    /// Set only when it changes: the same title set again still passes to a header bar, which then lays out
    /// and redraws itself whole.
    public var title: String? {
        get { string(gtk_window_get_title(window)) }
        set {
            guard newValue != title else { return }
            gtk_window_set_title(window, newValue)
        }
    }

    public func setDefaultSize(width: Int, height: Int) {
        gtk_window_set_default_size(window, Int32(width), Int32(height))
    }

    public func setTitlebar(_ titlebar: Widget) { gtk_window_set_titlebar(window, titlebar.widget) }

    /// Shows the window and asks the window manager to raise and focus it.
    public func present() { gtk_window_present(window) }

    public func close() { gtk_window_close(window) }

    /// The X11/Wayland window is mapped and the window is the active one.
    public var isActive: Bool { gtk_window_is_active(window) != 0 }

    /// Opens `uri` in the user's browser or default application.
    public func openURI(_ uri: String) throws(GLibError) {
        _ = try GLibError.check { error in gtk_show_uri_on_window(window, uri, guint32(GDK_CURRENT_TIME), error) }
    }

    /// Size of the monitor the window is on, in device pixels (a bound for decoding large images). Found from
    /// the window's middle as GDK last heard of it (its configure events), not by asking the X server, which
    /// `gdk_display_get_monitor_at_window` does twice, synchronously — waiting while the server draws.
    public var monitorPixelSize: (width: Int, height: Int) {
        let display = gtk_widget_get_display(widget)
        let gdkWindow = gtk_widget_get_window(widget)
        let monitor = gdkWindow.flatMap { window -> OpaquePointer? in
            var x: Int32 = 0
            var y: Int32 = 0
            gdk_window_get_position(window, &x, &y)
            return gdk_display_get_monitor_at_point(display, x + gdk_window_get_width(window) / 2,
                                                    y + gdk_window_get_height(window) / 2)
        } ?? gdk_display_get_primary_monitor(display) ?? gdk_display_get_monitor(display, 0)
        guard let monitor else { return (1920, 1080) }
        var geometry = GdkRectangle()
        gdk_monitor_get_geometry(monitor, &geometry)
        let scale = Int(gdk_monitor_get_scale_factor(monitor))
        return (Int(geometry.width) * scale, Int(geometry.height) * scale)
    }

    /// Shows a modal message dialog; it closes itself when dismissed.
    public func showMessage(_ text: String, secondary: String? = nil, type: MessageType = .error) {
        let dialog = gv_message_dialog_new(window, type.gtk, GTK_BUTTONS_CLOSE, text)!
        let object = ObjectRef(dialog, transfer: .none)
        // gtk_message_dialog_format_secondary_text is variadic: the property takes the text as it is.
        if let secondary { object.set("secondary-text", secondary) }
        object.connectInt("response") { _ in gtk_widget_destroy(dialog) }
        gtk_widget_show(dialog)
    }

    /// The icon of every window of the app that sets none of its own (title bar, window switcher, dialogs):
    /// a themed icon's name, such as the app id the installed icons are named after.
    public static func setDefaultIconName(_ name: String) {
        gtk_window_set_default_icon_name(name)
    }
}

extension ApplicationWindow {
    /// Asks the window manager for full screen (or to leave it); `onFullscreenChanged` reports what it did.
    public func setFullscreen(_ fullscreen: Bool) {
        if fullscreen { gtk_window_fullscreen(widget.raw.as(GtkWindow.self)) } else {
            gtk_window_unfullscreen(widget.raw.as(GtkWindow.self))
        }
    }

    /// Calls `handler` when the window enters or leaves full screen (by the app's request or the user's).
    public func onFullscreenChanged(_ handler: @escaping @MainActor (Bool) -> Void) {
        ref.connectEvent("window-state-event") { event in
            guard let state = event?.as(GdkEventWindowState.self).pointee,
                  state.changed_mask.rawValue & GDK_WINDOW_STATE_FULLSCREEN.rawValue != 0 else { return false }
            handler(state.new_window_state.rawValue & GDK_WINDOW_STATE_FULLSCREEN.rawValue != 0)
            return false
        }
    }

    /// Calls `handler` when the window is minimized (iconified) or brought back. Its widgets stay mapped
    /// meanwhile, so what only the user sees (an animation) has to follow this too.
    public func onMinimizedChanged(_ handler: @escaping @MainActor (Bool) -> Void) {
        ref.connectEvent("window-state-event") { event in
            guard let state = event?.as(GdkEventWindowState.self).pointee,
                  state.changed_mask.rawValue & GDK_WINDOW_STATE_ICONIFIED.rawValue != 0 else { return false }
            handler(state.new_window_state.rawValue & GDK_WINDOW_STATE_ICONIFIED.rawValue != 0)
            return false
        }
    }
}
