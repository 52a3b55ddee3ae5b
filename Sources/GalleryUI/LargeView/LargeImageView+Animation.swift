import GObjectBindings
import GtkBindings
import GalleryCore

/// What the large view keeps for an animated GIF or WebP: the player, and the bar over the bottom of the
/// picture with the play/pause button and a note.
@MainActor
final class LargeViewAnimation {
    let bar = Box(.horizontal, spacing: 8)
    let playButton = Button(iconName: "media-playback-pause-symbolic", tooltip: tr("Pause the animation"))
    let note = Label()
    var player: AnimationPlayer?
    /// The window is minimized: a player made now starts held still.
    var isWindowMinimized = false
}

/// Animations in the large view. The screen-sized decode of an animation keeps its frames
/// (`ImageRequest.playsAnimation`); once its first frame is painted, an `AnimationPlayer` moves on from it, unless
/// the desktop turned animations off (`gtk-enable-animations`): then the play button waits for the user. An
/// animation over the decode limits shows its first frame and says why it does not move. Zooming an animation
/// enlarges its frames: no full-resolution decode is made of one frame that the next one would replace.
extension LargeImageView {
    func installAnimationControls() {
        let controls = animation
        controls.bar.halign = .center
        controls.bar.valign = .end
        controls.bar.setMargins(bottom: 18)
        controls.bar.addStyleClass("osd")
        controls.bar.addStyleClass("animation-bar")
        controls.playButton.isFlat = true
        controls.playButton.onClicked { [weak self] in self?.togglePlayback() }
        controls.bar.append(controls.playButton)
        controls.note.wraps = true
        controls.note.setMargins(start: 6, end: 6)
        controls.bar.append(controls.note)
        container.addOverlay(controls.bar)
        // Hidden: the large view left the window's stack, or the window itself was hidden.
        canvas.area.onUnmap { [weak self] in self?.animation.player?.suspend(.hidden) }
        canvas.area.onMap { [weak self] in self?.animation.player?.resume(.hidden) }
    }

    /// The player of the animation shown, if it is one that plays.
    var animationPlayer: AnimationPlayer? { animation.player }

    /// Play or pause the animation shown (the button, Space); nothing for a still image.
    public func togglePlayback() {
        animation.player?.togglePlayback()
    }

    /// The window was minimized or brought back: an animation holds still meanwhile.
    public func setWindowMinimized(_ minimized: Bool) {
        animation.isWindowMinimized = minimized
        if minimized { animation.player?.suspend(.minimized) } else { animation.player?.resume(.minimized) }
    }

    /// The decoded image was painted: plays `frames` when the image is an animation that came with them, or
    /// says why one does not move.
    func animationArrived(_ frames: ImageAnimation?, image: DecodedPixbuf) {
        stopAnimation()
        let controls = animation
        if let frames {
            var suspensions: Set<AnimationPlayer.Suspension> = []
            if !canvas.area.isMapped { suspensions.insert(.hidden) }
            if controls.isWindowMinimized { suspensions.insert(.minimized) }
            let player = AnimationPlayer(frames, autoplay: Settings.default?.enableAnimations ?? true,
                                         suspensions: suspensions)
            player.onFrame = { [weak self] frame in self?.animationFrame(frame) }
            player.onPlaybackChanged = { [weak self] in self?.updateAnimationControls() }
            controls.player = player
            controls.note.text = ""
            player.start()
        } else if image.isAnimated && image.isFirstFrameOnly {
            // TRANSLATORS: under an animation that is not played; {width} × {height} is its size in pixels.
            controls.note.text = trn("Too large to play ({count} frame of {width} × {height}): its first frame is shown",
                                     "Too large to play ({count} frames of {width} × {height}): its first frame is shown",
                                     image.frameCount, ["width": image.originalWidth, "height": image.originalHeight])
        } else {
            return
        }
        updateAnimationControls()
    }

    func stopAnimation() {
        animation.player?.stop()
        animation.player = nil
        animation.note.text = ""
        animation.bar.hide()
    }

    private func animationFrame(_ frame: AnimationPlayer.Frame) {
        guard let size = fullImageSize else { return }
        shownPixbuf = frame.pixbuf
        canvas.replacePicture(frame.surface, resolution: Double(frame.surface.pixelWidth) / Double(max(1, size.width)))
    }

    private func updateAnimationControls() {
        let controls = animation
        controls.playButton.isVisible = controls.player != nil
        controls.note.isVisible = !controls.note.text.isEmpty
        controls.bar.isVisible = controls.playButton.isVisible || controls.note.isVisible
        guard let player = controls.player else { return }
        let playing = player.playback == .playing
        controls.playButton.setIcon(playing ? "media-playback-pause-symbolic" : "media-playback-start-symbolic")
        let label = playing ? tr("Pause the animation") : tr("Play the animation")
        controls.playButton.tooltip = label
        controls.playButton.accessibleName = label
    }
}
