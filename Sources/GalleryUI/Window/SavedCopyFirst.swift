import GObjectBindings
import GalleryCore

/// A launch opens on the last gallery at once: its first page saved the last time (`FeedSnapshotStore`, read on
/// a worker) shows, with its first screen's thumbnails saved as the app quit, while the service is asked again, and the service's answer then takes its place with the
/// view kept where it was (`GalleryListView.replace`). The answer waits while the large view or the find bar is
/// open (what they show belongs to the saved copy), and takes its place when they close. A live answer that
/// comes before the saved copy is read simply shows; any other search ends it all.
@MainActor
final class SavedCopyFirst {
    private let snapshots: FeedSnapshotStore
    /// The saved copy on screen, while the live gallery is asked for.
    private(set) var saved: Gallery?
    private var live: Gallery?

    /// Show the saved copy (it is not started from the network).
    var onShowSaved: (@MainActor (Gallery) -> Void)?
    /// The live gallery takes the saved copy's place.
    var onReplace: (@MainActor (Gallery) -> Void)?
    /// Whether the saved copy may be replaced now.
    var mayReplace: (@MainActor () -> Bool)?

    /// Where the saved first screen's thumbnails go: the rows find them there as they bind.
    private let images: ImageCache

    init(snapshots: FeedSnapshotStore, images: ImageCache) {
        self.snapshots = snapshots
        self.images = images
    }

    /// What `begin` reads before the saved copy shows: its page, and its first screen's thumbnails (without
    /// them the rows would wait for the HTTP cache's index).
    private final class Reading {
        var snapshot: FeedSnapshot?
        var isSnapshotRead = false
        var areThumbnailsRead = false
    }

    /// `live` was just started: shows its saved copy, made by `makeSaved`, if there is one and the live
    /// answer has not come first.
    func begin(live: Gallery, makeSaved: @escaping @MainActor () -> Gallery) {
        end()
        self.live = live
        let firstURL = live.source.firstRequest().key
        let reading = Reading()
        let showWhenRead: @MainActor () -> Void = { [weak self, weak live] in
            guard reading.isSnapshotRead, reading.areThumbnailsRead else { return }
            guard let self, let live, self.live === live, self.saved == nil, let snapshot = reading.snapshot,
                  live.downloads.isEmpty, Self.isAsking(live) else { return }
            let saved = makeSaved()
            saved.start(fromSavedCopy: snapshot)
            self.saved = saved
            onShowSaved?(saved)
        }
        snapshots.load(firstURL: firstURL) { snapshot in
            reading.snapshot = snapshot
            reading.isSnapshotRead = true
            showWhenRead()
        }
        snapshots.loadFirstScreen(firstURL: firstURL) { [images] entries in
            // Also when the live answer came first: its rows not bound yet find them.
            for entry in entries where images.image(for: entry.key) == nil { images.insert(entry.image, for: entry.key) }
            reading.areThumbnailsRead = true
            showWhenRead()
        }
    }

    /// Whether `gallery` is the live gallery behind a saved copy on screen (its changes are not the window's).
    func isBehindSavedCopy(_ gallery: Gallery) -> Bool { saved != nil && live === gallery }

    /// The live gallery changed, or what kept it waiting closed: once its first page is all there (or it
    /// failed, or waits out a rate limit with nothing to show), it takes the saved copy's place.
    func liveChanged() {
        guard let live else { return }
        guard saved != nil else {
            // Answered before the saved copy was read: there is nothing to replace.
            if !Self.isAsking(live) { self.live = nil }
            return
        }
        switch live.feed.state {
        case .loading: return
        case .waiting: if live.downloads.isEmpty { return }
        // The feed's state ends just before its last slice of items is handed over: wait for them all, so
        // that the item at the top is found again.
        case .idle, .finished: if live.downloads.count + live.duplicatesSkipped < live.feed.itemsDelivered { return }
        case .failed: break
        }
        guard mayReplace?() ?? true else { return }
        let saved = self.saved
        self.saved = nil
        self.live = nil
        onReplace?(live)
        // Once the live rows were bound (at the next frame, before idle callbacks run) and asked for their
        // thumbnails, which then share the saved copy's requests still in flight (the pipeline shares a fetch)
        // instead of starting them again after this cancel ended them.
        MainLoopSource.idle { saved?.cancel() }
    }

    /// Another search: the saved copy goes.
    func end() {
        saved?.cancel()
        saved = nil
        live = nil
    }

    /// Still asking for its first page.
    private static func isAsking(_ gallery: Gallery) -> Bool {
        switch gallery.feed.state {
        case .idle, .loading, .waiting: gallery.feed.pagesLoaded == 0
        case .finished, .failed: false
        }
    }
}
