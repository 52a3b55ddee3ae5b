import CGLib
import GObjectBindings
import GalleryDemoServer
import Glibc

/// `gallery-viewer --download` of atlas (360 originals) against `curl --parallel --parallel-max 6` fetching
/// the same image URLs from the same demo server on loopback. The app's time includes reading the gallery's
/// 15 feed pages (which curl is spared: it is handed the URLs); the feed alone (`--list`) is timed too, and so
/// is curl reading the same 15 pages one after another: each page names the next, so no client can read
/// them faster, and on bare loopback that chain alone is most of curl's time for the images. At no latency,
/// a bare libsoup 2.4 client (`gallery-soup-floor`, Tests/SoupFloor) fetches the same URLs as the app by
/// libsoup's cheapest path (the pages in order, each page's images queued once it arrived, nothing parsed or
/// checked: about the best rate a libsoup 2.4 client gets), and fetches one page beside curl fetching it (what
/// libsoup costs any client before its first answer). The same client reading each image as a stream, as the app
/// must, is timed beside it (not in the goal): what the streaming API itself adds. The goal is
/// against what bounds the rate: that bare client at no latency, curl at 20 ms a request. Rounds
/// alternate which goes first, each into folders of its own, made new and removed only once every round ran:
/// before handing out an inode number, ext4 passes over the numbers freed recently (`recently_deleted` in a
/// profile; minutes, here), so writing 360 files just after deleting 720 costs both programs several times
/// what writing them costs, and more the more was deleted (see docs/ARCHITECTURE.md). A first round is not
/// timed: the server's first answers and the first files cost the program that goes first up to twice its time.
/// Medians of the timed rounds are compared, so the ratio is of one run on one machine, whatever else the
/// machine is doing.
@MainActor
enum DownloadScenario {
    static let user = "atlas"
    /// Timed rounds, after one untimed (the server's first answers and the files' first writes cost more): eight,
    /// so that each of the two or four programs goes in each place as often.
    static let rounds = 8
    static let curlParallel = 6

    static func run(_ report: Report) throws(BenchmarkError) {
        // On bare loopback the race is of CPU per image (client and server share two cores); at 20 ms a
        // request it is of the network, as for a real server.
        for latency in [0, 20] { try run(report, latency: latency) }
    }

    private static func run(_ report: Report, latency: Int) throws(BenchmarkError) {
        guard let items = try DemoData.catalog().user(named: user)?.items else {
            throw BenchmarkError(description: "no demo user \(user)")
        }
        let viewer = siblingExecutable("gallery-viewer")
        guard g_file_test(viewer, G_FILE_TEST_IS_EXECUTABLE) != 0 else {
            throw BenchmarkError(description: "\(viewer) is missing (make bench builds it with `make release`)")
        }
        guard let curl = takeString(g_find_program_in_path("curl")) else {
            throw BenchmarkError(description: "curl is not installed (make test-deps installs it)")
        }
        let server = try DemoServerProcess(latencyMilliseconds: latency)
        let scratch = takeString(g_dir_make_tmp("gallery-bench-download-XXXXXX", nil)) ?? "/tmp"
        defer {
            for round in -1..<rounds { clear(scratch + "/\(round)") }
            rmdir(scratch)
        }
        let list = [viewer, "--list", "--source", "demo", "--endpoint", server.baseURL, user]
        let pageOffsets = Array(stride(from: 0, to: items.count, by: DemoFeed.pageSize))
        let feedChain = [curl, "--silent", "--fail"] + pageOffsets.flatMap { offset in
            ["-o", "/dev/null", server.baseURL + DemoFeed.pagePath(user: user, offset: offset)]
        }

        // What the bare libsoup client fetches: the same pages, each followed by the images it names.
        let galleryList = pageOffsets.map { offset in
            "page \(server.baseURL + DemoFeed.pagePath(user: user, offset: offset))\n" + items[offset..<min(offset + DemoFeed.pageSize, items.count)]
                .map { "image \(server.baseURL + $0.imagePath())\n" }.joined()
        }.joined()
        let soupClient = siblingExecutable("gallery-soup-floor")
        var app: [Double] = []
        var curled: [Double] = []
        var soupImages: [Double] = []
        var soupStreamed: [Double] = []
        var feed: [Double] = []
        var chain: [Double] = []
        var appBytes = 0
        var curlBytes = 0
        for round in -1..<rounds {
            let folder = scratch + "/\(round)"
            g_mkdir_with_parents(folder + "/curl", 0o755)
            g_mkdir_with_parents(folder + "/soup", 0o755)
            g_mkdir_with_parents(folder + "/stream", 0o755)
            let config = folder + "/curl.config"
            let urlList = folder + "/urls"
            let lines = items.enumerated().map { index, item in
                "url = \"\(server.baseURL + item.imagePath())\"\noutput = \"\(folder)/curl/\(index)\"\n"
            }
            guard g_file_set_contents(config, lines.joined(), -1, nil) != 0,
                  g_file_set_contents(urlList, galleryList, -1, nil) != 0 else {
                throw BenchmarkError(description: "could not write \(config) or \(urlList)")
            }
            let download = [viewer, "--download", folder + "/app", "--source", "demo", "--endpoint", server.baseURL, user]
            let fetch = [curl, "--silent", "--fail", "--parallel", "--parallel-max", String(curlParallel), "--config", config]
            let soupFetch = [soupClient, "--gallery", urlList, folder + "/soup"]
            // Not in the goal: what reading each image as a stream costs the bare client (the app must).
            let soupStream = [soupClient, "--gallery-streaming", urlList, folder + "/stream"]
            // Each program goes in each place in turn.
            var order = latency == 0 ? [download, fetch, soupFetch, soupStream] : [download, fetch]
            for _ in 0..<(max(0, round) % order.count) { order.append(order.removeFirst()) }
            for command in order {
                let milliseconds = try time(command)
                guard round >= 0 else { continue }
                switch command {
                case download: app.append(milliseconds)
                case fetch: curled.append(milliseconds)
                case soupFetch: soupImages.append(milliseconds)
                default: soupStreamed.append(milliseconds)
                }
            }
            if round >= 0 {
                feed.append(try time(list))
                chain.append(try time(feedChain))
            }
            let saved = DirectoryScan.names(in: folder + "/app/demo/" + user).count
            let fetched = DirectoryScan.names(in: folder + "/curl").count
            let soupSaved = latency == 0 ? DirectoryScan.names(in: folder + "/soup").count : items.count
            let streamedSaved = latency == 0 ? DirectoryScan.names(in: folder + "/stream").count : items.count
            guard saved == items.count, fetched == items.count, soupSaved == items.count, streamedSaved == items.count else {
                throw BenchmarkError(description: "\(round < 0 ? "the untimed round" : "round \(round + 1)"): the app saved \(saved), curl \(fetched) and "
                                     + "gallery-soup-floor \(soupSaved) (streaming: \(streamedSaved)) of \(items.count) images")
            }
            appBytes = DirectoryScan.totalFileBytes(in: folder + "/app/demo/" + user)
            curlBytes = DirectoryScan.totalFileBytes(in: folder + "/curl")
        }
        let floor = latency == 0 ? try clientFloor(soupClient, firstPage: server.baseURL + DemoFeed.pagePath(user: user), curl: curl) : nil
        _ = try server.stop()

        let appMedian = Stats(app).median
        let curlMedian = Stats(curled).median
        let rate = { (bytes: Int, milliseconds: Double) in Format.number(Double(bytes) / 1_000_000 / (milliseconds / 1000)) }
        report.section("\(user): \(items.count) originals, \(appBytes / 1000) kB, \(latency) ms latency, \(rounds) rounds after an untimed one (order alternating)")
        report.row("gallery-viewer --download", Format.spread(app), "\(rate(appBytes, appMedian)) MB/s, feed pages included")
        report.row("  the feed alone (--list)", Format.spread(feed), "read while the images download")
        report.row("curl --parallel-max \(curlParallel)", Format.spread(curled), "\(rate(curlBytes, curlMedian)) MB/s, URLs handed to it")
        report.row("  curl reading the \(pageOffsets.count) feed pages", Format.spread(chain),
                   "one after another (each names the next): part of the app's time, none of curl's")
        let ratio = curlMedian / appMedian
        report.row("rate, app ÷ curl", Format.number(ratio, digits: 2), "same bytes: \(appBytes == curlBytes ? "yes" : "no")")
        if !soupImages.isEmpty {
            report.row("a bare libsoup 2.4 client", Format.spread(soupImages),
                       "the same pages in order, each page's images queued once it arrived, 6 connections, no parsing, no checks, no GTK")
            report.row("rate, app ÷ that client", Format.number(Stats(soupImages).median / appMedian, digits: 2), "same URLs, feed pages included in both")
            report.row("  the same client reading streams", Format.spread(soupStreamed),
                       "each image sent with soup_session_send_async and read without blocking as it arrives, as the app must")
            report.row("rate, app ÷ that streaming client", Format.number(Stats(soupStreamed).median / appMedian, digits: 2), "not a goal")
        }
        if let floor {
            report.row("one page: a bare libsoup 2.4 client", Format.spread(floor.soup), "start, session, one GET, exit")
            report.row("  the same without GIO's modules", Format.spread(floor.soupWithoutModules),
                       "no TLS backend, no proxy resolver, no certificates")
            report.row("  curl", Format.spread(floor.curl))
            // The earliest a libsoup 2.4 client can know the last page's image URLs: its start and first page,
            // then the other pages one after another as fast as curl reads them (curl's own start taken out).
            let lastPageKnown = Stats(floor.soup).median + Stats(chain).median - Stats(floor.curl).median
            report.row("  the feed read, at the earliest", Format.milliseconds(lastPageKnown),
                       "by a libsoup 2.4 client: the last page's image URLs known, none saved yet")
        }
        report.goal("bytes-\(latency)ms", count: appBytes, equals: curlBytes, what: "bytes saved (curl's)")
        if latency == 0 {
            // A missing time reads as NaN, which fails the comparison.
            let soupRatio = Stats(soupImages).median / appMedian
            report.goal("rate-vs-soup-floor-\(latency)ms", measured: soupRatio, atLeast: Goals.downloadRateVersusBound,
                        unit: "× the bare libsoup client's rate", digits: 2)
        } else {
            report.goal("rate-vs-curl-\(latency)ms", measured: ratio, atLeast: Goals.downloadRateVersusBound,
                        unit: "× curl's rate", digits: 2)
        }
    }

    /// What fetching one page costs a program that does nothing else: a bare libsoup 2.4 client (with and without
    /// GIO's modules, which libsoup loads with the system's certificates at its first connection, also for http)
    /// and curl. Runs alternate, so the machine's mood falls on all three alike.
    private static func clientFloor(_ soupClient: String, firstPage: String, curl: String) throws(BenchmarkError)
        -> (soup: [Double], soupWithoutModules: [Double], curl: [Double]) {
        let commands = [
            [soupClient, firstPage],
            ["/usr/bin/env", "GIO_MODULE_DIR=/nonexistent", soupClient, firstPage],
            [curl, "--silent", "--fail", "-o", "/dev/null", firstPage],
        ]
        var times: [[Double]] = [[], [], []]
        for _ in 0..<15 {
            for (index, command) in commands.enumerated() { times[index].append(try time(command)) }
        }
        return (times[0], times[1], times[2])
    }

    /// Runs `command` to its end and returns its wall time; a failure ends the scenario.
    private static func time(_ command: [String]) throws(BenchmarkError) -> Double {
        let start = Loop.now()
        let process = try ChildProcess.spawn(command, flags: GSubprocessFlags(
            rawValue: G_SUBPROCESS_FLAGS_STDOUT_SILENCE.rawValue | G_SUBPROCESS_FLAGS_STDERR_SILENCE.rawValue))
        defer { g_object_unref(UnsafeMutableRawPointer(process)) }
        g_subprocess_wait(process, nil, nil)
        let milliseconds = Loop.milliseconds(since: start)
        guard g_subprocess_get_successful(process) != 0 else {
            throw BenchmarkError(description: "\(command[0]) \(command[1]) failed (exit status \(g_subprocess_get_exit_status(process)))")
        }
        return milliseconds
    }

    /// Removes what a round left in `folder`: the app's folder tree, curl's and the bare client's files and lists.
    private static func clear(_ folder: String) {
        DirectoryScan.removeFlatDirectory(folder + "/app/demo/" + user)
        rmdir(folder + "/app/demo")
        rmdir(folder + "/app")
        DirectoryScan.removeFlatDirectory(folder + "/curl")
        DirectoryScan.removeFlatDirectory(folder + "/soup")
        DirectoryScan.removeFlatDirectory(folder + "/stream")
        unlink(folder + "/curl.config")
        unlink(folder + "/urls")
        rmdir(folder)
    }

    /// A program built beside this benchmark binary.
    static func siblingExecutable(_ name: String) -> String {
        let directory = takeString(g_path_get_dirname(ChildProcess.selfPath)) ?? "."
        return directory + "/" + name
    }
}
