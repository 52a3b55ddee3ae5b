extension GalleryFeed {
    /// What a server's replies cannot push past.
    public struct Limits: Sendable {
        public var maxPageBytes: Int
        /// Longest rate-limit wait the feed sits out by itself; a longer Retry-After ends the feed with the message.
        public var maxWaitSeconds: Int
        /// Rate-limit answers in a row that are waited out; the next one ends the feed with the message.
        public var maxRateLimitRetries: Int
        /// The first retry waits about this long (with jitter), each further one twice as long, and never less
        /// than the server's Retry-After: a `Retry-After: 0` does not make the app hammer the server.
        public var backoffMilliseconds: Int
        /// Replies in a row without items (a lookup's counts too) before the feed stops: a server whose every
        /// page is empty but links to another would otherwise be followed without end.
        public var maxEmptyReplies: Int
        /// Items handed over per main-loop turn: more than a real page (DeviantArt's 60), few enough that
        /// making their rows stays well under a frame's worth of work each time.
        public var maxItemsPerDelivery: Int
        /// How long a request the gallery can do without (`PageRequest.fallback`) is waited for before the feed
        /// goes on without its answer: a lookup on another server must not hold the first page up for the
        /// client's whole I/O timeout.
        public var optionalAnswerMilliseconds: Int

        public init(maxPageBytes: Int = 8 * 1_048_576, maxWaitSeconds: Int = 900, maxRateLimitRetries: Int = 5,
                    backoffMilliseconds: Int = 2000, maxEmptyReplies: Int = 5, maxItemsPerDelivery: Int = 64,
                    optionalAnswerMilliseconds: Int = 4000) {
            self.optionalAnswerMilliseconds = optionalAnswerMilliseconds
            self.maxPageBytes = maxPageBytes
            self.maxWaitSeconds = maxWaitSeconds
            self.maxRateLimitRetries = maxRateLimitRetries
            self.backoffMilliseconds = backoffMilliseconds
            self.maxEmptyReplies = maxEmptyReplies
            self.maxItemsPerDelivery = maxItemsPerDelivery
        }
    }
}
