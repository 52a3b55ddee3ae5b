/// Resident memory of this process, as the kernel accounts it.
enum Memory {
    /// VmRSS from /proc/self/status, in MiB. Everything resident: the heap, pixel buffers, GTK's
    /// caches and the mapped parts of the shared libraries — what a user's system monitor shows.
    static func residentMiB() -> Double { ProcessStats.field("VmRSS:").map { $0 / 1024 } ?? .nan }
}
