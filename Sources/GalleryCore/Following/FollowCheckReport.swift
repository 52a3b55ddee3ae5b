/// What one run of `FollowChecker.check` did.
public struct FollowCheckReport: Sendable {
    /// Galleries whose check succeeded (`notModified` ones included).
    public var checked = 0
    /// Galleries left alone: checked less than `Limits.minimumInterval` ago.
    public var skipped = 0
    /// Galleries whose first page was answered 304 Not Modified: one request, nothing new.
    public var notModified = 0
    public var failures: [FollowCheckFailure] = []
    /// Found new by this check, newest first.
    public var newItems: [FollowedItem] = []
    /// No gallery could be reached (the network is down): nothing was recorded for them.
    public var offline = false
    /// The follow store could not be read: nothing was checked.
    public var storeError: FollowStoreError?

    public init() {}
}

/// A gallery whose check failed, and why.
public struct FollowCheckFailure: Sendable, Equatable {
    public let key: FollowedGallery.Key
    public let error: GalleryError
    /// What the terminal prints ("No such user: bob. …"); the window shows `error.title`, kept as the
    /// gallery's `lastProblem`.
    public var sentence: String { error.sentence }

    public init(key: FollowedGallery.Key, error: GalleryError) {
        self.key = key
        self.error = error
    }
}
