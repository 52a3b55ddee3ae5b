import CGLib

/// The running program as GLib sees it: its names, its environment, where its binary is.
public enum Program {
    /// The program's name for the desktop: X11's window class, which a desktop entry's StartupWMClass matches.
    public static func setName(_ name: String) { g_set_prgname(name) }

    /// The name people read (the window switcher, GLib's own messages).
    public static func setDisplayName(_ name: String) { g_set_application_name(name) }

    /// A variable of this process's environment.
    public static func environment(_ name: String) -> String? { string(g_getenv(name)) }

    /// The folder of the running binary (through /proc, symbolic links resolved); nil where /proc is not there.
    public static var executableDirectory: String? {
        guard let executable = takeString(g_file_read_link("/proc/self/exe", nil)) else { return nil }
        return takeString(g_path_get_dirname(executable))
    }
}
