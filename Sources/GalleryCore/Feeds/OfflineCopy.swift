/// A feed's saved first page: the replies that make it are recorded and saved in a `FeedSnapshotStore`, and
/// stand in for them when the service cannot be reached.
@MainActor
final class OfflineCopy {
    /// Where the first page's replies are kept for a launch without network; nil keeps nothing.
    private let snapshots: FeedSnapshotStore?
    /// Collects the replies up to the first page of items; nil once it is saved, or without `snapshots`.
    private var recorder: FeedSnapshotRecorder?
    /// The saved first page shown because the service could not be reached; nil while the feed is live.
    private(set) var copy: FeedSnapshot?

    init(snapshots: FeedSnapshotStore?, firstRequest: PageRequest) {
        self.snapshots = snapshots
        recorder = snapshots == nil ? nil : FeedSnapshotRecorder(firstURL: firstRequest.key)
    }

    /// Only until the first page arrived: later pages are not saved, and a gallery half shown live and half
    /// from an old copy would be neither.
    func mayStandIn(pagesLoaded: Int) -> Bool { snapshots != nil && copy == nil && pagesLoaded == 0 }

    /// Looks for the saved copy of this gallery; false (and `completion` never runs) when none can be.
    func load(completion: @escaping @MainActor (FeedSnapshot?) -> Void) -> Bool {
        guard let snapshots, let firstURL = recorder?.firstURL else { return false }
        snapshots.load(firstURL: firstURL, completion: completion)
        return true
    }

    /// From now on the feed is answered from `snapshot`, and records nothing.
    func goOffline(with snapshot: FeedSnapshot) {
        copy = snapshot
        recorder = nil
    }

    func record(_ response: HTTPResponse, of request: PageRequest) {
        recorder?.record(response, of: request)
    }

    /// A page of items came: if it is the first, the replies that led to it are saved, and none after it.
    func pageArrived() {
        if let snapshot = recorder?.snapshot(savedAt: DateText.now()) { snapshots?.save(snapshot) }
        recorder = nil
    }
}
