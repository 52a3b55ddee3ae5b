import CGLib
import CGStreamer
import CGtk
import GObjectBindings
@_spi(Testing) import GStreamerBindings
import GtkBindings
@_spi(Testing) import GalleryCore
import Glibc

/// A 720p H.264 video (as Mastodon and Bluesky serve them) played by the app's player — its bytes through the
/// app's HTTP client into appsrc, from a file server in another process — against a bare `playbin` reading the
/// same file from disk into the same sink (`gtksink`), in the same process, rounds alternating:
/// - from the player being asked (Enter) to the first frame prerolled into the sink;
/// - the process's CPU time per second of playback;
/// - the main loop's gaps while the video plays and the gallery list scrolls behind it;
/// - resident memory while a 10-minute video plays through (at 8× its speed, every frame decoded): after the
///   first minute it must not grow with what has been played. `GALLERY_BENCH_MEMORY_LOG=1` prints it as it
///   plays, four times a second.
@MainActor
enum PlaybackScenario {
    static let rounds = 9
    static let playSeconds = 4.0
    /// Ten seconds of 720p at 30 frames a second, every frame different (the pattern moves).
    static let encoding = "videotestsrc pattern=smpte horizontal-speed=6 num-buffers=300 ! "
        + "video/x-raw,width=1280,height=720,framerate=30/1,format=I420 ! "
        + "x264enc speed-preset=ultrafast threads=1 bitrate=3000 ! video/x-h264,profile=main ! "
        + "mp4mux faststart=true ! filesink location=%OUTPUT%"
    /// Ten minutes at 360p, 15 frames a second: the length is what matters for memory, not the size.
    static let longEncoding = "videotestsrc pattern=smpte horizontal-speed=3 num-buffers=9000 ! "
        + "video/x-raw,width=640,height=360,framerate=15/1,format=I420 ! "
        + "x264enc speed-preset=ultrafast threads=1 bitrate=800 ! video/x-h264,profile=main ! "
        + "mp4mux faststart=true ! filesink location=%OUTPUT%"
    static let longRate = 8.0

    static func run(_ report: Report) throws(BenchmarkError) {
        let scratch = takeString(g_dir_make_tmp("gallery-bench-playback-XXXXXX", nil)) ?? "/tmp"
        let file = scratch + "/video.mp4"
        let long = scratch + "/long.mp4"
        defer {
            unlink(file)
            unlink(long)
            rmdir(scratch)
        }
        do {
            try MediaEncoding.run(encoding, output: file)
            try MediaEncoding.run(longEncoding, output: long)
        } catch {
            throw BenchmarkError(description: "encoding the H.264 videos (x264enc, make test-deps): \(error.description)")
        }
        let files = try FileServerProcess(directory: scratch)
        let demo = try DemoServerProcess()
        let app = try AppUnderTest(serverURL: demo.baseURL)
        try app.searchAndLoadAllPages("atlas", expected: 360)
        let url = files.baseURL + "/video.mp4"
        let fileURI = "file://" + file

        var appFirst: [Double] = [], bareFirst: [Double] = []
        var appCPU: [Double] = [], bareCPU: [Double] = []
        for round in 0..<rounds {
            for bare in round % 2 == 0 ? [false, true] : [true, false] {
                let video: any PlayedVideo = bare ? try BareVideo(uri: fileURI) : try AppVideo(url: url, client: app.client)
                defer { video.close() }
                try Loop.run(until: { video.isPrerolled }, timeout: 30, "the first frame")
                try video.checkPlays()
                (bare ? { bareFirst.append($0) } : { appFirst.append($0) })(Loop.milliseconds(since: video.started))
                video.play()
                // CPU per second once it plays steadily (the first second's start-up work left out).
                Loop.run(for: 1)
                let cpu = ProcessStats.cpuSeconds()
                let start = Loop.now()
                Loop.run(for: playSeconds)
                let perSecond = (ProcessStats.cpuSeconds() - cpu) * 1000 / (Double(Loop.now() - start) / 1_000_000)
                if bare { bareCPU.append(perSecond) } else { appCPU.append(perSecond) }
            }
        }

        // The list scrolls up and down behind the playing video, a step every 16 ms, as a wheel held.
        let video = try AppVideo(url: url, client: app.client)
        try Loop.run(until: { video.isPrerolled }, timeout: 30, "the first frame")
        try video.checkPlays()
        video.play()
        let adjustment = app.list.adjustment
        var step = 40.0
        let scroller = MainLoopSource.every(milliseconds: 16) {
            if adjustment.value + step > adjustment.maximumValue || adjustment.value + step < 0 { step = -step }
            adjustment.value += step
            return true
        }
        let probe = MainLoopProbe()
        probe.start()
        Loop.run(for: playSeconds)
        let gaps = probe.stop()
        scroller.cancel()
        let stillPlaying = video.player.status == .playing
        video.close()

        let memory = try playThrough(files.baseURL + "/long.mp4", client: app.client)
        app.close()
        _ = try demo.stop()
        withExtendedLifetime(files) {}

        let appMedian = Stats(appFirst).median, bareMedian = Stats(bareFirst).median
        let cpuRatio = Stats(appCPU).median / Stats(bareCPU).median
        report.section("720p H.264, 10 s at 30 fps, gtksink; \(rounds) rounds alternating")
        report.row("first frame, the app's player", Format.spread(appFirst), "through HTTPClient and appsrc, from another process")
        report.row("first frame, a bare playbin", Format.spread(bareFirst), "the same file from disk")
        report.row("CPU per second playing, the app", Format.spread(appCPU), "ms of CPU time, whole process")
        report.row("CPU per second playing, bare", Format.spread(bareCPU))
        report.row("main loop while playing and scrolling", "p99 \(Format.milliseconds(gaps.p99Milliseconds)), worst \(Format.milliseconds(gaps.worstMilliseconds))",
                   stillPlaying ? "" : "the video stopped playing")
        report.row("resident memory, 10-minute video at \(Format.number(longRate))×",
                   "\(Format.number(memory.firstMinute)) MiB peak in its first minute, \(Format.number(memory.rest)) MiB after",
                   "\(Format.number(memory.playedSeconds / 60)) minutes played")
        report.goal("first-frame", measured: appMedian, atMost: Goals.playbackFirstFrameMilliseconds, unit: "ms")
        report.goal("first-frame-vs-bare", measured: appMedian / bareMedian, atMost: Goals.playbackVersusBare,
                    unit: "× the bare playbin", digits: 2)
        report.goal("cpu-vs-bare", measured: cpuRatio, atMost: Goals.playbackCPUVersusBare, unit: "× the bare playbin", digits: 2)
        report.goal("p99-gap-scrolling", measured: stillPlaying ? gaps.p99Milliseconds : .infinity,
                    atMost: Goals.longScrollP99GapMilliseconds, unit: "ms")
        report.mainThreadWorkGoal(work: gaps.workMilliseconds)
        report.goal("memory-growth-long-video", measured: memory.playedSeconds >= 590 ? memory.rest - memory.firstMinute : .infinity,
                    atMost: Goals.playbackMemoryGrowthMegabytes, unit: "MiB")
    }

    /// Plays `url` (ten minutes) through at `longRate`× and samples resident memory: the peak while its first
    /// minute plays and after.
    private static func playThrough(_ url: String, client: HTTPClient) throws(BenchmarkError)
        -> (firstMinute: Double, rest: Double, playedSeconds: Double) {
        let video = try AppVideo(url: url, client: client)
        defer { video.close() }
        try Loop.run(until: { video.isPrerolled }, timeout: 30, "the long video's first frame")
        try video.checkPlays()
        video.play()
        try Loop.run(until: { video.player.status == .playing && (video.player.position ?? 0) > 0 }, timeout: 30, "the long video playing")
        guard video.player.setRate(longRate) else { throw BenchmarkError(description: "the long video did not speed up") }
        var firstMinute = 0.0, rest = 0.0
        let sampler = MainLoopSource.every(milliseconds: 250) {
            let resident = Memory.residentMiB()
            if (video.player.position ?? 0) < 60 { firstMinute = max(firstMinute, resident) } else { rest = max(rest, resident) }
            if getenv("GALLERY_BENCH_MEMORY_LOG") != nil { print("memory at \(Int(video.player.position ?? 0)) s: \(Int(resident)) MiB") }
            return true
        }
        defer { sampler.cancel() }
        // Ten minutes at 8× take 75 s; the timeout only matters if playback stalls.
        try Loop.run(until: { video.player.status == .ended }, timeout: 600 / longRate * 4, "the long video's end")
        try video.checkPlays()
        return (firstMinute, rest, video.player.duration ?? 0)
    }
}

/// A video being played in a window of its own, by the app's player or by a bare pipeline.
@MainActor
private protocol PlayedVideo {
    /// When it was asked for (µs of the monotonic clock).
    var started: Int { get }
    /// The first frame is in the sink, or playback failed (`checkPlays`).
    var isPrerolled: Bool { get }
    /// Throws why playback failed, if it did.
    func checkPlays() throws(BenchmarkError)
    func play()
    func close()
}

/// The app's `MediaPlayer`, as the large view runs it: its own gtksink, its bytes through `HTTPClient`.
@MainActor
private final class AppVideo: PlayedVideo {
    let started = Loop.now()
    let player: MediaPlayer
    private let window = gtk_window_new(GTK_WINDOW_TOPLEVEL)!
    private var view: VideoView?

    init(url: String, client: HTTPClient) throws(BenchmarkError) {
        player = MediaPlayer(client: client)
        gtk_window_set_default_size(UnsafeMutableRawPointer(window).assumingMemoryBound(to: GtkWindow.self), 1280, 720)
        gtk_widget_show_all(window)
        // As the large view does: the sink's widget goes into the window once the response made the pipeline.
        player.onChange = { [weak self] in self?.placeSink() }
        player.load(url, options: .init(autoplay: false))
    }

    private func placeSink() {
        guard view == nil, let sink = player.videoSink, let made = VideoView(sink: sink) else { return }
        view = made
        gtk_container_add(UnsafeMutableRawPointer(window).assumingMemoryBound(to: GtkContainer.self), made.widget)
        gtk_widget_show_all(window)
    }

    var isPrerolled: Bool {
        switch player.status {
        case .paused, .playing, .failed: true
        default: false
        }
    }

    func checkPlays() throws(BenchmarkError) {
        if case .failed(let reason) = player.status { throw BenchmarkError(description: "the app's player failed: \(reason)") }
    }

    func play() { player.play() }

    func close() {
        player.stop()
        gtk_widget_destroy(window)
        view = nil
    }
}

/// `playbin` on a file: URI with a gtksink of its own; no audio (as the app's player has none here: Xvfb).
@MainActor
private final class BareVideo: PlayedVideo {
    let started = Loop.now()
    private let playbin: ObjectRef
    private let window = gtk_window_new(GTK_WINDOW_TOPLEVEL)!
    private var prerolled = false
    private var failure: String?

    init(uri: String) throws(BenchmarkError) {
        guard let made = gst_element_factory_make("playbin", nil), let sink = gst_element_factory_make("gtksink", nil),
              let audio = gst_element_factory_make("fakesink", nil) else {
            throw BenchmarkError(description: "no playbin or gtksink")
        }
        playbin = ObjectRef(UnsafeMutableRawPointer(made), transfer: .floating)
        let videoSink = ObjectRef(UnsafeMutableRawPointer(sink), transfer: .floating)
        videoSink.set("force-aspect-ratio", true)
        playbin.set("uri", uri)
        playbin.set("video-sink", object: videoSink)
        playbin.set("audio-sink", object: ObjectRef(UnsafeMutableRawPointer(audio), transfer: .floating))
        var value = GValue()
        g_value_init(&value, gv_type_object())
        g_object_get_property(videoSink.object, "widget", &value)
        let widget = g_value_get_object(&value).map { $0.assumingMemoryBound(to: GtkWidget.self) }
        g_value_unset(&value)
        guard let widget else { throw BenchmarkError(description: "gtksink made no widget") }
        gtk_window_set_default_size(UnsafeMutableRawPointer(window).assumingMemoryBound(to: GtkWindow.self), 1280, 720)
        gtk_container_add(UnsafeMutableRawPointer(window).assumingMemoryBound(to: GtkContainer.self), widget)
        gtk_widget_show_all(window)
        gst_element_set_state(element, GST_STATE_PAUSED)
    }

    private var element: UnsafeMutablePointer<GstElement> { playbin.typed() }

    func checkPlays() throws(BenchmarkError) {
        if let failure { throw BenchmarkError(description: "the bare playbin failed: \(failure)") }
    }

    var isPrerolled: Bool {
        guard !prerolled, failure == nil else { return true }
        let bus = gst_element_get_bus(element)
        defer { gv_object_unref(UnsafeMutableRawPointer(bus)) }
        let types = GstMessageType(rawValue: GST_MESSAGE_ASYNC_DONE.rawValue | GST_MESSAGE_ERROR.rawValue)
        while let message = gst_bus_pop_filtered(bus, types) {
            defer { gv_message_unref(message) }
            if case .error(let error) = BusMessage(popped: message) {
                failure = error.message
                return true
            }
            prerolled = true
        }
        return prerolled
    }

    func play() { gst_element_set_state(element, GST_STATE_PLAYING) }

    func close() {
        gst_element_set_state(element, GST_STATE_NULL)
        gtk_widget_destroy(window)
    }
}
