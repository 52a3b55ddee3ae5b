import CGLib
import GObjectBindings
import Glibc

/// The real app from process start: the release `gallery-viewer` (built beside this binary) launched on a demo
/// gallery served by a demo server process at 100 ms latency, in a home of its own. The app says in its debug
/// log when it painted its first frame and its first screen with every visible picture (`FirstScreenTrace`),
/// with the monotonic time, which is the clock this process reads just before spawning it.
///
///   launch   a first launch (network, quit with SIGTERM as a logout does: the app keeps its first screen)
///            → relaunches with the server up → relaunches with the server gone
@MainActor
enum LaunchScenario {
    static let latency = 100
    static let runs = 5
    static let user = "atlas"

    static func run(_ report: Report) throws(BenchmarkError) {
        let home = TemporaryHome()
        defer { home.remove() }
        let server = try DemoServerProcess(latencyMilliseconds: latency)
        let arguments = ["--endpoint", server.baseURL, "--source", "demo", user]
        let first = try launch(arguments, home)
        guard DirectoryScan.fileBytes(at: home.path + "/cache/gallery-viewer/last-gallery.thumbnails") != nil else {
            throw BenchmarkError(description: "the first launch kept no first screen")
        }
        var up: [Launch] = []
        for _ in 0..<runs { up.append(try launch(arguments, home)) }
        _ = try server.stop()
        var gone: [Launch] = []
        for _ in 0..<runs { gone.append(try launch(arguments, home)) }

        report.section("the release app from process start, \(user) on the demo at \(latency) ms latency (\(runs) launches each)")
        report.row("first launch: pictures", Format.milliseconds(first.pictures), "feed and thumbnails from the network")
        report.row("relaunch, server up: first frame", Format.spread(up.map(\.firstFrame)))
        report.row("relaunch, server up: pictures", Format.spread(up.map(\.pictures)),
                   "the saved first page with its kept thumbnails, then the live answer")
        report.row("relaunch, server gone: first frame", Format.spread(gone.map(\.firstFrame)))
        report.row("relaunch, server gone: pictures", Format.spread(gone.map(\.pictures)))
        report.row("items on the first screen", "\(up.map(\.items).min() ?? 0)–\(up.map(\.items).max() ?? 0)")
        report.goal("launch-pictures", measured: Stats(up.map(\.pictures)).median,
                    atMost: Goals.launchPicturesMilliseconds, unit: "ms")
        report.goal("launch-pictures-offline", measured: Stats(gone.map(\.pictures)).median,
                    atMost: Goals.launchPicturesMilliseconds, unit: "ms")
        report.goal("launch-pictures-after-first-frame", measured: Stats((up + gone).map { $0.pictures - $0.firstFrame }).median,
                    atMost: Goals.launchPicturesAfterFirstFrameMilliseconds, unit: "ms")
    }

    private struct Launch {
        /// From just before the spawn, in milliseconds.
        let firstFrame: Double
        let pictures: Double
        let items: Int
    }

    /// Launches the app, reads its log until the first screen's pictures were painted, and quits it with
    /// SIGTERM (it then writes what it keeps for the next launch), waiting for it to end.
    private static func launch(_ arguments: [String], _ home: TemporaryHome) throws(BenchmarkError) -> Launch {
        let launcher = g_subprocess_launcher_new(G_SUBPROCESS_FLAGS_STDOUT_PIPE)!
        defer { g_object_unref(UnsafeMutableRawPointer(launcher)) }
        for (name, value) in home.environment { g_subprocess_launcher_setenv(launcher, name, value, 1) }
        g_subprocess_launcher_setenv(launcher, "G_MESSAGES_DEBUG", DebugLog.domain, 1)
        var argv = ([appPath] + arguments).map { UnsafePointer(strdup($0)) } + [nil]
        defer { argv.forEach { free(UnsafeMutableRawPointer(mutating: $0)) } }
        var error: UnsafeMutablePointer<GError>?
        let spawned = Loop.now()
        guard let process = g_subprocess_launcher_spawnv(launcher, &argv, &error) else {
            throw BenchmarkError(description: "could not start \(appPath): \(GLibError(consuming: error!).message)")
        }
        defer {
            g_subprocess_send_signal(process, SIGTERM)
            g_subprocess_wait(process, nil, nil)
            g_object_unref(UnsafeMutableRawPointer(process))
        }
        // GLib writes debug messages to standard output.
        let log = LineReader(g_subprocess_get_stdout_pipe(process))
        try Loop.run(until: { log.lines.contains { $0.contains("first screen painted") } || log.ended }, timeout: 60,
                     "the app's first screen")
        guard let frame = log.monotonic(of: "first frame painted"), let pictures = log.monotonic(of: "first screen painted"),
              let line = log.lines.first(where: { $0.contains("first screen painted") }) else {
            throw BenchmarkError(description: "the app's log said no first screen: \(log.lines.joined(separator: " | "))")
        }
        let items = line.split(separator: " ").reversed().dropFirst().first.flatMap { Int($0) } ?? 0
        return Launch(firstFrame: Double(frame - spawned) / 1000, pictures: Double(pictures - spawned) / 1000, items: items)
    }

    /// The release app beside this binary.
    private static var appPath: String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let own = length > 0 ? String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            : CommandLine.arguments[0]
        return FileSystem.directoryName(of: own) + "/gallery-viewer"
    }
}

/// A home, cache, config and data directory of the launches' own, removed after.
private struct TemporaryHome {
    let path: String

    init() {
        path = takeString(g_dir_make_tmp("gallery-launch-XXXXXX", nil)) ?? "/tmp/gallery-launch"
    }

    var environment: [(String, String)] {
        [("HOME", path), ("XDG_CACHE_HOME", path + "/cache"), ("XDG_CONFIG_HOME", path + "/config"),
         ("XDG_DATA_HOME", path + "/data")]
    }

    func remove() {
        let words: [String] = ["rm", "-rf", path]
        var argv = words.map { UnsafePointer(strdup($0)) } + [nil]
        defer { argv.forEach { free(UnsafeMutableRawPointer(mutating: $0)) } }
        if let removal = g_subprocess_newv(&argv, G_SUBPROCESS_FLAGS_NONE, nil) {
            g_subprocess_wait(removal, nil, nil)
            g_object_unref(UnsafeMutableRawPointer(removal))
        }
    }
}

/// The lines a child writes to a pipe, read on the main loop as they come.
@MainActor
private final class LineReader {
    private(set) var lines: [String] = []
    private(set) var ended = false
    private let stream: UnsafeMutablePointer<GDataInputStream>

    init(_ pipe: UnsafeMutablePointer<GInputStream>?) {
        stream = g_data_input_stream_new(pipe)!
        readNext()
    }

    /// The stream is let go when its reading ends (the child closed it), not before: a read may be pending.
    private func readNext() {
        let stream = stream
        AsyncCallback { [weak self] _, result in
            var length: gsize = 0
            let line = takeString(g_data_input_stream_read_line_finish(stream, result, &length, nil))
            guard let self, let line else {
                g_object_unref(UnsafeMutableRawPointer(stream))
                self?.ended = true
                return
            }
            lines.append(line)
            readNext()
        }.pass { g_data_input_stream_read_line_async(stream, G_PRIORITY_DEFAULT, nil, $0, $1) }
    }

    /// The monotonic microseconds the first line holding `text` states ("(monotonic N µs)").
    func monotonic(of text: String) -> Int? {
        guard let line = lines.first(where: { $0.contains(text) }), let range = line.firstRange(of: "monotonic ") else { return nil }
        return Int(line[range.upperBound...].prefix { $0.isNumber })
    }
}
