import GObjectBindings
@_spi(Testing) import GStreamerBindings

/// Plays one video or sound from the network: a `MediaStream` feeds GStreamer's playbin (decoding on
/// GStreamer's own threads, the bus heard on the main loop), frames go to a `VideoSink` the view shows.
/// No widgets here; the large view drives it and shows `status`.
@MainActor
public final class MediaPlayer {
    public enum Status: Equatable, Sendable {
        case idle
        /// Waiting for the first frame (or, for a sound, for playback to be ready).
        case loading
        case paused
        case playing
        /// Played to the end; play starts again from the start.
        case ended
        /// Why it stopped; Retry loads it again.
        case failed(String)
    }

    public struct Options: Sendable {
        /// Starts by itself (a gifv) instead of showing its first frame and waiting.
        public var autoplay = false
        /// Starts again at the end (a gifv).
        public var loops = false
        public var muted = false
        /// Frames are shown (false for a sound).
        public var showsVideo = true

        public init(autoplay: Bool = false, loops: Bool = false, muted: Bool = false, showsVideo: Bool = true) {
            self.autoplay = autoplay
            self.loops = loops
            self.muted = muted
            self.showsVideo = showsVideo
        }
    }

    /// The largest file played (and saved): videos run larger than pictures.
    public static let maxMediaBytes = 1024 * 1_048_576
    /// appsrc's queue: what is read ahead of the decoders, whatever the file's length.
    public static let maxQueuedBytes = 2 * 1_048_576

    private let client: HTTPClient
    private var playbin: Playbin?
    private(set) var stream: MediaStream?
    public private(set) var status: Status = .idle
    public private(set) var url: String?
    public private(set) var options = Options()
    /// The pipeline prerolled: its first frame is shown and position and duration are known.
    private var prerolled = false
    private var wantsPlaying = false
    /// Bumped by every load and stop: late bus messages and responses of an older load do nothing.
    private var generation = 0
    /// What a missing-plugin message said, for the error that follows it.
    private var missingElement: String?
    /// No audio output: the video plays silently (the view says so).
    public private(set) var hasNoSoundOutput = false
    /// The file's size and media type from the server, once known.
    public private(set) var fileSize: Int?
    public private(set) var mediaType: String?

    /// Status, position or duration changed.
    public var onChange: (@MainActor () -> Void)?

    private let makeVideoSink: @MainActor () -> VideoSink?

    /// `makeVideoSink` makes each load's sink: gtksink's for the window, `VideoSink.discarding` without one.
    public init(client: HTTPClient, makeVideoSink: @escaping @MainActor () -> VideoSink? = { VideoSink() }) {
        self.client = client
        self.makeVideoSink = makeVideoSink
    }

    /// The sink showing the frames of what is loaded (nil for a sound or before `load`).
    public var videoSink: VideoSink? { playbin?.videoSink }

    /// Loads `url` and shows its first frame (or starts, with `autoplay`); replaces whatever played before.
    public func load(_ url: String, options: Options) {
        stop()
        self.url = url
        self.options = options
        wantsPlaying = options.autoplay
        setStatus(.loading)
        let generation = self.generation
        let stream = MediaStream(url: url, client: client, maxBytes: Self.maxMediaBytes)
        self.stream = stream
        stream.onFailure = { [weak self] error in self?.fail(error.message) }
        stream.start { [weak self] result in
            guard let self, self.generation == generation else { return }
            switch result {
            case .failure(let error) where error == .cancelled:
                return
            case .failure(let error):
                self.fail(error.message)
            case .success(let head):
                self.fileSize = stream.size
                self.mediaType = head.mediaType
                self.startPipeline(stream, generation: generation)
            }
        }
    }

    private func startPipeline(_ stream: MediaStream, generation: Int) {
        guard GStreamer.initialize() else { return fail(tr("Video playback is not available (GStreamer could not start)")) }
        let sink = options.showsVideo ? makeVideoSink() : nil
        if options.showsVideo && sink == nil {
            return fail(tr("Video playback is not available (install gstreamer1.0-gtk3)"))
        }
        guard let playbin = Playbin(videoSink: sink, audio: !options.muted || !options.loops, size: stream.size,
                                    maxQueuedBytes: Self.maxQueuedBytes, configureSource: { [weak stream] source in
                                        stream?.attach(source)
                                    })
        else { return fail(tr("Video playback is not available (install gstreamer1.0-plugins-base)")) }
        self.playbin = playbin
        playbin.isMuted = options.muted
        playbin.onMessage = { [weak self] message in
            guard let self, self.generation == generation else { return }
            self.handle(message)
        }
        // The view places the sink's widget now: gtksink opens a window of its own for a widget that has no
        // window around it when the pipeline starts.
        onChange?()
        if !playbin.setState(.paused) && status == .loading {
            fail(tr("The video could not be started"))
        }
    }

    private func handle(_ message: BusMessage) {
        switch message {
        case .asyncDone:
            if !prerolled {
                prerolled = true
                hasNoSoundOutput = playbin?.playsSoundNowhere ?? false
            }
            if case .loading = status { setStatus(wantsPlaying ? .playing : .paused) }
            if wantsPlaying { playbin?.setState(.playing) }
            onChange?()
        case .stateChanged(let state):
            if state == .playing, status != .playing { setStatus(.playing) }
        case .endOfStream:
            if options.loops {
                playbin?.seek(to: 0)
            } else {
                wantsPlaying = false
                playbin?.setState(.paused)
                setStatus(.ended)
            }
        case .missingPlugin(let description):
            missingElement = missingElement ?? description
        case .error(let error):
            switch error.kind {
            case .unsupported:
                // TRANSLATORS: {reason} names what is missing, such as "H.265 decoder" or "AVI demuxer".
                fail(tr("Unsupported video format ({reason})", ["reason": missingElement ?? error.message]))
            case .undecodable:
                // TRANSLATORS: {reason} is GStreamer's explanation.
                fail(tr("The video file is damaged or not what it claims to be: {reason}", ["reason": error.message]))
            case .output, .other:
                // TRANSLATORS: {reason} is GStreamer's explanation.
                fail(tr("The video could not be played: {reason}", ["reason": error.message]))
            }
        case .durationChanged:
            onChange?()
        case .warning, .other:
            break
        }
    }

    public func play() {
        guard let playbin else { return }
        if status == .ended { playbin.seek(to: 0) }
        wantsPlaying = true
        guard prerolled else { return }
        playbin.setState(.playing)
        setStatus(.playing)
    }

    public func pause() {
        wantsPlaying = false
        guard let playbin, prerolled, status == .playing else { return }
        playbin.setState(.paused)
        setStatus(.paused)
    }

    /// Play or pause (Space, the play button); Retry after a failure.
    public func togglePlayback() {
        switch status {
        case .playing: pause()
        case .failed: retry()
        case .loading: wantsPlaying.toggle()
        default: play()
        }
    }

    /// Loads the same URL again after a failure.
    public func retry() {
        guard case .failed = status, let url else { return }
        load(url, options: options)
    }

    /// Plays on faster (`Playbin.setRate`): `make bench`'s long video only.
    @_spi(Testing) public func setRate(_ rate: Double) -> Bool { playbin?.setRate(rate) ?? false }

    /// Seconds from the start; nil while unknown.
    public var position: Double? { playbin?.position.map { Double($0) / 1e9 } }
    public var duration: Double? { playbin?.duration.map { Double($0) / 1e9 } }

    public func seek(toSeconds seconds: Double) {
        guard let playbin, prerolled else { return }
        if status == .ended { setStatus(.paused) }
        playbin.seek(to: Int64(max(0, seconds) * 1e9))
        onChange?()
    }

    public var volume: Double {
        get { playbin?.volume ?? 1 }
        set { playbin?.volume = newValue }
    }

    public var isMuted: Bool {
        get { playbin?.isMuted ?? options.muted }
        set {
            options.muted = newValue
            playbin?.isMuted = newValue
            onChange?()
        }
    }

    /// The codecs of the streams ("VP8", "Opus"), once known.
    public var codecs: (video: String?, audio: String?) { playbin?.codecs ?? (nil, nil) }

    /// Ends playback and releases the pipeline (its threads and file descriptors) at once.
    public func stop() {
        generation += 1
        stream?.cancel()
        stream = nil
        playbin = nil
        prerolled = false
        wantsPlaying = false
        missingElement = nil
        hasNoSoundOutput = false
        fileSize = nil
        mediaType = nil
        if status != .idle { setStatus(.idle) }
    }

    private func fail(_ message: String) {
        if case .failed = status { return }
        stream?.cancel()
        playbin = nil
        prerolled = false
        setStatus(.failed(message))
    }

    private func setStatus(_ status: Status) {
        guard status != self.status else { return }
        self.status = status
        onChange?()
    }

    /// A GStreamer pipeline exists (it is dropped, and its threads joined, by `stop` and by a failure).
    public var hasPipeline: Bool { playbin != nil }

    /// Range requests the current stream made (tests).
    public var rangeRequests: Int { stream?.rangeRequests ?? 0 }
}
