import GObjectBindings
#if canImport(Glibc)
import Glibc
#endif

/// How decoder helpers are started: where `gallery-decoder` is, its limits, and the bubblewrap command that
/// shuts it in a namespace sandbox where bubblewrap can make one.
///
/// Environment knobs (tests and troubleshooting): `GALLERY_DECODER` is the helper's path;
/// `GALLERY_DECODER_SANDBOX=no-namespaces` starts helpers without bubblewrap, as where it cannot work.
public struct DecoderSandbox: Sendable {
    public var helperPath: String?
    /// bubblewrap's path, nil when it is missing or turned off.
    public var bubblewrapPath: String?
    /// The helper's address-space limit: the smaller of 1 GiB and half of the memory available at start.
    public var memoryLimit: Int
    /// CPU seconds a helper may use in its life (a backstop: the app times each image itself).
    public var cpuLimit = 120
    /// Wall time one image may take before its helper is killed.
    public var decodeTimeoutMilliseconds: Int32 = 60_000
    /// At most this many helper starts within `startWindowMicroseconds`; decodes wait for the window to move
    /// on, so that images which each crash their decoder cannot fork without end.
    public var maxStartsPerWindow = 16
    public var startWindowMicroseconds = 10_000_000

    public init(helperPath: String? = DecoderSandbox.findHelper(),
                bubblewrapPath: String? = DecoderSandbox.findBubblewrap(),
                memoryLimit: Int = DecoderSandbox.defaultMemoryLimit()) {
        self.helperPath = helperPath
        self.bubblewrapPath = bubblewrapPath
        self.memoryLimit = memoryLimit
    }

    /// The helper's arguments, inside bubblewrap when `namespaces`: a helper that decodes `formats` and loads
    /// only their loaders.
    func command(namespaces: Bool, formats: [ImageFormat] = ImageFormat.allCases) -> [String]? {
        guard let helperPath else { return nil }
        let helper = [helperPath, "--memory-limit", String(memoryLimit), "--cpu-limit", String(cpuLimit),
                      "--formats", formats.map(\.loaderName).joined(separator: ",")]
        guard namespaces, let bubblewrapPath else { return helper }
        var arguments = [bubblewrapPath, "--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL",
                         "--ro-bind", "/usr", "/usr", "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp",
                         "--dir", "/home/decoder", "--setenv", "HOME", "/home/decoder", "--chdir", "/"]
        // Merged /usr makes /lib, /bin… symlinks; older systems have directories there.
        for top in ["/lib", "/lib64", "/lib32", "/bin", "/sbin"] {
            if let target = Self.linkTarget(top) {
                arguments += ["--symlink", target, top]
            } else if access(top, F_OK) == 0 {
                arguments += ["--ro-bind", top, top]
            }
        }
        // What the dynamic linker and (for SVG's text) fontconfig read; the helper itself, and the Swift runtime
        // of a debug build (a release build links it statically).
        let fontconfig = formats.contains(.svg) ? ["/etc/fonts", "/var/cache/fontconfig"] : []
        for path in ["/etc/ld.so.cache"] + fontconfig + [helperPath] + Self.runtimeDirectories {
            arguments += ["--ro-bind-try", path, path]
        }
        return arguments + ["--"] + helper
    }

    /// `gallery-decoder` beside the running program (a build directory, a test bundle's), or where `make
    /// install` puts it: PREFIX/libexec/gallery-viewer beside PREFIX/bin by default, else the directory the
    /// install wrote down (`installedHelperDirectory`).
    public static func findHelper() -> String? {
        if let path = getenv("GALLERY_DECODER").map({ String(cString: $0) }) { return path }
        guard let program = linkTarget("/proc/self/exe") else { return nil }
        let directory = FileSystem.directoryName(of: program)
        let beside = [directory + "/gallery-decoder", directory + "/../libexec/gallery-viewer/gallery-decoder"]
        if let found = beside.first(where: { access($0, X_OK) == 0 }) { return found }
        guard let installed = installedHelperDirectory(programDirectory: directory) else { return nil }
        return access(installed + "/gallery-decoder", X_OK) == 0 ? installed + "/gallery-decoder" : nil
    }

    /// The helper's directory as `make install LIBEXECDIR=…` wrote it into
    /// PREFIX/share/gallery-viewer/helper-directory (one absolute path), found from the program's directory
    /// as the app's other installed data.
    static func installedHelperDirectory(programDirectory: String) -> String? {
        let file = programDirectory + "/../share/gallery-viewer/helper-directory"
        guard let text = File.smallText(atPath: file, maxBytes: 4096),
              let line = text.split(separator: "\n").first, line.hasPrefix("/") else { return nil }
        return String(line)
    }

    private static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink(path, &buffer, buffer.count)
        return length > 0 ? String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self) : nil
    }

    public static func findBubblewrap() -> String? {
        if let knob = getenv("GALLERY_DECODER_SANDBOX"), String(cString: knob) == "no-namespaces" { return nil }
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/bwrap" }.first { access($0, X_OK) == 0 }
    }

    public static func defaultMemoryLimit() -> Int {
        let gibibyte = 1 << 30
        guard let available = MemoryInfo.availableBytes() else { return gibibyte }
        return min(gibibyte, available / 2)
    }

    /// Directories of the shared libraries outside /usr this process runs on (the Swift runtime of a debug
    /// build), which the helper, built the same way, needs too. Read once: the maps of a running app are long.
    static let runtimeDirectories = readRuntimeDirectories()

    private static func readRuntimeDirectories() -> [String] {
        guard let maps = File.smallText(atPath: "/proc/self/maps") else { return [] }
        var directories: Set<String> = []
        for line in maps.split(separator: "\n") {
            guard let slash = line.firstIndex(of: "/") else { continue }
            let path = line[slash...]
            guard path.contains("libswift"), !path.hasPrefix("/usr/"), let last = path.lastIndex(of: "/") else { continue }
            directories.insert(String(path[..<last]))
        }
        return directories.sorted()
    }
}

enum MemoryInfo {
    /// MemAvailable from /proc/meminfo, in bytes.
    static func availableBytes() -> Int? {
        guard let text = File.smallText(atPath: "/proc/meminfo") else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("MemAvailable:") {
            let fields = line.split(separator: " ")
            if fields.count >= 2, let kibibytes = Int(fields[1]) { return kibibytes * 1024 }
        }
        return nil
    }
}

extension DecoderSandbox {
    /// What a helper runs under here, found by starting one and reading its greeting (blocking: for
    /// `--version`). Nil when no helper could start.
    public func probe() -> (protections: DecodeReply.Protections, namespaces: Bool)? {
        for namespaces in [true, false] where namespaces == false || bubblewrapPath != nil {
            guard let command = command(namespaces: namespaces),
                  case .success(let process) = DecoderProcess.spawn(command) else { continue }
            defer { process.stop() }
            if case .success(let protections) = process.awaitReady(timeoutMilliseconds: decodeTimeoutMilliseconds) {
                return (protections, namespaces)
            }
        }
        return nil
    }

    /// `probe`'s answer as a person reads it, one line.
    public func protectionSummary() -> String {
        guard let (protections, namespaces) = probe() else {
            return tr("Image decoding: no decoder helper could start (images will not be shown)")
        }
        var active = [tr("separate processes")]
        if namespaces { active.append(tr("bubblewrap namespaces")) }
        if protections.contains(.seccomp) { active.append(tr("seccomp filter")) }
        if protections.contains(.memoryLimit) {
            active.append(tr("memory limit {size}", ["size": SizeText.format(memoryLimit)]))
        }
        if protections.contains(.cpuLimit) { active.append(tr("CPU limit {seconds} s", ["seconds": cpuLimit])) }
        var line = tr("Image decoding: {protections}", ["protections": active.joined(separator: ", ")])
        if !namespaces { line += "\n" + tr("The namespace sandbox is off: bubblewrap is missing or cannot create namespaces here.") }
        return line
    }
}
