import GObjectBindings
import GtkBindings
import GalleryCore
import GStreamerBindings

/// A video, gifv or sound in the large view: the frames (gtksink's widget) over the item's still, and a bar of
/// controls: play/pause, the time, a seek bar, mute and volume. A gifv plays by itself, silent and looping
/// (under the desktop's reduced-motion setting it shows its first frame and waits, like an animation); a video
/// shows its first frame and waits for Space or the play button; a sound shows the still (or nothing) with
/// the same controls. What plays stops when the view moves on (`stop`), and pauses while the window is
/// minimized.
@MainActor
final class LargeMediaView {
    /// Laid over the picture while a video or sound is shown: the frames above, the controls at the bottom.
    let slot = Box(.vertical, spacing: 0)
    let controls = Box(.horizontal, spacing: 6)
    let playButton = Button(iconName: "media-playback-start-symbolic", tooltip: tr("Play (Space)"))
    let timeLabel = Label()
    let seekBar = Scale(upper: 1, step: 1)
    let muteButton = Button(iconName: "audio-volume-high-symbolic", tooltip: tr("Mute (M)"))
    let volumeBar = Scale(upper: 1, step: 0.05)
    let player: MediaPlayer
    private(set) var videoView: VideoView?
    /// The sink whose widget `videoView` is: each load (a Retry too) makes a new one.
    private weak var shownSink: VideoSink?
    /// A sound without a still of its own shows this instead.
    let soundIcon = Image()
    private var ticker: MainLoopSource?
    /// Set while the seek bar follows playback, so its value-changed is not taken for the user's seek.
    private var followingPlayback = false
    private var pausedForMinimize = false
    /// The item shown plays something.
    private(set) var isActive = false

    /// Status, time or the sound output changed: the large view updates its message and details.
    var onChange: (@MainActor () -> Void)?

    init(client: HTTPClient) {
        player = MediaPlayer(client: client)
        slot.addStyleClass("large-view-media")
        controls.addStyleClass("osd")
        controls.addStyleClass("media-controls")
        controls.valign = .end
        timeLabel.addStyleClass("numeric")
        seekBar.accessibleName = tr("Position")
        volumeBar.accessibleName = tr("Volume")
        volumeBar.setSizeRequest(width: 90, height: -1)
        volumeBar.value = 1
        controls.append(playButton)
        controls.append(timeLabel)
        controls.append(seekBar, expand: true)
        controls.append(muteButton)
        controls.append(volumeBar)
        soundIcon.setIcon("audio-x-generic-symbolic", pixelSize: 128)
        soundIcon.addStyleClass("dim-label")
        slot.append(soundIcon, expand: true)
        slot.appendAtEnd(controls)
        slot.showAll()
        slot.hide()
        playButton.onClicked { [weak self] in self?.togglePlayback() }
        muteButton.onClicked { [weak self] in self?.toggleMute() }
        seekBar.adjustment.onValueChanged { [weak self] in
            guard let self, !self.followingPlayback else { return }
            self.player.seek(toSeconds: self.seekBar.value)
        }
        volumeBar.adjustment.onValueChanged { [weak self] in
            guard let self else { return }
            self.player.volume = self.volumeBar.value
        }
        player.onChange = { [weak self] in self?.playerChanged() }
    }

    /// Plays `media`: a gifv by itself (unless animations are off), anything else from its first frame on
    /// Space. `isSound`: no frames, the controls only (and an icon when there is no `still`). `playsThrough`
    /// (the slideshow): a video or sound starts by itself, and nothing loops, so that each comes to an end.
    func show(_ media: GalleryItem.Media, isSound: Bool, hasStill: Bool, playsThrough: Bool = false) {
        stop()
        isActive = true
        let animations = Settings.default?.enableAnimations ?? true
        let autoplay = media.loops ? animations : playsThrough
        player.load(media.url, options: .init(autoplay: autoplay, loops: media.loops && !playsThrough, muted: media.loops,
                                              showsVideo: !isSound))
        // A gifv has no sound to control.
        [muteButton, volumeBar].forEach { $0.isVisible = !media.loops }
        let showsIcon = isSound && !hasStill
        slot.valign = isSound && !showsIcon ? .end : .fill
        slot.show()
        soundIcon.isVisible = showsIcon
        playerChanged()
    }

    /// Stops playback and lets go of the pipeline (its threads and descriptors) and the frames' widget.
    func stop() {
        isActive = false
        ticker?.cancel()
        ticker = nil
        player.stop()
        videoView?.destroy()
        videoView = nil
        shownSink = nil
        pausedForMinimize = false
        slot.hide()
    }

    func togglePlayback() {
        player.togglePlayback()
    }

    func toggleMute() {
        guard isActive, !player.options.loops else { return }
        player.isMuted.toggle()
    }

    /// The window was minimized: what plays pauses, and resumes when the window comes back.
    func setWindowMinimized(_ minimized: Bool) {
        if minimized, player.status == .playing {
            pausedForMinimize = true
            player.pause()
        } else if !minimized, pausedForMinimize {
            pausedForMinimize = false
            player.play()
        }
    }

    /// The frames' widget is the current sink's: gtksink opens a window of its own for a widget that is in
    /// none when its pipeline starts.
    var showsCurrentSink: Bool { videoView != nil && shownSink != nil && shownSink === player.videoSink }

    private func playerChanged() {
        if let sink = player.videoSink, sink !== shownSink {
            videoView?.destroy()
            videoView = VideoView(sink: sink)
            shownSink = sink
            if let videoView {
                slot.append(videoView, expand: true)
                videoView.show()
            }
        }
        let playing = player.status == .playing
        playButton.setIcon(playing ? "media-playback-pause-symbolic" : "media-playback-start-symbolic")
        playButton.tooltip = playing ? tr("Pause (Space)") : tr("Play (Space)")
        muteButton.setIcon(player.isMuted ? "audio-volume-muted-symbolic" : "audio-volume-high-symbolic")
        muteButton.tooltip = player.isMuted ? tr("Unmute (M)") : tr("Mute (M)")
        if playing && ticker == nil {
            // The time and the seek bar follow playback four times a second.
            ticker = MainLoopSource.every(milliseconds: 250) { [weak self] in
                self?.updateTime()
                return true
            }
        } else if !playing {
            ticker?.cancel()
            ticker = nil
        }
        updateTime()
        onChange?()
    }

    private func updateTime() {
        let position = player.position ?? 0
        let duration = player.duration
        followingPlayback = true
        if let duration { seekBar.setRange(upper: duration) }
        seekBar.value = position
        followingPlayback = false
        let time = DurationText.clock(position)
        timeLabel.text = duration.map { time + " / " + DurationText.clock($0) } ?? time
    }
}
