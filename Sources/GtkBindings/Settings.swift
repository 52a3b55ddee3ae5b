internal import CGLib
internal import CGtk
import GObjectBindings

/// The desktop's settings as GTK reads them (GtkSettings of the default screen: XSETTINGS on X11, the
/// settings portal or GSettings elsewhere).
@MainActor
public final class Settings {
    private let ref: ObjectRef

    private init(_ settings: UnsafeMutablePointer<GtkSettings>) { ref = ObjectRef(settings, transfer: .none) }

    /// The default screen's settings; nil before GTK is initialised (no display).
    public static var `default`: Settings? { gtk_settings_get_default().map(Settings.init) }

    /// `gtk-enable-animations`: off when the user asked the desktop for reduced motion (GNOME's "Animations"
    /// switch, `org.gnome.desktop.interface enable-animations`). Settable for tests.
    public var enableAnimations: Bool {
        get { ref.bool("gtk-enable-animations") }
        set { ref.set("gtk-enable-animations", newValue) }
    }

    /// Calls `handler` with the new value whenever `gtk-enable-animations` changes. The settings live as long
    /// as the display: disconnect the returned connection when the one who listens goes.
    public func onEnableAnimationsChanged(_ handler: @escaping @MainActor (Bool) -> Void) -> SignalConnection {
        ref.connectWithEmitter("notify::gtk-enable-animations") { (emitter: SignalEmitter, _: UnsafeMutableRawPointer?) in
            handler(ObjectRef(emitter.pointer, transfer: .none).bool("gtk-enable-animations"))
        }
    }
}
