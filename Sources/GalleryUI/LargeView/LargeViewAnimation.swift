import GObjectBindings
import GtkBindings
import GalleryCore

/// Animations in the large view: the player of an animated GIF or WebP, and the bar over the bottom of the
/// picture with the play/pause button and a note. The screen-sized decode of an animation keeps its frames
/// (`ImageRequest.playsAnimation`); once its first frame is painted, an `AnimationPlayer` moves on from it, unless
/// the desktop turned animations off (`gtk-enable-animations`): then the play button waits for the user. An
/// animation over the decode limits shows its first frame and says why it does not move. Zooming an animation
/// enlarges its frames: no full-resolution decode is made of one frame that the next one would replace.
@MainActor
final class LargeViewAnimation {
    let bar = Box(.horizontal, spacing: 8)
    let playButton = Button(iconName: "media-playback-pause-symbolic", tooltip: tr("Pause the animation"))
    let note = Label()
    /// The player of the animation shown, if it is one that plays.
    private(set) var player: AnimationPlayer?
    /// The window is minimized: a player made now starts held still.
    private var isWindowMinimized = false
    private let picture: Widget
    /// A frame of the animation is to be painted.
    var onFrame: (@MainActor (AnimationPlayer.Frame) -> Void)?

    /// `picture`: the widget the frames are painted in; while it is unmapped, the animation holds still.
    init(picture: Widget) {
        self.picture = picture
        bar.halign = .center
        bar.valign = .end
        bar.setMargins(bottom: 18)
        bar.addStyleClass("osd")
        bar.addStyleClass("animation-bar")
        playButton.isFlat = true
        playButton.onClicked { [weak self] in self?.togglePlayback() }
        bar.append(playButton)
        note.wraps = true
        note.setMargins(start: 6, end: 6)
        bar.append(note)
        // Hidden: the large view left the window's stack, or the window itself was hidden.
        picture.onUnmap { [weak self] in self?.player?.suspend(.hidden) }
        picture.onMap { [weak self] in self?.player?.resume(.hidden) }
    }

    /// Play or pause the animation shown (the button, Space); nothing for a still image.
    func togglePlayback() {
        player?.togglePlayback()
    }

    /// The window was minimized or brought back: an animation holds still meanwhile.
    func setWindowMinimized(_ minimized: Bool) {
        isWindowMinimized = minimized
        if minimized { player?.suspend(.minimized) } else { player?.resume(.minimized) }
    }

    /// The decoded image was painted: plays `frames` when the image is an animation that came with them, or
    /// says why one does not move.
    func arrived(_ frames: ImageAnimation?, image: DecodedPixbuf) {
        stop()
        if let frames {
            var suspensions: Set<AnimationPlayer.Suspension> = []
            if !picture.isMapped { suspensions.insert(.hidden) }
            if isWindowMinimized { suspensions.insert(.minimized) }
            let player = AnimationPlayer(frames, autoplay: Settings.default?.enableAnimations ?? true,
                                         suspensions: suspensions)
            player.onFrame = { [weak self] frame in self?.onFrame?(frame) }
            player.onPlaybackChanged = { [weak self] in self?.updateControls() }
            self.player = player
            note.text = ""
            player.start()
        } else if image.isAnimated && image.isFirstFrameOnly {
            // TRANSLATORS: under an animation that is not played; {width} × {height} is its size in pixels.
            note.text = trn("Too large to play ({count} frame of {width} × {height}): its first frame is shown",
                            "Too large to play ({count} frames of {width} × {height}): its first frame is shown",
                            image.frameCount, ["width": image.originalWidth, "height": image.originalHeight])
        } else {
            return
        }
        updateControls()
    }

    /// The view moved on: the player stops and the bar goes.
    func stop() {
        player?.stop()
        player = nil
        note.text = ""
        bar.hide()
    }

    private func updateControls() {
        playButton.isVisible = player != nil
        note.isVisible = !note.text.isEmpty
        bar.isVisible = playButton.isVisible || note.isVisible
        guard let player else { return }
        let playing = player.playback == .playing
        playButton.setIcon(playing ? "media-playback-pause-symbolic" : "media-playback-start-symbolic")
        let label = playing ? tr("Pause the animation") : tr("Play the animation")
        playButton.tooltip = label
        playButton.accessibleName = label
    }
}
