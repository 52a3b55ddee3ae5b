import ArgumentParser
import CGLib
import GalleryDemoServer
import GalleryHostileServer
import GObjectBindings
import Glibc

/// `gallery-demo-server`: serves the offline demo galleries until interrupted.
struct DemoServerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gallery-demo-server",
        abstract: "Serve the demo galleries in the formats of all five services on 127.0.0.1.",
        discussion: """
            Prints its base URL as the first line, then serves until SIGINT or SIGTERM. Feeds:
            BASE/rss.xml?type=deviation&q=gallery:aurora (also atlas, empty, brokenfeed, and huge with
            100,000 items or huge-N with N), paged with &offset=N. The same users as Bluesky
            (BASE/xrpc/app.bsky.actor.getProfile?actor=aurora.demo.test, then app.bsky.feed.getAuthorFeed) and
            as Misskey (POST BASE/api/users/show {"username":"aurora","host":null}, then /api/users/notes), as
            Mastodon (BASE/api/v1/accounts/lookup?acct=aurora, then /api/v1/accounts/ID/statuses) and as
            Wikimedia Commons (BASE/w/api.php?action=query&generator=allimages&gaiuser=Aurora&…):
            gallery-viewer --source bluesky --endpoint BASE aurora.demo.test, --source misskey aurora@demo.test,
            --source mastodon aurora@demo.test, --source commons Aurora.
            Any URL takes ?latency=MS and ?bandwidth=BYTES_PER_SEC; image URLs also take
            ?fault=404|500|html|truncate|corrupt|redirect|stall.
            With --grow-every SECONDS, every demo gallery gains a new upload at the top that often, dated when
            it appeared, in all five formats (at most 500): followed galleries get new items to find. SIGUSR1
            makes them grow once at once (and logs "grew" on stderr).
            With --hostile, serves the hostile server instead: feeds and images that misbehave on purpose
            (BASE/rss.xml?type=deviation&q=gallery:hostile, billion-laughs, empty-pages, …; see README).
            """)

    @Option(help: "Port on 127.0.0.1 (0 picks a free one).")
    var port: UInt16 = 0

    @Option(help: "Milliseconds to wait before every response.")
    var latency: Int = 0

    @Option(help: "Body rate limit in bytes per second (0: unlimited).")
    var bandwidth: Int = 0

    @Option(help: "Seconds between new uploads at the top of every demo gallery (0: the galleries do not grow).")
    var growEvery: Int = 0

    @Flag(help: "Serve the hostile test server (bombs, drips, broken feeds) instead of the demo gallery.")
    var hostile = false

    @Option(help: "Data directory holding demo/users.json and demo/images (default: found automatically).")
    var data: String?

    @Flag(help: "List every request (path and query) on standard error as it arrives, one per line.")
    var logRequests = false

    func validate() throws {
        guard latency >= 0 else { throw ValidationError("--latency must not be negative") }
        guard bandwidth >= 0 else { throw ValidationError("--bandwidth must not be negative") }
        guard growEvery >= 0 else { throw ValidationError("--grow-every must not be negative") }
        // The hostile server has knobs of its own per case; silently ignoring these would mislead.
        if hostile, latency != 0 || bandwidth != 0 || growEvery != 0 || data != nil || logRequests {
            throw ValidationError("--hostile takes only --port")
        }
    }

    func run() throws {
        try MainActor.assumeIsolated {
            if hostile { return try runHostile() }
            guard let dataDirectory = data ?? DemoGalleryLocation.defaultDataDirectory() else {
                throw DemoServerError.noDataDirectory(searched: DemoGalleryLocation.candidates())
            }
            // Counted only: a server that runs for days must not keep every request it answered.
            let options = DemoServer.Options(latencyMilliseconds: latency,
                                             bandwidthBytesPerSecond: bandwidth > 0 ? bandwidth : nil,
                                             recordsRequests: false, growEverySeconds: growEvery > 0 ? growEvery : nil)
            let server = try DemoServer(dataDirectory: dataDirectory, options: options)
            if logRequests { server.onRequest = { logToStandardError("request \($0)") } }
            try server.start(port: port)
            print(server.baseURL)
            fflush(nil)  // the first line is what scripts wait for
            logToStandardError("serving \(server.catalog.users.count) demo users from \(dataDirectory); "
                               + "feed: \(server.feedURL(user: server.catalog.defaultUserName))")

            // SIGUSR1: one growth step now, for scripts that must know when a gallery grew.
            let growth = MainLoopSource.unixSignal(SIGUSR1) {
                server.grow()
                logToStandardError("grew: every demo gallery has \(server.grownUploads) new upload(s)")
                return true
            }
            runUntilSignalled()
            growth.cancel()
            server.stop()
            logToStandardError("stopped after \(server.requestCount) requests")
        }
    }

    @MainActor
    private func runHostile() throws {
        let server = HostileServer()
        try server.start(port: port)
        print(server.baseURL)
        fflush(nil)
        logToStandardError("serving the hostile server; try: gallery-viewer --source demo --endpoint \(server.baseURL) hostile")
        runUntilSignalled()
        server.stop()
        logToStandardError("stopped after \(server.requestCount) requests")
    }
}

/// Runs the GLib main loop until SIGINT or SIGTERM.
@MainActor
private func runUntilSignalled() {
    let loop = g_main_loop_new(nil, 0)
    defer { g_main_loop_unref(loop) }
    let signals = [SIGINT, SIGTERM].map { signal in
        MainLoopSource.unixSignal(signal) {
            g_main_loop_quit(loop)
            return false
        }
    }
    defer { signals.forEach { $0.cancel() } }
    g_main_loop_run(loop)
}

/// Diagnostics go to stderr, so stdout carries only the base URL.
func logToStandardError(_ message: String) {
    let line = Array("gallery-demo-server: \(message)\n".utf8)
    _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
}

DemoServerCommand.main()
