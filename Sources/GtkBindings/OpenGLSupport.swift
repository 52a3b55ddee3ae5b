internal import CGLib

/// GDK 3 on X11 probes the GLX visuals as it opens the display, on every start: tens of milliseconds (most of
/// GTK's start-up under a software GL such as Xvfb's), for GL contexts this app never makes — it draws with
/// cairo, and plays video through the software `gtksink`. So GL is left off (`GDK_GL=disable`), unless the
/// environment already says what GDK should do with it; and taken out of the environment again once GTK has
/// read it, so that the programs the app starts (Open With…, the browser) get GL as usual.
public enum OpenGLSupport {
    /// Whether `leaveOffUnlessAsked` set the variable (rather than the user).
    nonisolated(unsafe) private static var didSet = false

    /// At the start of `main`, before any thread is started and before GTK opens the display.
    public static func leaveOffUnlessAsked() {
        guard g_getenv("GDK_GL") == nil else { return }
        didSet = g_setenv("GDK_GL", "disable", 0) != 0
    }

    /// Once GTK is initialised (it reads the variable then, once): programs the app starts inherit the
    /// environment as the user had it.
    public static func forgetForChildren() {
        guard didSet else { return }
        g_unsetenv("GDK_GL")
        didSet = false
    }
}
