import CGLib
import GObjectBindings
import GalleryCore
import Glibc

/// Issue 28's scale goal: a full check of 500 followed galleries (the demo's huge-1 … huge-500, one host)
/// keeps main-loop gaps within a frame and memory within 50 MiB of idle, and a check that finds nothing new
/// sends one request per gallery. Two checks: the first is every gallery's baseline, the second finds nothing
/// new (each gallery's first page holds its last known item). The store is a fresh one in a scratch folder; the
/// follows are written before anything is measured. (The services with a lookup, and the 304s, are measured by
/// FollowCheckOneRequestTests: the demo has their formats for its few catalog users only.)
@MainActor
enum FollowCheckScenario {
    static let galleries = 500

    static func run(_ report: Report) throws(BenchmarkError) {
        let server = try DemoServerProcess()
        let scratch = takeString(g_dir_make_tmp("gallery-bench-follow-XXXXXX", nil)) ?? "/tmp"
        let store = FollowStore(directory: scratch + "/gallery-viewer")
        defer {
            for name in ["", "-wal", "-shm"] { unlink(store.path + name) }
            rmdir(scratch + "/gallery-viewer")
            rmdir(scratch)
        }
        var followed = 0
        for number in 1...galleries {
            store.follow(.init(source: .demo, username: "huge-\(number)"), displayName: "") { result in
                if case .success = result { followed += 1 }
            }
        }
        try Loop.run(until: { followed == galleries }, timeout: 600, "following \(galleries) galleries")

        let client = HTTPClient()
        var requests = 0
        client.onRequestStarted = { _ in requests += 1 }
        let checker = FollowChecker(store: store, client: client, limits: .init(minimumInterval: 0),
                                    endpointOverride: { _ in server.baseURL })
        Loop.run(for: 0.5)
        let idle = Memory.residentMiB()
        report.section("\(galleries) followed demo galleries on one host, 0 ms latency; resident at idle \(Format.megabytes(idle))")
        var work = 0.0
        var peakAbove = 0.0
        var quietRequests = 0
        for (round, title) in ["first check (every gallery's baseline)", "second check (nothing new)"].enumerated() {
            requests = 0
            var result: FollowCheckReport?
            var peak = idle
            let sampler = MainLoopSource.every(milliseconds: 50) {
                peak = max(peak, Memory.residentMiB())
                return true
            }
            let probe = MainLoopProbe()
            let started = Loop.now()
            probe.start()
            checker.check { result = $0 }
            try Loop.run(until: { result != nil }, timeout: 900, "the \(title)")
            let seconds = Loop.milliseconds(since: started) / 1000
            let gaps = probe.stop()
            sampler.cancel()
            report.row("\(title): took", Format.number(seconds, digits: 2) + " s",
                       "checked \(result?.checked ?? 0), new \(result?.newItems.count ?? 0), failed \(result?.failures.count ?? 0)")
            // The demo's huge galleries are DeviantArt's RSS, which sends no validators (as DeviantArt's own):
            // their unchanged first pages come whole, one request each.
            report.row("\(title): requests", "\(requests)", "\(result?.notModified ?? 0) answered 304 Not Modified")
            report.row("\(title): peak resident above idle", Format.megabytes(peak - idle))
            report.loopRows(gaps, title: title)
            work = max(work, gaps.workMilliseconds)
            peakAbove = max(peakAbove, peak - idle)
            if round == 1 { quietRequests = requests }
            if result?.checked != galleries {
                report.failure("all-checked", "\(result?.checked ?? 0) of \(galleries) checked: \(result?.failures.first?.sentence ?? "")")
            }
        }
        _ = try server.stop()
        report.mainThreadWorkGoal(work: work)
        report.goal("memory-above-idle", measured: peakAbove, atMost: Goals.followCheckMemoryAboveIdleMiB, unit: "MiB")
        report.goal("requests-when-nothing-new", count: quietRequests, equals: galleries, what: "requests (one per gallery)")
    }
}
