import CGtk
import GObjectBindings

/// Resident memory of this process, as the kernel accounts it.
enum Memory {
    /// VmRSS from /proc/self/status, in MiB. Everything resident: the heap, pixel buffers, GTK's
    /// caches and the mapped parts of the shared libraries — what a user's system monitor shows.
    static func residentMiB() -> Double { statusField("VmRSS") }

    /// VmHWM: the highest VmRSS of the process so far, in MiB (the kernel's own peak, so no sampling misses
    /// a short spike).
    static func peakResidentMiB() -> Double { statusField("VmHWM") }

    private static func statusField(_ name: String) -> Double {
        var contents: UnsafeMutablePointer<CChar>?
        guard g_file_get_contents("/proc/self/status", &contents, nil, nil) != 0,
              let text = takeString(contents) else { return .nan }
        for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
            // "VmRSS:\t  123456 kB"
            let kilobytes = line.dropFirst(name.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" })
                .first.flatMap { Double($0) }
            return (kilobytes ?? .nan) / 1024
        }
        return .nan
    }
}
