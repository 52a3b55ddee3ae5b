import CGLib

/// GLib's monotonic clock, the main loop's own: it never jumps with the wall clock.
public enum MonotonicClock {
    /// Microseconds since an arbitrary point (the system's start).
    public static var microseconds: Int { Int(g_get_monotonic_time()) }
}
