/// The demo gallery's moving pictures and sound, made at build time by `gallery-demo-images` with GStreamer's
/// own encoders (no third-party files) into `<images>/media`, and served under `/media/`. Every seventh post is
/// a video post (`DemoPost.isVideo`); those take the three in turn, in each service's own wire format.
///
/// The gifv-style loop is H.264 in MP4, as Mastodon converts every GIF (encoded with GStreamer's `x264enc`, from
/// gstreamer1.0-plugins-ugly: gst-libav offers only `avenc_h264_omx`, which needs an OpenMAX device); the app
/// decodes it with gst-libav's `avdec_h264`. The video is WebM (VP8 and Opus), as Commons and Misskey serve.
public enum DemoMedia: String, CaseIterable, Sendable {
    /// A silent looping clip, as Mastodon's `gifv` (an MP4 whose index sits at the end, as a muxer writes it by
    /// default; each loop reads its start again with a Range request).
    case loop
    /// A video with sound: VP8 and Opus in WebM.
    case clip
    /// A sound: Vorbis in Ogg.
    case sound

    public var fileName: String {
        switch self {
        case .loop: "loop.mp4"
        case .clip: "clip.webm"
        case .sound: "sound.ogg"
        }
    }

    public var mediaType: String {
        switch self {
        case .loop: "video/mp4"
        case .clip: "video/webm"
        case .sound: "audio/ogg"
        }
    }

    /// Mastodon's MediaAttachment `type`.
    public var mastodonType: String {
        switch self {
        case .loop: "gifv"
        case .clip: "video"
        case .sound: "audio"
        }
    }

    public var isSound: Bool { self == .sound }

    /// Seconds, as encoded.
    public var duration: Double {
        switch self {
        case .loop: 3
        case .clip: 6
        case .sound: 4
        }
    }

    /// Frame size of the videos (nil for the sound).
    public var size: (width: Int, height: Int)? { isSound ? nil : (480, 270) }

    /// The gst-launch pipeline that writes the file to `%OUTPUT%`.
    public var pipeline: String {
        let video = "video/x-raw,width=480,height=270,framerate=15/1,format=I420"
        switch self {
        case .loop:
            // One thread: the same bytes on every machine.
            return "videotestsrc pattern=ball num-buffers=45 ! \(video) ! x264enc speed-preset=ultrafast threads=1 ! "
                + "video/x-h264,profile=constrained-baseline ! mp4mux ! filesink location=%OUTPUT%"
        case .clip:
            return "videotestsrc pattern=smpte num-buffers=90 ! \(video) ! vp8enc deadline=1 ! webmmux name=mux ! "
                + "filesink location=%OUTPUT% audiotestsrc num-buffers=259 freq=330 ! audioconvert ! opusenc ! mux."
        case .sound:
            return "audiotestsrc num-buffers=173 freq=440 ! audioconvert ! vorbisenc ! oggmux ! filesink location=%OUTPUT%"
        }
    }

    /// The URL path the demo server serves it under.
    public var path: String { "/media/" + fileName }

    /// The folder under the images directory.
    public static let folder = "media"

    /// What a Commons upload of the demo is instead of its picture: every seventh one a WebM video or an Ogg
    /// sound in turn (Commons takes neither MP4 nor gifv), the picture standing for the video's still frame.
    /// Uploads meant to fail stay pictures.
    public static func commonsUpload(_ item: DemoItem) -> DemoMedia? {
        guard item.index % 7 == 0, item.fault == nil else { return nil }
        return [.clip, .sound][(item.index / 7 - 1) % 2]
    }

    /// What a video post of the demo shows, in turn.
    public static func of(_ post: DemoPost) -> DemoMedia? {
        guard post.isVideo else { return nil }
        return allCases[(post.index / 7) % allCases.count]
    }
}
