import GObjectBindings
import GtkBindings
import GalleryCore

/// Plays an `ImageAnimation` for the large view: one frame at a time, each made ready to paint on a GTask worker
/// while the one before it shows, and a GLib timeout for as long as the shown frame lasts.
///
/// - **Timing.** The frames of one play (composited by the decoder helper) are shown in turn, then again from
///   the first for as many plays as the file asks for (`ImageAnimation.plays`). How long a frame shows is
///   its delay, 10 ms or less shown as 100 ms as browsers do (`AnimationLayout.displayDelay`).
/// - **Bounded.** Besides the frames' pixels (mapped from the helper), at most two cairo surfaces exist: the
///   one shown and the one made next. Nothing runs on the main loop per frame but handing the made surface to
///   the canvas; the conversion to a cairo surface happens on the worker.
/// - **Pausing.** The user's pause, the view being hidden (unmapped) or the window minimized stop the timer:
///   no frame is made after the one ready, and none is shown, until all of them are lifted.
@MainActor
final class AnimationPlayer {
    /// A frame made and ready to show: the surface to paint, the pixels behind it, where it is in the animation.
    struct Frame {
        let surface: ImageSurface
        let pixbuf: Pixbuf
        let position: Position
    }

    struct Position: Equatable {
        /// In `ImageAnimation.frames`.
        var index = 0
        var loop = 0
    }

    enum Playback: Equatable {
        case playing
        /// By the user, or from the start when the desktop turns animations off.
        case paused
        /// Every loop the file asks for has played; the last frame stays. Play starts it over.
        case finished
    }

    /// What holds the animation still besides the user: the view is not on screen, or the window is minimized.
    enum Suspension: Hashable {
        case hidden
        case minimized
    }

    let animation: ImageAnimation
    /// Counts restarts: a frame made before the last one is dropped when it arrives.
    private var generation = 0
    private(set) var playback: Playback
    private var suspensions: Set<Suspension>
    private var next = Position()
    private var making = false
    private var ready: Frame?
    /// The shown frame's time is up: the next one shows as soon as it is made.
    private var due = true
    private var timer: MainLoopSource?
    private var settingsChange: SignalConnection?
    /// Frames shown so far, and the index of the last one (for tests and the accessible description).
    private(set) var framesShown = 0
    private(set) var shownIndex: Int?

    /// A frame is to be painted now.
    var onFrame: (@MainActor (Frame) -> Void)?
    /// `playback` changed (the play button follows it).
    var onPlaybackChanged: (@MainActor () -> Void)?

    init(_ animation: ImageAnimation, autoplay: Bool, suspensions: Set<Suspension>) {
        self.animation = animation
        playback = autoplay ? .playing : .paused
        self.suspensions = suspensions
        // Reduced motion asked for while it plays: it stops, as it would not have started.
        settingsChange = Settings.default?.onEnableAnimationsChanged { [weak self] enabled in
            if !enabled { self?.pause() }
        }
    }

    isolated deinit { stop() }

    /// Lets go of the timer and the desktop's settings; a frame still being made is dropped when it arrives.
    func stop() {
        timer?.cancel()
        timer = nil
        settingsChange?.disconnect()
        settingsChange = nil
        onFrame = nil
        onPlaybackChanged = nil
    }

    /// Starts playing, unless made paused or held still; call once the callbacks are set.
    func start() { pump() }

    /// Frames move on: playing, and nothing holds it still.
    var isRunning: Bool { playback == .playing && suspensions.isEmpty }

    func play() {
        guard playback != .playing else { return }
        if playback == .finished { restart() }
        set(.playing)
    }

    func pause() {
        guard playback == .playing else { return }
        set(.paused)
    }

    func togglePlayback() { if playback == .playing { pause() } else { play() } }

    func suspend(_ reason: Suspension) {
        guard suspensions.insert(reason).inserted else { return }
        pump()
    }

    func resume(_ reason: Suspension) {
        guard suspensions.remove(reason) != nil else { return }
        pump()
    }

    private func set(_ playback: Playback) {
        self.playback = playback
        pump()
        onPlaybackChanged?()
    }

    /// From the first frame again.
    private func restart() {
        generation += 1
        next = Position()
        ready = nil
        due = true
    }

    /// Does what the state asks: shows the ready frame when its turn came, makes the next one ahead, or stops
    /// the timer while held still. Frames already shown stay; a stopped timer starts over when resumed.
    private func pump() {
        guard isRunning else {
            timer?.cancel()
            timer = nil
            if playback != .finished { due = true }
            return
        }
        if due, let frame = ready { present(frame) }
        if ready == nil, !making, playback == .playing { make(next) }
    }

    private func make(_ position: Position) {
        making = true
        let generation = self.generation
        let pixbuf = animation.frames[position.index]
        WorkerTask.run({ () -> ImageSurface? in
            let surface = ImageSurface(pixbuf)
            return surface.isValid ? surface : nil
        }, completion: { [weak self] surface in
            guard let self, generation == self.generation else { return }
            self.making = false
            guard let surface else {
                // cairo could not make the surface (out of memory): the frame shown stays.
                return self.set(.finished)
            }
            self.ready = Frame(surface: surface, pixbuf: pixbuf, position: position)
            self.pump()
        })
    }

    /// Shows `frame`, and sets up the next one: its position, and a timer for as long as this one lasts.
    private func present(_ frame: Frame) {
        ready = nil
        due = false
        framesShown += 1
        shownIndex = frame.position.index
        onFrame?(frame)
        guard let following = following(frame) else { return set(.finished) }
        next = following
        let stated = animation.frameDelays[frame.position.index]
        timer?.cancel()
        timer = MainLoopSource.after(milliseconds: UInt32(clamping: AnimationLayout.displayDelay(stated))) { [weak self] in
            guard let self else { return }
            self.timer = nil
            self.due = true
            self.pump()
        }
    }

    /// Where the frame after `frame` is, or nil when `frame` is the last to show.
    private func following(_ frame: Frame) -> Position? {
        var position = Position(index: frame.position.index + 1, loop: frame.position.loop)
        if position.index >= animation.frames.count {
            position.index = 0
            position.loop += 1
        }
        if let plays = animation.plays, position.loop >= plays { return nil }
        return position
    }
}
