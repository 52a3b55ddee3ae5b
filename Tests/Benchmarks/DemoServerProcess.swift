import CGLib
import CGtk
import GObjectBindings
import Glibc

/// The demo server running in a child process (`gallery-benchmarks serve`, see ServeCommand), with the
/// counts it saw. A real server is never in the app's process: keeping it out keeps its work off the measured
/// main loop and its file cache out of the measured memory.
///
/// Starting and stopping read the child's output with blocking reads. That is harness work done outside the
/// measured phases; the app code under test never blocks.
@MainActor
final class DemoServerProcess {
    struct Stats {
        /// Distinct TCP connections the server accepted.
        let acceptedConnections: Int
        /// Path and query of every request, in arrival order.
        let requests: [String]
    }

    let baseURL: String
    let latencyMilliseconds: Int
    private let process: OpaquePointer
    private let output: UnsafeMutablePointer<GDataInputStream>
    private var stopped = false

    /// `hostile`: the hostile server instead of the demo gallery. `port` 0 picks a free one. `followedFeedsFor`:
    /// the feeds of `FollowedFeeds` instead, their images at that demo server's base URL.
    init(latencyMilliseconds: Int = 0, hostile: Bool = false, port: Int = 0,
         followedFeedsFor imagesBaseURL: String? = nil) throws(BenchmarkError) {
        self.latencyMilliseconds = latencyMilliseconds
        let arguments = [Self.executablePath, "serve", "--latency", String(latencyMilliseconds), "--port", String(port)]
            + (hostile ? ["--hostile"] : []) + (imagesBaseURL.map { ["--followed-feeds", $0] } ?? [])
        var argv = arguments.map { UnsafePointer(strdup($0)) } + [nil]
        defer { argv.forEach { free(UnsafeMutableRawPointer(mutating: $0)) } }
        var error: UnsafeMutablePointer<GError>?
        // stdin is a pipe we close to stop it; stderr is ours, so its complaints show up in the bench log.
        let flags = GSubprocessFlags(rawValue: G_SUBPROCESS_FLAGS_STDIN_PIPE.rawValue | G_SUBPROCESS_FLAGS_STDOUT_PIPE.rawValue)
        guard let process = g_subprocess_newv(&argv, flags, &error) else {
            throw BenchmarkError(description: "could not start the demo server: \(GLibError(consuming: error!).message)")
        }
        self.process = process
        output = g_data_input_stream_new(g_subprocess_get_stdout_pipe(process))!
        guard let first = Self.readLine(output), first.hasPrefix("http://") else {
            g_subprocess_force_exit(process)
            throw BenchmarkError(description: "the demo server printed no base URL")
        }
        baseURL = first
    }

    isolated deinit {
        if !stopped { g_subprocess_force_exit(process) }
        g_object_unref(UnsafeMutableRawPointer(output))
        g_object_unref(UnsafeMutableRawPointer(process))
    }

    /// The feed URL of a demo user (first page).
    func feedURL(user: String) -> String { baseURL + "/rss.xml?type=deviation&q=gallery:\(user)" }

    /// Stops the server and returns what it counted.
    func stop() throws(BenchmarkError) -> Stats {
        stopped = true
        g_output_stream_close(g_subprocess_get_stdin_pipe(process), nil, nil)
        var accepted: Int?
        var requests: [String] = []
        while let line = Self.readLine(output) {
            let fields = line.split(separator: " ", maxSplits: 1).map(String.init)
            if fields.first == "stats" {
                accepted = line.split(separator: " ").first { $0.hasPrefix("accepted=") }.flatMap { Int($0.dropFirst(9)) }
            } else if fields.first == "request", fields.count == 2 {
                requests.append(fields[1])
            }
        }
        g_subprocess_wait(process, nil, nil)
        guard let accepted else { throw BenchmarkError(description: "the demo server reported no counts") }
        return Stats(acceptedConnections: accepted, requests: requests)
    }

    private static func readLine(_ stream: UnsafeMutablePointer<GDataInputStream>) -> String? {
        var length: gsize = 0
        let line = g_data_input_stream_read_line(stream, &length, nil, nil)
        return takeString(line)
    }

    private static var executablePath: String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return CommandLine.arguments[0] }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
