import CGtk
import GObjectBindings

/// The GtkApplication: registers the app id, owns the windows, and runs the GLib main loop.
@MainActor
public final class Application {
    public let ref: ObjectRef

    /// `unique: false` lets several instances run side by side (tests, several galleries at once).
    public init(id: String, unique: Bool = false) {
        let flags = unique ? G_APPLICATION_DEFAULT_FLAGS : G_APPLICATION_NON_UNIQUE
        ref = ObjectRef(gtk_application_new(id, flags)!, transfer: .full)
    }

    private var application: UnsafeMutablePointer<GApplication> { ref.typed() }

    /// Once per process, before the first window: actions, accelerators, CSS.
    public func onStartup(_ handler: @escaping @MainActor () -> Void) { ref.connect("startup", handler) }

    /// Each launch: present the window.
    public func onActivate(_ handler: @escaping @MainActor () -> Void) { ref.connect("activate", handler) }

    /// Just before `run` returns.
    public func onShutdown(_ handler: @escaping @MainActor () -> Void) { ref.connect("shutdown", handler) }

    /// Runs the main loop until the last window closes or `quit()` is called. Arguments were parsed before;
    /// GApplication only sees the program name.
    public func run(programName: String) -> Int32 {
        var argv: [UnsafeMutablePointer<CChar>?] = [strdup(programName), nil]
        defer { free(argv[0]) }
        return g_application_run(application, 1, &argv)
    }

    public func quit() { g_application_quit(application) }

    /// Registers without running, for tests that create windows directly. `run` registers by itself.
    public func register() throws(GLibError) {
        _ = try GLibError.check { error in g_application_register(application, nil, error) }
    }

    @discardableResult
    public func addAction(_ name: String, accelerators: [String] = [],
                          _ activate: @escaping @MainActor () -> Void) -> SimpleAction {
        let action = SimpleAction.add(to: ref, name: name, activate)
        setAccelerators(accelerators, for: "app." + name)
        return action
    }

    /// Keyboard shortcuts for a detailed action name ("app.quit", "win.back"), e.g. ["<Primary>q"].
    public func setAccelerators(_ accelerators: [String], for action: String) {
        guard !accelerators.isEmpty else { return }
        var pointers = accelerators.map { UnsafePointer(strdup($0)) } + [nil]
        defer { pointers.forEach { free(UnsafeMutableRawPointer(mutating: $0)) } }
        gtk_application_set_accels_for_action(ref.typed(), action, &pointers)
    }
}
