import GObjectBindings
import GtkBindings
import GalleryCore

/// Following in the window: the Follow toggle for the gallery on screen (`win.follow`, Ctrl+D), the Following
/// button's list, the New view's items and their seen-marks, and when the checker runs — once the first screen
/// is painted, every 30 minutes, and when asked (Check Now, F5 in the list). New images found while the window
/// is not focused are announced by one desktop notification per check, whose click opens the New view.
@MainActor
final class FollowingWatch {
    static let checkIntervalMilliseconds: UInt32 = 30 * 60 * 1000
    /// While a check runs, the list is read again at most this often: after each gallery, 500 galleries made
    /// hundreds of reads of the whole list (each queued before the check's next write) and of rows rewritten.
    static let refreshDuringCheckMilliseconds: UInt32 = 250
    /// The desktop notification's id: each check's replaces the last one's.
    static let notificationID = "new-images"

    let menu = FollowingMenu()
    // TRANSLATORS: the header bar's toggle that follows the gallery on screen.
    let followToggle = ToggleButton(iconName: "starred-symbolic", tooltip: tr("Follow This Gallery (Ctrl+D)"))
    private let store: FollowStore
    private let checker: FollowChecker
    private let application: Application
    private var followAction: SimpleAction?
    private var markAllAction: SimpleAction?
    private var timer: MainLoopSource?
    private var started = false
    /// What the list shows, and the new images' total.
    private(set) var followed: [FollowedGallery] = []
    private(set) var newCount = 0
    /// The New view's images and their seen-marks.
    let newImages: NewImages
    /// The window went: nothing more is shown, written or announced.
    private var stopped = false
    /// A desktop notification was sent and not taken back. Only then is one withdrawn: the first call into
    /// GLib's notifications picks its backend for the process, which must not happen for nothing.
    private var notified = false
    /// A refresh asked for and not yet run: checks of many galleries ask once each, in one refresh at most every
    /// `refreshDuringCheckMilliseconds`.
    private var pendingRefresh: MainLoopSource?
    /// The gallery on screen, if any.
    var shownGallery: (@MainActor () -> Gallery?)?
    /// Open a followed gallery.
    var onOpen: (@MainActor (SourceKind, String) -> Void)?
    /// Show these items as the New view (newest first), the window's client deciding its address policy from
    /// `endpoint`; `replacing`: new ones came while it was on screen. The gallery the window made of them.
    var onShowNew: (@MainActor (_ items: [KnownItem], _ endpoint: String?, _ replacing: Bool) -> Gallery?)?
    /// Whether the New view may be replaced now (not while the large view or find shows its items).
    var mayReplaceNew: (@MainActor () -> Bool)?
    /// Whether the window has the focus (no notification then: the list says it).
    var isWindowActive: (@MainActor () -> Bool)?
    /// A sentence for the window's in-app notification ("Following aurora.").
    var onNote: (@MainActor (String) -> Void)?
    /// A problem the user must not miss (a damaged list moved aside, a failed write): shown until dismissed.
    var onProblem: (@MainActor (String) -> Void)?

    /// Export and Import of the list as OPML.
    let listFile: FollowingListFile
    private var services: GalleryServices?

    init(store: FollowStore, checker: FollowChecker, services: GalleryServices, application: Application,
         window: ApplicationWindow) {
        self.store = store
        self.checker = checker
        self.application = application
        let pipeline = services.pipeline
        newImages = NewImages(store: store) { key in (try? services.makeSource(key.source, key.username))?.endpoint.origin }
        listFile = FollowingListFile(window: window, store: store, endpointOverride: services.endpointOverride,
                                     serverLookupOrigin: services.serverLookupOrigin)
        followToggle.accessibleName = tr("Follow")
        followToggle.actionName = "win.follow"
        followAction = SimpleAction.addToggle(to: window, name: "follow", initial: false) { [weak self] on in
            self?.setFollowing(on)
        }
        followAction?.isEnabled = false
        markAllAction = SimpleAction.add(to: window, name: "mark-all-seen") { [weak self] in self?.markAllSeen() }
        SimpleAction.add(to: window, name: "check-following") { [weak self] in self?.checkNow() }
        // A notification's click may come while no window has the keyboard: an app action, as GLib needs.
        SimpleAction.add(to: application, name: "show-new") { [weak self] in self?.showNew() }
        newImages.onShow = { [weak self] items, endpoint, replacing in self?.onShowNew?(items, endpoint, replacing) ?? nil }
        newImages.onProblem = { [weak self] text in self?.onProblem?(text) }
        newImages.onMarked = { [weak self] in self?.refresh() }
        store.onRecovery = { [weak self] recovery in self?.onProblem?(recovery.sentence) }
        menu.onOpen = { [weak self] gallery in self?.onOpen?(gallery.key.source, gallery.key.username) }
        menu.onUnfollow = { [weak self] key in self?.unfollow(key) }
        menu.onShowNew = { [weak self] in self?.showNew() }
        menu.onCheck = { [weak self] in self?.checkNow() }
        menu.onOpened = { [weak self] in self?.refresh() }
        // Through the window's pipeline: decoded in the sandboxed helpers and kept in its caches, as thumbnails are.
        // Only under an address policy that is safe for it (`mayLoadAvatar`).
        menu.loadAvatar = { [weak pipeline, weak self] gallery, size, image in
            guard let self, let url = gallery.avatarURL, mayLoadAvatar(of: gallery.key) else { return }
            let scale = max(1, image.scaleFactor)
            pipeline?.loadImage(ImageRequest(url: url, size: .fitting(size * scale), priority: .visible)) {
                [weak image, weak self] result in
                // Not into a window that went meanwhile.
                guard let image, let self, !stopped, case .success(let response) = result else { return }
                image.removeStyleClass("dim-label")
                image.setPixbuf(response.image.pixbuf, scale: scale)
            }
        }
        checker.onGalleryChecked = { [weak self] _ in self?.scheduleRefresh() }
        self.services = services
        listFile.onNote = { [weak self] text in self?.onNote?(text) }
        listFile.onProblem = { [weak self] text in self?.onProblem?(text) }
        listFile.onImported = { [weak self] in self?.refresh() }
        refresh()
    }

    /// The first screen is painted: the first check runs now, then every 30 minutes.
    func firstScreenPainted() {
        guard !started else { return }
        started = true
        checkNow()
        timer = MainLoopSource.every(milliseconds: Self.checkIntervalMilliseconds) { [weak self] in
            self?.checkNow()
            return true
        }
    }

    func stop() {
        stopped = true
        pendingRefresh?.cancel()
        checker.onGalleryChecked = nil
        store.onRecovery = nil
        listFile.cancel()
        timer?.cancel()
        timer = nil
        checker.cancel()
        menu.stopFilling()
    }

    // MARK: The gallery on screen

    /// The gallery on screen changed, or answered: the toggle shows whether it is followed, and is offered only
    /// for a service's gallery that answered (the New view is no gallery to follow).
    func galleryChanged() {
        guard let key = shownKey else {
            followAction?.isOn = false
            followAction?.isEnabled = false
            return
        }
        followAction?.isEnabled = true
        followAction?.isOn = followed.contains { Self.same($0.key, key) }
    }

    /// `download` was opened in the large view: it is seen, from the New view or from its followed gallery.
    func opened(_ download: ItemViewModel) {
        guard !stopped, let gallery = shownGallery?() else { return }
        let key = shownKey.flatMap { key in followed.first { Self.same($0.key, key) }?.key }
        guard gallery.isKnownItems || key != nil else { return }
        newImages.opened(download.item, newView: gallery.isKnownItems ? gallery : nil, followedKey: key)
    }

    /// A service's gallery that answered; not its saved copy (what a launch shows first may be stale: following
    /// it would take an old first item as the point after which images are new).
    private var shownKey: FollowedGallery.Key? {
        guard let gallery = shownGallery?(), !gallery.isKnownItems, !gallery.isSavedCopy, !gallery.downloads.isEmpty
        else { return nil }
        return FollowedGallery.Key(source: gallery.source.kind, username: gallery.source.username)
    }

    private static func same(_ a: FollowedGallery.Key, _ b: FollowedGallery.Key) -> Bool {
        a.source == b.source && a.source.descriptor.isSameUser(a.username, b.username)
    }

    private func setFollowing(_ on: Bool) {
        guard let gallery = shownGallery?(), let key = shownKey else { return galleryChanged() }
        if on {
            // What is on screen now is not new, only what comes after its newest item (the first: services list
            // newest first), which is all the store keeps of them.
            let known = gallery.downloads.prefix(1).map(\.item)
            let name = gallery.feed.profile?.displayName ?? key.username
            store.follow(key, displayName: name, knownItems: known) { [weak self] result in
                self?.written(result)
                // TRANSLATORS: {name} is a username.
                if case .success = result { self?.onNote?(tr("Following {name}.", ["name": key.username])) }
            }
        } else {
            unfollow(key)
        }
    }

    private func unfollow(_ key: FollowedGallery.Key) {
        store.unfollow(key) { [weak self] result in
            self?.written(result)
            // TRANSLATORS: {name} is a username.
            if case .success(true) = result { self?.onNote?(tr("No longer following {name}.", ["name": key.username])) }
        }
    }

    private func written<Value>(_ result: Result<Value, FollowStoreError>) {
        if case .failure(let error) = result { onProblem?(error.sentence) }
        refresh()
    }

    // MARK: The list and the New view

    /// Reads the followed galleries and the new total again, and shows them.
    func refresh() {
        guard !stopped else { return }
        store.following { [weak self] result in
            guard let self, !stopped else { return }
            switch result {
            case .success(let galleries):
                followed = galleries
                newCount = galleries.reduce(0) { $0 + $1.newCount }
            case .failure(let error):
                menu.showStatus(error.sentence)
            }
            if let lastCheck, !checker.isChecking {
                menu.showStatus(FollowingTexts.status(lastCheck.report, endedAt: lastCheck.time))
            }
            menu.show(followed, newCount: newCount)
            markAllAction?.isEnabled = newCount > 0
            galleryChanged()
        }
    }

    private func scheduleRefresh() {
        guard pendingRefresh?.isActive != true else { return }
        pendingRefresh = MainLoopSource.after(milliseconds: Self.refreshDuringCheckMilliseconds) { [weak self] in
            self?.pendingRefresh = nil
            self?.refresh()
        }
    }

    /// Every new image of every followed gallery, newest first, as the window's gallery. `replacing`: the New
    /// view on screen gets what a check found, in place.
    func showNew(replacing: Bool = false) {
        guard !stopped else { return }
        let before = shownGallery?()
        newImages.show(replacing: replacing) { [weak self] in
            // A search since: the New view would take its place.
            guard let self, !stopped else { return false }
            return !replacing || shownGallery?() === before
        }
    }

    /// The window shows something else than the New view.
    func newViewLeft() { newImages.hidden() }

    private func markAllSeen() {
        let newView = shownGallery?().flatMap { $0.isKnownItems ? $0 : nil }
        newImages.markAll(newView: newView) { [weak self] in
            guard let self, !stopped else { return }
            if notified {
                application.withdrawNotification(id: Self.notificationID)
                notified = false
            }
            if newView != nil { showNew() }
        }
    }

    /// Avatars come through the window's client, whose address policy is the gallery on screen's: one on a
    /// private network (the demo) allows private addresses. A public service's avatar is fetched only under a
    /// public policy, a private one's only under its own.
    private func mayLoadAvatar(of key: FollowedGallery.Key) -> Bool {
        guard let shown = shownGallery?(), !shown.isKnownItems,
              let origin = (try? services?.makeSource(key.source, key.username))?.endpoint.origin else { return false }
        let shownOrigin = shown.source.endpoint.origin
        return shownOrigin == origin || (!AddressPolicy.isPrivateLiteral(shownOrigin) && !AddressPolicy.isPrivateLiteral(origin))
    }

    // MARK: Checking

    func checkNow() {
        guard !stopped else { return }
        menu.showStatus(tr("Checking…"))
        menu.checkButton.isSensitive = false
        checker.check { [weak self] report in self?.checked(report) }
    }

    private func checked(_ report: FollowCheckReport) {
        guard !stopped else { return }
        menu.checkButton.isSensitive = true
        lastCheck = (report, DateText.now())
        refresh()
        guard !report.newItems.isEmpty else { return }
        // The New view on screen takes them in, in place (unless its items are open in the large view or find).
        if shownGallery?()?.isKnownItems == true, mayReplaceNew?() ?? true { showNew(replacing: true) }
        guard isWindowActive?() != true else { return }
        notified = application.sendNotification(id: Self.notificationID, title: tr("New images in followed galleries"),
                                                body: FollowingTexts.notification(report.newItems),
                                                defaultAction: "app.show-new") || notified
    }

    /// The last check's report and when it ended (seconds since 1970), for the line under the buttons.
    private var lastCheck: (report: FollowCheckReport, time: Double)?
}
