internal import CGLib

/// GDK 3 on X11 probes the GLX visuals as it opens the display, on every start: tens of milliseconds (most of
/// GTK's start-up under a software GL such as Xvfb's), for GL contexts this app never makes — it draws with
/// cairo, and plays video through the software `gtksink`. So GL is left off, unless the environment already
/// says what GDK should do with it (`GDK_GL`).
public enum OpenGLSupport {
    /// Before GTK opens the display.
    public static func leaveOffUnlessAsked() {
        g_setenv("GDK_GL", "disable", 0)
    }
}
