import CGLib
import CGtk
import GObjectBindings
import GalleryDemoServer
import GalleryHostileServer
import Glibc

/// `gallery-benchmarks serve [--latency MS] [--port N] | --hostile | --followed-feeds IMAGES_BASE_URL`: the demo (or
/// hostile) server, or the followed galleries' feeds of the New-view benchmarks, in a process of its own, so that its work
/// (reading and sending image files) neither runs on the measured main loop nor counts in its memory.
///
/// Protocol with `DemoServerProcess`, over stdin/stdout:
///   → first line: the base URL;
///   ← the parent closes our stdin when it is done (or dies);
///   → `stats accepted=N requests=N`, then one `request PATH` line per request in arrival order, then exit.
@MainActor
enum ServeCommand {
    static func run(_ arguments: ArraySlice<String>) -> Int32 {
        func value(_ flag: String) -> Int? {
            guard let index = arguments.firstIndex(of: flag), index + 1 < arguments.endIndex,
                  let value = Int(arguments[index + 1]), value >= 0 else { return nil }
            return value
        }
        func text(_ flag: String) -> String? {
            guard let index = arguments.firstIndex(of: flag), index + 1 < arguments.endIndex else { return nil }
            return arguments[index + 1]
        }
        let latency = value("--latency") ?? 0
        // The same address again (a server that comes back): the cache's entries are keyed by URL.
        let port = UInt16(clamping: value("--port") ?? 0)
        let server: any ServedForBenchmark
        do {
            if arguments.contains("--hostile") {
                let hostile = HostileServer()
                try hostile.start()
                server = hostile
            } else if let images = text("--followed-feeds") {
                let feeds = try FollowedFeedsServer(imagesBaseURL: images, catalog: DemoData.catalog())
                try feeds.start()
                server = feeds
            } else {
                guard let directory = DemoGalleryLocation.defaultDataDirectory() else {
                    return fail("no demo data directory; run `make demo-data`")
                }
                let demo = try DemoServer(dataDirectory: directory, options: .init(latencyMilliseconds: latency))
                try demo.start(port: port)
                server = demo
            }
        } catch {
            return fail("\(error)")
        }
        write("\(server.baseURL)\n")

        let loop = g_main_loop_new(nil, 0)
        defer { g_main_loop_unref(loop) }
        // Our stdin is a pipe from the parent: end of file (closed, or the parent died) means stop.
        g_unix_fd_add(0, GIOCondition(G_IO_IN.rawValue | G_IO_HUP.rawValue | G_IO_ERR.rawValue), { fd, _, loop in
            var buffer = [UInt8](repeating: 0, count: 64)
            let count = read(fd, &buffer, buffer.count)
            guard count <= 0 else { return 1 }  // ignore anything written; wait for the end
            g_main_loop_quit(OpaquePointer(loop))
            return 0
        }, UnsafeMutableRawPointer(loop))
        g_main_loop_run(loop)

        var output = "stats accepted=\(server.acceptedConnections) requests=\(server.requestCount)\n"
        for path in server.requestLog { output += "request \(path)\n" }
        write(output)
        server.stop()
        return 0
    }

    private static func write(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }

    private static func fail(_ message: String) -> Int32 {
        let line = Array("gallery-benchmarks serve: \(message)\n".utf8)
        _ = line.withUnsafeBytes { Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
        return 1
    }
}

/// What `serve` reports of either server.
@MainActor
protocol ServedForBenchmark {
    var baseURL: String { get }
    var acceptedConnections: Int { get }
    var requestCount: Int { get }
    var requestLog: [String] { get }
    func stop()
}

extension DemoServer: ServedForBenchmark {}
extension HostileServer: ServedForBenchmark {}
