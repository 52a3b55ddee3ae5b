import GObjectBindings
import GalleryCore

/// The New view's images and their seen-marks: reads them from the store (newest first), turns the rows into
/// the view's items on a worker (whose each is, which followed galleries each is new in), picks the address
/// policy the window's client fetches them under, and marks seen what was opened — in the New view, or in its
/// own gallery — and, for Mark All as Seen, only what the view on screen had been given.
@MainActor
final class NewImages {
    private let store: FollowStore
    /// A followed gallery's endpoint origin, as the window's sources build it.
    private let endpoint: @MainActor (FollowedGallery.Key) -> String?
    /// The New views the window made and what each was given: the one on screen, and one a check's additions
    /// fill behind it. A view the window let go of drops out.
    private var views: [ShownNewImages] = []

    /// Show these items as the New view; `endpoint` decides the window's address policy for their thumbnails;
    /// `replacing`: a check found more while it was on screen (the view keeps its place). The gallery the
    /// window made of them, if it did.
    var onShow: (@MainActor (_ items: [KnownItem], _ endpoint: String?, _ replacing: Bool) -> Gallery?)?
    var onProblem: (@MainActor (String) -> Void)?
    /// Seen-marks were written: the counts change.
    var onMarked: (@MainActor () -> Void)?

    init(store: FollowStore, endpoint: @escaping @MainActor (FollowedGallery.Key) -> String?) {
        self.store = store
        self.endpoint = endpoint
    }

    /// Reads the new images and shows them, unless `stillWanted` says the window moved on meanwhile (a search).
    /// The store reads and unpacks them on its worker and, still there, makes its rows the view's items (20,000
    /// rows would be long main-loop turns to build and to free); the view takes them a slice per turn.
    func show(replacing: Bool = false, stillWanted: @escaping @MainActor () -> Bool) {
        store.newItems(NewImagesRead.init) { [weak self] result in
            guard let self, stillWanted() else { return }
            switch result {
            case .failure(let error): onProblem?(error.sentence)
            case .success(let read):
                let endpoint = Self.policyEndpoint(read.galleries.compactMap(origin))
                guard let view = onShow?(read.items, endpoint, replacing) else { return }
                views.removeAll { $0.gallery == nil }
                views.append(ShownNewImages(gallery: view, rows: read.rows, galleries: read.galleries))
            }
        }
    }

    /// Each followed gallery's endpoint origin, made once: a New view of 500 galleries is read again after
    /// every check and every seen-mark.
    private var origins: [FollowedGallery.Key: String?] = [:]

    private func origin(of key: FollowedGallery.Key) -> String? {
        if let known = origins[key] { return known }
        let made = endpoint(key)
        origins[key] = made
        return made
    }

    /// The window shows something else now.
    func hidden() { views = [] }

    /// Private addresses only when every gallery in the view is on a private network (the demo, a LAN server):
    /// a public service's item must not make the app reach into the user's network. A name is resolved by the
    /// client; an address literal decides at once.
    nonisolated static func policyEndpoint(_ origins: [String]) -> String? {
        origins.first { !AddressPolicy.isPrivateLiteral($0) } ?? origins.first
    }

    /// `item` was opened: in the New view `newView` (on screen), or in the gallery `followedKey` (followed).
    func opened(_ item: GalleryItem, newView: Gallery?, followedKey: FollowedGallery.Key?) {
        guard let newView else { return mark([(item.id, followedKey.map { [$0] } ?? [])]) }
        // Marked once: a second opening has nothing to add.
        guard let shown = views.first(where: { $0.gallery === newView }), shown.opened.insert(item.id).inserted else { return }
        mark([(item.id, shown.galleries(of: item.id))])
    }

    /// Mark All as Seen: in the New view `newView`, the images it was given so far (while it fills, not those
    /// still to come); elsewhere those new now.
    func markAll(newView: Gallery?, completion: @escaping @MainActor () -> Void) {
        if let newView, let shown = views.first(where: { $0.gallery === newView }) {
            let items = shown.unopened(taken: newView.knownItemsTaken)
            // Marked now, as if opened: a second Mark All has only what came since to mark.
            shown.opened.formUnion(items.map(\.id))
            return mark(items, completion: completion)
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
    nonisolated static func origin(of item: FollowedItem) -> String {
        RecentGalleriesMenu.title(of: RecentSearch(source: item.gallery.source, username: item.galleryName))
    }
}

/// One read of the new images, made on the store's worker: the view's items (newest first, each saying whose
/// it is), and for the seen-marks each row's item and followed gallery (a post can reach two followed galleries).
struct NewImagesRead: Sendable {
    let items: [KnownItem]
    /// By row, in step with `items`: the item's id and its gallery's place in `galleries`.
    let rows: [(id: String, gallery: Int)]
    /// Every gallery with a new image, once.
    let galleries: [FollowedGallery.Key]

    init(_ found: [FollowedItem]) {
        var places: [FollowedGallery.Key: Int] = [:]
        var origins: [String] = []
        var galleries: [FollowedGallery.Key] = []
        var items: [KnownItem] = []
        var rows: [(id: String, gallery: Int)] = []
        items.reserveCapacity(found.count)
        rows.reserveCapacity(found.count)
        for row in found {
            let place: Int
            if let known = places[row.gallery] {
                place = known
            } else {
                place = galleries.count
                places[row.gallery] = place
                galleries.append(row.gallery)
                origins.append(NewImages.origin(of: row))
            }
            items.append(KnownItem(item: row.item, origin: origins[place]))
            rows.append((row.item.id, place))
        }
        self.items = items
        self.rows = rows
        self.galleries = galleries
    }
}

/// A New view the window made (held weakly: the window decides how long it lives) and, for its seen-marks, each
/// row's item and followed gallery — not the items themselves, which the view let go of as it took them.
@MainActor
private final class ShownNewImages {
    weak var gallery: Gallery?
    private let rows: [(id: String, gallery: Int)]
    private let galleries: [FollowedGallery.Key]
    /// Opened, so marked seen already.
    var opened: Set<String> = []

    init(gallery: Gallery, rows: [(id: String, gallery: Int)], galleries: [FollowedGallery.Key]) {
        self.gallery = gallery
        self.rows = rows
        self.galleries = galleries
    }

    /// The followed galleries `id` is new in.
    func galleries(of id: String) -> [FollowedGallery.Key] {
        rows.compactMap { $0.id == id ? galleries[$0.gallery] : nil }
    }

    /// The first `taken` rows (what the view had been handed), less those opened.
    func unopened(taken: Int) -> [(id: String, keys: [FollowedGallery.Key])] {
        rows.prefix(taken).compactMap { opened.contains($0.id) ? nil : ($0.id, [galleries[$0.gallery]]) }
    }
}
