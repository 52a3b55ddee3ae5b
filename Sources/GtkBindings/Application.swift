internal import CGLib
internal import CGtk
import GObjectBindings

/// The GtkApplication: registers the app id, owns the windows, and runs the GLib main loop.
@MainActor
public final class Application: ActionMap {
    @_spi(GtkInterop) public let ref: ObjectRef

    /// `unique: false` lets several instances run side by side (tests, several galleries at once).
    /// `handlesCommandLine`: the instance that owns the app id on the session bus receives every launch's
    /// arguments and environment (`onCommandLine`), its own and those of later launches, which then exit.
    /// Without a session bus the app runs on its own, as a non-unique one.
    public init(id: String, unique: Bool = false, handlesCommandLine: Bool = false) {
        var flags = unique ? G_APPLICATION_DEFAULT_FLAGS.rawValue : G_APPLICATION_NON_UNIQUE.rawValue
        if handlesCommandLine {
            flags |= G_APPLICATION_HANDLES_COMMAND_LINE.rawValue | G_APPLICATION_SEND_ENVIRONMENT.rawValue
        }
        ref = ObjectRef(gtk_application_new(id, GApplicationFlags(rawValue: flags))!, transfer: .full)
    }

    private var application: UnsafeMutablePointer<GApplication> { ref.typed() }

    public var actionMap: ActionMapHandle { ActionMapHandle(ref: ref) }

    /// Once per process, before the first window: actions, accelerators, CSS.
    public func onStartup(_ handler: @escaping @MainActor () -> Void) { ref.connect("startup", handler) }

    /// Each launch: present the window.
    public func onActivate(_ handler: @escaping @MainActor () -> Void) { ref.connect("activate", handler) }

    /// A launch's command line, in the primary instance (see `handlesCommandLine`). Return true when it
    /// failed: the launching process then exits with status 1, otherwise 0, as soon as the handler returned.
    public func onCommandLine(_ handler: @escaping @MainActor (ApplicationCommandLine) -> Bool) {
        // `command-line` returns the exit status (a gint); a gboolean-returning handler gives 0 or 1.
        ref.connectEvent("command-line") { pointer in
            guard let pointer else { return true }
            return handler(ApplicationCommandLine(pointer.as(GApplicationCommandLine.self)))
        }
    }

    /// Just before `run` returns.
    public func onShutdown(_ handler: @escaping @MainActor () -> Void) { ref.connect("shutdown", handler) }

    /// Runs the main loop until the last window closes or `quit()` is called. With `handlesCommandLine`,
    /// `arguments` (program name first) go to the primary instance's `onCommandLine`; otherwise GApplication
    /// only needs the program name.
    public func run(arguments: [String]) -> Int32 {
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        return g_application_run(application, Int32(arguments.count), &argv)
    }

    public func quit() { g_application_quit(application) }

    /// Registers without running, for tests that create windows directly. `run` registers by itself.
    public func register() throws(GLibError) {
        _ = try GLibError.check { error in g_application_register(application, nil, error) }
    }

    /// Sends a desktop notification (GNotification); a later one with the same `id` replaces it, also one of an
    /// earlier run. A click activates `defaultAction` (an "app." action). False when none can be sent: GLib
    /// needs the app registered, primary, and on a session bus (a cron job has none, and GLib would
    /// dereference the missing connection).
    @discardableResult
    public func sendNotification(id: String, title: String, body: String, defaultAction: String) -> Bool {
        guard g_application_get_is_registered(application) != 0, g_application_get_is_remote(application) == 0,
              g_application_get_dbus_connection(application) != nil else { return false }
        let notification = g_notification_new(title)
        defer { g_object_unref(UnsafeMutableRawPointer(notification)) }
        g_notification_set_body(notification, body)
        g_notification_set_default_action(notification, defaultAction)
        g_application_send_notification(application, id, notification)
        return true
    }

    /// Takes back the notification sent with `id`, if it is still shown.
    public func withdrawNotification(id: String) {
        guard g_application_get_is_registered(application) != 0, g_application_get_is_remote(application) == 0 else { return }
        g_application_withdraw_notification(application, id)
    }

    @discardableResult
    public func addAction(_ name: String, accelerators: [String] = [],
                          _ activate: @escaping @MainActor () -> Void) -> SimpleAction {
        let action = SimpleAction.add(to: self, name: name, activate)
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

/// One launch's command line as the primary instance receives it: from this process, or from a later
/// launch that handed over, whose environment and terminal are its own.
@MainActor
public struct ApplicationCommandLine {
    private let commandLine: UnsafeMutablePointer<GApplicationCommandLine>

    init(_ commandLine: UnsafeMutablePointer<GApplicationCommandLine>) { self.commandLine = commandLine }

    /// The arguments, program name first.
    public var arguments: [String] {
        var count: Int32 = 0
        guard let argv = g_application_command_line_get_arguments(commandLine, &count) else { return [] }
        defer { g_strfreev(argv) }
        return (0..<Int(count)).compactMap { argv[$0].map { String(cString: $0) } }
    }

    /// A variable of the launching process's environment.
    public func environment(_ name: String) -> String? {
        string(g_application_command_line_getenv(commandLine, name))
    }

    /// Writes to the launching process's standard error.
    public func printError(_ text: String) { gv_command_line_printerr(commandLine, text) }
}
