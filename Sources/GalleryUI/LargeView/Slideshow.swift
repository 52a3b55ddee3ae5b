import GObjectBindings
import GtkBindings
import GalleryCore

/// The slideshow (F5, the main menu): the large view, full screen, moves to the next item by itself, as in
/// Eye of GNOME and gThumb. Each picture's interval counts from when it is painted (a slow download never
/// shortens it); a video, gifv or sound plays once through and the show goes on at its end. The next picture
/// is loaded ahead while one is shown, so a change does not wait for the network when it could have been
/// ready; at the end of the loaded items it asks for the next page and waits for it, and starts again from
/// the first item once the gallery has no more. Space pauses, the arrows step (the interval starts again),
/// Escape or F5 ends it on the item shown. The screen does not blank meanwhile.
@MainActor
final class Slideshow {
    private let largeView: LargeImageView
    private let listView: GalleryListView
    private let pipeline: ImagePipeline
    private(set) var isRunning = false
    private(set) var isPaused = false
    private(set) var interval: SlideshowInterval
    /// Counts the shown picture's interval; nil while it loads, plays, or the show is paused.
    private var timer: MainLoopSource?
    /// The item whose interval `timer` counts.
    private weak var timedItem: ItemViewModel?
    /// The shown item's interval is running.
    var isCounting: Bool { timer != nil }
    /// The next picture, loading ahead.
    private var ahead: ImageTask?
    private weak var aheadItem: ItemViewModel?
    /// The next picture's downloaded original, held until the view shows that item: the view's request then
    /// gets it with the decoded picture, and Save, Copy, a zoom's detail and a drag need no second download.
    private var aheadOriginal: ImageOriginal?
    /// At the last loaded item, waiting for the next page.
    private var waitsForMore = false
    /// A video or sound the pause stopped, to play again on resume.
    private var pausedPlayback = false
    /// The pause came while the item was loading: a video that then starts by itself is paused.
    private var holdsLoadingPlayback = false
    /// The item shown when the show was paused, or stepped to since.
    private weak var pausedOn: ItemViewModel?
    private let idleInhibitor = IdleInhibitor()
    private var startAction: SimpleAction?
    private var intervalAction: SimpleAction?
    /// Where the interval is remembered.
    private let stateFile: RecentSearchStore?
    private let notification: InAppNotification

    /// The window's gallery (for the next page).
    var gallery: (@MainActor () -> Gallery?)?
    /// The large view is open (the show starts at its item).
    var isLargeViewOpen: (@MainActor () -> Bool)?
    /// Opens the large view on an item (full screen is `onRunningChange`'s part).
    var onShow: (@MainActor (ItemViewModel) -> Void)?
    /// The show started or ended: full screen is entered or left (`LargeViewNavigation`).
    var onRunningChange: (@MainActor (Bool) -> Void)?
    init(window: ApplicationWindow, largeView: LargeImageView, listView: GalleryListView, pipeline: ImagePipeline,
         stateFile: RecentSearchStore?, notification: InAppNotification) {
        self.largeView = largeView
        self.listView = listView
        self.pipeline = pipeline
        self.stateFile = stateFile
        self.notification = notification
        let interval = stateFile?.slideshowInterval ?? .standard
        self.interval = interval
        // F5 starts it, and ends it again, as in Eye of GNOME.
        startAction = SimpleAction.add(to: window, name: "slideshow") { [weak self] in
            guard let self else { return }
            if self.isRunning { self.stop() } else { self.start() }
        }
        intervalAction = SimpleAction.addChoice(to: window, name: "slideshow-interval",
                                                values: SlideshowInterval.allCases.map { String($0.seconds) },
                                                initial: String(interval.seconds)) { [weak self] value in
            guard let self, let chosen = Int(value).flatMap(SlideshowInterval.init(rawValue:)) else { return }
            self.setInterval(chosen)
            self.stateFile?.save(slideshowInterval: chosen)
        }
        startAction?.isEnabled = false
    }

    /// The gallery's items changed: F5 works once there is one; a show waiting at the end goes on.
    func galleryChanged() {
        startAction?.isEnabled = listView.rowCount > 0
        if waitsForMore { showNext() }
    }

    /// Starts at the item the large view shows, else at the selected one, else at the first.
    func start() {
        let shown = isLargeViewOpen?() == true ? largeView.download : nil
        guard !isRunning, let first = shown ?? listView.selectedDownload ?? listView.download(at: 0) else { return }
        isRunning = true
        isPaused = false
        // TRANSLATORS: why the screen does not blank, where the desktop lists what keeps it awake.
        idleInhibitor.inhibit(reason: tr("Slideshow"))
        onRunningChange?(true)
        // TRANSLATORS: shown when a slideshow starts.
        notification.show(tr("Slideshow: Space pauses, Escape ends"))
        onShow?(first)
        viewChanged()
    }

    /// Ends the show on the item shown: the large view stays, out of full screen.
    func stop() {
        guard isRunning else { return }
        isRunning = false
        isPaused = false
        pausedPlayback = false
        holdsLoadingPlayback = false
        waitsForMore = false
        cancelTimer()
        cancelAhead()
        idleInhibitor.uninhibit()
        onRunningChange?(false)
    }

    /// Space during the show: the interval stops (and a video or sound with it), and starts again whole.
    func togglePause() {
        guard isRunning else { return }
        isPaused.toggle()
        if isPaused {
            cancelTimer()
            pausedPlayback = largeView.presentation == .playing
            holdsLoadingPlayback = largeView.presentation == .loading
            pausedOn = largeView.download
            if pausedPlayback { largeView.togglePlayback() }
        } else {
            holdsLoadingPlayback = false
            if pausedPlayback, largeView.presentation == .shown { largeView.togglePlayback() }
            pausedPlayback = false
        }
        // TRANSLATORS: shown when Space pauses the slideshow, and when it resumes it.
        notification.show(isPaused ? tr("Slideshow paused") : tr("Slideshow resumed"))
        viewChanged()
    }

    func setInterval(_ chosen: SlideshowInterval) {
        interval = chosen
        intervalAction?.choice = String(chosen.seconds)
        // The picture shown gets the new interval, from now.
        if timer != nil {
            cancelTimer()
            viewChanged()
        }
    }

    /// The large view changed (another item, its picture painted, a video ended): the interval starts once
    /// the item is shown, and the next picture loads ahead.
    func viewChanged() {
        guard isRunning, let current = largeView.download else { return }
        if isPaused {
            // A video that was still loading when Space was pressed, or one stepped to meanwhile, starts by
            // itself: it waits too.
            if pausedOn !== current {
                pausedOn = current
                holdsLoadingPlayback = true
            }
            if holdsLoadingPlayback, largeView.presentation == .playing {
                holdsLoadingPlayback = false
                largeView.togglePlayback()
                pausedPlayback = true
            }
            return
        }
        if timedItem !== current { cancelTimer() }
        switch largeView.presentation {
        case .loading, .playing:
            cancelTimer()
        case .shown:
            if timer == nil { armTimer(for: current) }
            loadAhead(after: current)
        case .finished:
            cancelTimer()
            // Not from inside the player's own change notification.
            timer = MainLoopSource.idle { [weak self] in
                self?.timer = nil
                self?.showNext()
            }
            timedItem = current
        }
    }

    private func armTimer(for item: ItemViewModel) {
        timedItem = item
        timer = MainLoopSource.after(milliseconds: UInt32(interval.seconds * 1000)) { [weak self] in
            self?.timer = nil
            self?.showNext()
        }
    }

    private func cancelTimer() {
        timer?.cancel()
        timer = nil
        timedItem = nil
    }

    /// The item after the one shown; at the end of the loaded ones, the next page is asked for and the show
    /// waits for it; when the gallery has no more, the first item again.
    private func showNext() {
        guard isRunning, !isPaused, let current = largeView.download, let position = listView.position(of: current)
        else { return }
        waitsForMore = false
        if let next = listView.download(at: position + 1) {
            if position + 1 >= listView.rowCount - GalleryListView.prefetchRows, listView.foundItems == nil {
                gallery?()?.loadMore()
            }
            return onShow?(next) ?? ()
        }
        if listView.foundItems == nil, let gallery = gallery?(), gallery.mayHaveMore {
            waitsForMore = true
            gallery.loadMore()
        } else if position > 0, let first = listView.download(at: 0) {
            onShow?(first)
        } else {
            // One item, and no more to come: nothing to go on to.
            stop()
        }
    }

    /// Loads the picture after `current` at the size the view shows it, into the memory cache, where the
    /// view's own request finds it (or joins its decode). One at a time: the previous one is let go.
    private func loadAhead(after current: ItemViewModel) {
        guard let position = listView.position(of: current) else { return }
        let startsOver = position > 0 && (listView.foundItems != nil || gallery?()?.mayHaveMore == false)
        let next = listView.download(at: position + 1) ?? (startsOver ? listView.download(at: 0) : nil)
        guard let next, next !== aheadItem else { return }
        cancelAhead()
        guard var request = largeView.pictureRequest(for: next) else { return }
        request.priority = .visible
        aheadItem = next
        let task = pipeline.loadImage(request) { [weak self, weak next] result in
            // Only this load's end: a cancelled one may report after the next one started.
            guard let self, self.aheadItem === next else { return }
            self.ahead = nil
            if case .success(let response) = result { self.aheadOriginal = response.original }
        }
        if task.isPending { ahead = task }
    }

    private func cancelAhead() {
        ahead?.cancel()
        ahead = nil
        aheadItem = nil
        aheadOriginal = nil
    }
}
