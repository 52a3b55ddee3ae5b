import GObjectBindings
import GalleryCore

/// The New view's images and their seen-marks: reads them from the store (newest first), says whose each is
/// (one text per gallery), picks the address policy the window's client fetches them under, and marks seen what
/// was opened — in the New view, or in its own gallery — and, for Mark All as Seen, only what the user was shown.
@MainActor
final class NewImages {
    private let store: FollowStore
    /// A followed gallery's endpoint origin, as the window's sources build it.
    private let endpoint: @MainActor (FollowedGallery.Key) -> String?
    /// The shown images by id, with the galleries each belongs to (a post can reach two followed galleries).
    private var shown: [String: [FollowedGallery.Key]] = [:]
    private var isShown = false

    /// Show these items as the New view; `endpoint` decides the window's address policy for their thumbnails;
    /// `replacing`: a check found more while it was on screen (the view keeps its place).
    var onShow: (@MainActor (_ items: [KnownItem], _ endpoint: String?, _ replacing: Bool) -> Void)?
    var onProblem: (@MainActor (String) -> Void)?
    /// Seen-marks were written: the counts change.
    var onMarked: (@MainActor () -> Void)?

    init(store: FollowStore, endpoint: @escaping @MainActor (FollowedGallery.Key) -> String?) {
        self.store = store
        self.endpoint = endpoint
    }

    /// Reads the new images and shows them, unless `stillWanted` says the window moved on meanwhile (a search).
    func show(replacing: Bool = false, stillWanted: @escaping @MainActor () -> Bool) {
        store.newItems { [weak self] result in
            guard let self, stillWanted() else { return }
            switch result {
            case .failure(let error): onProblem?(error.sentence)
            case .success(let items):
                var ids: [String: [FollowedGallery.Key]] = [:]
                var origins: [FollowedGallery.Key: String] = [:]
                var known: [KnownItem] = []
                known.reserveCapacity(items.count)
                for item in items {
                    ids[item.item.id, default: []].append(item.gallery)
                    let origin = origins[item.gallery] ?? Self.origin(of: item)
                    origins[item.gallery] = origin
                    known.append(KnownItem(item: item.item, origin: origin))
                }
                onShow?(known, Self.policyEndpoint(origins.keys.compactMap(endpoint)), replacing)
                // After the window made it its gallery (which first clears the one before).
                shown = ids
                isShown = true
            }
        }
    }

    /// The window shows something else now.
    func hidden() {
        isShown = false
        shown = [:]
    }

    /// Private addresses only when every gallery in the view is on a private network (the demo, a LAN server):
    /// a public service's item must not make the app reach into the user's network. A name is resolved by the
    /// client; an address literal decides at once.
    nonisolated static func policyEndpoint(_ origins: [String]) -> String? {
        origins.first { !AddressPolicy.isPrivateLiteral($0) } ?? origins.first
    }

    /// `item` was opened: in the New view (`inNewView`), or in the gallery `followedKey` (followed) on screen.
    func opened(_ item: GalleryItem, inNewView: Bool, followedKey: FollowedGallery.Key?) {
        let keys = inNewView ? shown[item.id] ?? [] : followedKey.map { [$0] } ?? []
        if inNewView { shown[item.id] = nil }
        mark([(item.id, keys)])
    }

    /// Mark All as Seen: in the New view the images it shows; elsewhere those new now.
    func markAll(inNewView: Bool, completion: @escaping @MainActor () -> Void) {
        if inNewView, isShown {
            mark(shown.map { ($0.key, $0.value) }, completion: completion)
            shown = [:]
            return
        }
        store.newItems { [weak self] result in
            guard let self else { return }
            switch result {
            case .failure(let error):
                onProblem?(error.sentence)
                completion()
            case .success(let items): mark(items.map { ($0.item.id, [$0.gallery]) }, completion: completion)
            }
        }
    }

    private func mark(_ items: [(id: String, keys: [FollowedGallery.Key])], completion: @escaping @MainActor () -> Void = {}) {
        var byGallery: [FollowedGallery.Key: [String]] = [:]
        for (id, keys) in items { for key in keys { byGallery[key, default: []].append(id) } }
        guard !byGallery.isEmpty else { return completion() }
        var remaining = byGallery.count
        for (key, ids) in byGallery {
            store.markSeen(ids, in: key) { [weak self] result in
                if case .failure(let error) = result { self?.onProblem?(error.sentence) }
                remaining -= 1
                guard remaining == 0 else { return }
                self?.onMarked?()
                completion()
            }
        }
    }

    /// "aurora on DeviantArt": whose a New image is.
    static func origin(of item: FollowedItem) -> String {
        RecentGalleriesMenu.title(of: RecentSearch(source: item.gallery.source, username: item.galleryName))
    }
}
