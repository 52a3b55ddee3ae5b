/// How long a feed waits after a rate limit or a refusal for now before asking again, and when it stops
/// waiting: at least the server's Retry-After, at least an exponential backoff with jitter (so many clients
/// told "0" do not come back in step), and only `maxRateLimitRetries` times in a row; a wait longer than
/// `maxWaitSeconds` is not waited out at all.
@MainActor
final class RateLimitBackoff {
    struct Wait {
        /// Rounded up, for the message.
        let seconds: Int
        let milliseconds: UInt32
    }

    private var refusalsInARow = 0
    /// The last rate limit or refusal waited out (see `reason(waiting:)`).
    private var waitingFor: GalleryError?

    /// The wait before asking again after `refusal`; nil when the feed is not to try again by itself.
    func wait(after refusal: GalleryError, limits: GalleryFeed.Limits) -> Wait? {
        var seconds: Int?
        if case .rateLimited(_, let value) = refusal { seconds = value }
        if case .refusingForNow(_, let value) = refusal { seconds = value }
        refusalsInARow += 1
        let backoff = Double(limits.backoffMilliseconds) * Double(1 << min(refusalsInARow - 1, 20))
        let jittered = backoff * Double.random(in: 0.5...1.0)
        let milliseconds = max(Double(seconds ?? 0) * 1000, jittered)
        guard refusalsInARow <= limits.maxRateLimitRetries, milliseconds <= Double(limits.maxWaitSeconds) * 1000 else {
            return nil
        }
        waitingFor = refusal
        return Wait(seconds: Int((milliseconds / 1000).rounded(.up)), milliseconds: UInt32(max(1, milliseconds)))
    }

    /// A page came through: the next refusal starts the backoff again.
    func reset() { refusalsInARow = 0 }

    /// The refusal waited out, saying it waits `seconds` ("DeviantArt asks to slow down").
    func reason(waiting seconds: Int) -> GalleryError? { waitingFor?.retrying(in: seconds) }
}
