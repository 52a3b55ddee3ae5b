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
    /// The store reads and unpacks them on its worker; the rows become the view's items on another (20,000
    /// rows would be a long main-loop turn of their own), and the view takes them a slice per turn.
    func show(replacing: Bool = false, stillWanted: @escaping @MainActor () -> Bool) {
        store.newItems { [weak self] result in
            guard let self, stillWanted() else { return }
            switch result {
            case .failure(let error): onProblem?(error.sentence)
            case .success(let rows):
                WorkerTask.run({ NewImagesRead(rows) }) { [weak self] read in
                    guard let self, stillWanted() else { return }
                    let endpoint = Self.policyEndpoint(read.galleries.compactMap(endpoint))
                    guard let view = onShow?(read.items, endpoint, replacing) else { return }
                    views.removeAll { $0.gallery == nil }
                    views.append(ShownNewImages(gallery: view, read: read))
                }
            }
        }
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
        mark([(item.id, shown.read.galleriesByID[item.id] ?? [])])
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

/// One read of the new images, made on a worker: the view's items (newest first, each saying whose it is),
/// and for the seen-marks the followed gallery of each row and the galleries each item is new in (a post can
/// reach two followed galleries).
struct NewImagesRead: Sendable {
    let items: [KnownItem]
    /// By row, in step with `items`.
    let followedIn: [FollowedGallery.Key]
    let galleriesByID: [String: [FollowedGallery.Key]]
    /// Every gallery with a new image, once.
    let galleries: [FollowedGallery.Key]

    init(_ rows: [FollowedItem]) {
        var byID: [String: [FollowedGallery.Key]] = [:]
        var origins: [FollowedGallery.Key: String] = [:]
        var galleries: [FollowedGallery.Key] = []
        var items: [KnownItem] = []
        items.reserveCapacity(rows.count)
        for row in rows {
            byID[row.item.id, default: []].append(row.gallery)
            let origin: String
            if let known = origins[row.gallery] {
                origin = known
            } else {
                origin = NewImages.origin(of: row)
                origins[row.gallery] = origin
                galleries.append(row.gallery)
            }
            items.append(KnownItem(item: row.item, origin: origin))
        }
        self.items = items
        followedIn = rows.map(\.gallery)
        galleriesByID = byID
        self.galleries = galleries
    }
}

/// A New view the window made (held weakly: the window decides how long it lives) and what it was given.
@MainActor
private final class ShownNewImages {
    weak var gallery: Gallery?
    let read: NewImagesRead
    /// Opened, so marked seen already.
    var opened: Set<String> = []

    init(gallery: Gallery, read: NewImagesRead) {
        self.gallery = gallery
        self.read = read
    }

    /// The first `taken` rows (what the view had been handed), less those opened.
    func unopened(taken: Int) -> [(id: String, keys: [FollowedGallery.Key])] {
        read.items.prefix(taken).indices.compactMap { row in
            let id = read.items[row].item.id
            return opened.contains(id) ? nil : (id, [read.followedIn[row]])
        }
    }
}
