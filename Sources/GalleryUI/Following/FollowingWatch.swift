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
    /// The New view's items by id, with whose they are, to mark an opened one seen; empty while it is not shown.
    private var shownNew: [String: FollowedGallery.Key] = [:]

    /// The gallery on screen, if any.
    var shownGallery: (@MainActor () -> Gallery?)?
    /// Open a followed gallery.
    var onOpen: (@MainActor (SourceKind, String) -> Void)?
    /// Show these items as the New view (newest first).
    var onShowNew: (@MainActor ([KnownItem]) -> Void)?
    /// Whether the window has the focus (no notification then: the list says it).
    var isWindowActive: (@MainActor () -> Bool)?
    /// A sentence for the window's in-app notification ("Following aurora.").
    var onNote: (@MainActor (String) -> Void)?
    /// A problem the user must not miss (a damaged list moved aside, a failed write): shown until dismissed.
    var onProblem: (@MainActor (String) -> Void)?

    /// Export and Import of the list as OPML.
    let listFile: FollowingListFile

    init(store: FollowStore, checker: FollowChecker, services: GalleryServices, application: Application,
         window: ApplicationWindow) {
        self.store = store
        self.checker = checker
        self.application = application
        let pipeline = services.pipeline
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
        store.onRecovery = { [weak self] recovery in self?.onProblem?(recovery.sentence) }
        menu.onOpen = { [weak self] gallery in self?.onOpen?(gallery.key.source, gallery.key.username) }
        menu.onUnfollow = { [weak self] key in self?.unfollow(key) }
        menu.onShowNew = { [weak self] in self?.showNew() }
        menu.onCheck = { [weak self] in self?.checkNow() }
        menu.onOpened = { [weak self] in self?.refresh() }
        // Through the window's pipeline: decoded in the sandboxed helpers and kept in its caches, as thumbnails are.
        menu.loadAvatar = { [weak pipeline] url, size, image in
            let scale = max(1, image.scaleFactor)
            pipeline?.loadImage(ImageRequest(url: url, size: .fitting(size * scale), priority: .visible)) { [weak image] result in
                guard let image, case .success(let response) = result else { return }
                image.removeStyleClass("dim-label")
                image.setPixbuf(response.image.pixbuf, scale: scale)
            }
        }
        checker.onGalleryChecked = { [weak self] _ in self?.refresh() }
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
        listFile.cancel()
        timer?.cancel()
        timer = nil
        checker.cancel()
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

    /// The New view is on screen and `download` was opened: it is seen.
    func opened(_ download: ItemViewModel) {
        guard shownGallery?()?.isKnownItems == true, let key = shownNew[download.item.id] else { return }
        shownNew[download.item.id] = nil
        store.markSeen([download.item.id], in: key) { [weak self] result in
            if case .failure(let error) = result { self?.onProblem?(error.sentence) }
            self?.refresh()
        }
    }

    private var shownKey: FollowedGallery.Key? {
        guard let gallery = shownGallery?(), !gallery.isKnownItems, !gallery.downloads.isEmpty else { return nil }
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
        store.following { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let galleries):
                followed = galleries
                newCount = galleries.reduce(0) { $0 + $1.newCount }
            case .failure(let error):
                menu.showStatus(error.sentence)
            }
            if let lastCheck, !checker.isChecking {
                menu.showStatus(Self.statusText(lastCheck.report, endedAt: lastCheck.time))
            }
            menu.show(followed, newCount: newCount)
            markAllAction?.isEnabled = newCount > 0
            galleryChanged()
        }
    }

    /// Every new image of every followed gallery, newest first, as the window's gallery.
    func showNew() {
        store.newItems { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let items):
                shownNew = [:]
                for item in items where shownNew[item.item.id] == nil { shownNew[item.item.id] = item.gallery }
                onShowNew?(items.map { KnownItem(item: $0.item, origin: Self.origin(of: $0)) })
            case .failure(let error):
                onProblem?(error.sentence)
            }
        }
    }

    /// "aurora on DeviantArt": whose a New image is.
    static func origin(of item: FollowedItem) -> String {
        RecentGalleriesMenu.title(of: RecentSearch(source: item.gallery.source, username: item.galleryName))
    }

    private func markAllSeen() {
        store.markAllSeen { [weak self] result in
            guard let self else { return }
            if case .failure(let error) = result { onProblem?(error.sentence) }
            application.withdrawNotification(id: Self.notificationID)
            refresh()
            if shownGallery?()?.isKnownItems == true { showNew() }
        }
    }

    // MARK: Checking

    func checkNow() {
        menu.showStatus(tr("Checking…"))
        menu.checkButton.isSensitive = false
        checker.check { [weak self] report in self?.checked(report) }
    }

    private func checked(_ report: FollowCheckReport) {
        menu.checkButton.isSensitive = true
        lastCheck = (report, DateText.now())
        refresh()
        guard !report.newItems.isEmpty, isWindowActive?() != true else { return }
        application.sendNotification(id: Self.notificationID, title: tr("New images in followed galleries"),
                                     body: Self.notificationText(report.newItems), defaultAction: "app.show-new")
    }

    /// The last check's report and when it ended (seconds since 1970), for the line under the buttons.
    private var lastCheck: (report: FollowCheckReport, time: Double)?

    /// The line under the Following list's buttons: how the last check went and how long ago, written anew at
    /// each refresh, so "a minute ago" ages.
    static func statusText(_ report: FollowCheckReport, endedAt time: Double, now: Double = DateText.now()) -> String {
        if let error = report.storeError { return error.sentence }
        if report.offline { return tr("Offline: the list shows what the last check found.") }
        let ago = DateText.ago(time, now: now)
        var text: String
        if report.checked == 0, report.failures.isEmpty, report.skipped > 0 {
            // TRANSLATORS: a check that asked nothing: {count} galleries were checked less than 15 minutes before.
            text = trn("Not checked again: {count} gallery was checked less than 15 minutes ago",
                       "Not checked again: {count} galleries were checked less than 15 minutes ago", report.skipped)
        } else if report.newItems.isEmpty {
            // TRANSLATORS: {ago} is "just now", "5 minutes ago".
            text = tr("Last check {ago}: nothing new", ["ago": ago])
        } else {
            // TRANSLATORS: {ago} is "just now", "5 minutes ago".
            text = trn("Last check {ago}: {count} new image", "Last check {ago}: {count} new images", report.newItems.count,
                       ["ago": ago])
        }
        if !report.failures.isEmpty {
            // TRANSLATORS: after a check; {count} galleries could not be checked.
            text += " · " + trn("{count} gallery could not be checked", "{count} galleries could not be checked",
                                report.failures.count)
        }
        return text
    }

    /// "5 new images from aurora and 2 others".
    static func notificationText(_ items: [FollowedItem]) -> String {
        var names: [String] = []
        for item in items where !names.contains(item.galleryName) { names.append(item.galleryName) }
        // TRANSLATORS: the start of the notification's text: "5 new images".
        let images = trn("{count} new image", "{count} new images", items.count)
        guard names.count > 1 else {
            // TRANSLATORS: {images} is "5 new images", {name} a username.
            return tr("{images} from {name}", ["images": images, "name": names.first ?? ""])
        }
        // TRANSLATORS: "and 2 others": other followed galleries.
        let others = trn("{count} other", "{count} others", names.count - 1)
        // TRANSLATORS: {images} is "5 new images", {name} a username, {others} "2 others".
        return tr("{images} from {name} and {others}", ["images": images, "name": names[0], "others": others])
    }
}
