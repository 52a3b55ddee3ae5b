import GalleryCore

/// Where the large view's item stands, for the slideshow: it waits for `loading` to pass, counts its interval
/// from `shown`, and moves on at once from `finished`.
public enum LargeViewPresentation: Equatable, Sendable {
    /// Its picture, video or sound is still coming.
    case loading
    /// Its picture is painted, or a message says why there is none; a video or sound is paused or failed.
    case shown
    case playing
    /// A video or sound played to its end.
    case finished
}

extension LargeImageView {
    public var presentation: LargeViewPresentation {
        if media.isActive {
            switch media.player.status {
            case .idle, .loading: return .loading
            case .playing: return .playing
            case .ended: return .finished
            case .paused, .failed: return .shown
            }
        }
        return failure == nil && requestedURL != nil && !isShowingFullImage ? .loading : .shown
    }
}
