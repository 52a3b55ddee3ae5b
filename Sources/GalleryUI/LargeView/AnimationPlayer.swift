import GObjectBindings
import GtkBindings
import GalleryCore

/// Plays an `ImageAnimation` for the large view: one frame at a time, each made on a GTask worker while the one
/// before it shows, and a GLib timeout for as long as the shown frame lasts.
///
/// - **Timing.** Frames follow the animation's own clock: the player asks the loader's iterator for the frame at
///   a time, and the next time is this frame's time plus the loader's delay for it, so every frame is visited
///   once per loop. How long a frame shows is the file's delay, 10 ms or less shown as 100 ms as browsers do
///   (`AnimationLayout.displayDelay`). The loop count is the file's (WebP's loader would loop forever).
/// - **Bounded.** At most two frames exist besides the loader's own: the one shown and the one made next.
///   Nothing runs on the main loop per frame but handing the made frame to the canvas; compositing, scaling
///   and the conversion to a cairo surface happen on the worker.
/// - **Pausing.** The user's pause, the view being hidden (unmapped) or the window minimized stop the timer:
///   no frame is made after the one ready, and none is shown, until all of them are lifted.
@MainActor
final class AnimationPlayer {
    /// A frame made and ready to show: the surface to paint, the pixels behind it, where it is in the animation.
    struct Frame {
        let surface: ImageSurface
        let pixbuf: Pixbuf
        let position: Position
        /// The loader's delay from this frame to the next on the animation's clock; nil: the last frame for good.
        let loaderDelay: Int?
    }

    struct Position: Equatable {
        /// On the animation's clock, in milliseconds (the loader's own timeline).
        var time = 1
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
    private var iterator: PixbufAnimationIterator
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
        iterator = animation.frames.makeIterator()
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

    /// From the first frame again, with a new iterator (GIF's has ended when its loops did).
    private func restart() {
        iterator = animation.frames.makeIterator()
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
        let iterator = self.iterator
        WorkerTask.run({ () -> (surface: ImageSurface, frame: PixbufAnimationIterator.Frame)? in
            guard let frame = iterator.frame(at: position.time) else { return nil }
            let surface = ImageSurface(frame.pixbuf)
            return surface.isValid ? (surface, frame) : nil
        }, completion: { [weak self] made in
            guard let self, iterator === self.iterator else { return }
            self.making = false
            guard let made else {
                // gdk-pixbuf gave no frame (out of memory): the frame shown stays.
                return self.set(.finished)
            }
            self.ready = Frame(surface: made.surface, pixbuf: made.frame.pixbuf, position: position,
                               loaderDelay: made.frame.delay)
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
        let delays = animation.frameDelays
        let stated = delays.isEmpty ? frame.loaderDelay ?? 100 : delays[frame.position.index % delays.count]
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
        guard let delay = frame.loaderDelay else { return nil }
        let cycle = animation.frameDelays.isEmpty ? animation.frameCount : animation.frameDelays.count
        var position = Position(time: frame.position.time + max(1, delay), index: frame.position.index + 1,
                                loop: frame.position.loop)
        if position.index >= cycle {
            position.index = 0
            position.loop += 1
        }
        if let plays = animation.plays, position.loop >= plays { return nil }
        return position
    }
}
