import GObjectBindings

/// The followed galleries as an OPML 2.0 subscription list (http://opml.org/spec2.opml), out and in: each
/// gallery as a `type="rss"` outline with its service's public feed, so a feed reader can take the list, plus
/// `gv:source` and `gv:username` so that Gallery Viewer reads back exactly what it wrote. A list from a feed
/// reader brings in the galleries whose feed or profile link names one of the services.
///
/// The export is a few hundred bytes a gallery, built in one pass: it runs where it is asked (the main loop)
/// like the other small texts. The import parses up to `maxBytes` of a file anyone could have written, on a
/// GTask worker (`parse`): a megabyte of XML takes GMarkup longer than a frame.
public enum FollowOpml {
    /// The namespace of the `gv:` attributes. A name, not an address anything is fetched from.
    public static let namespace = "https://github.com/galleryviewer/gallery-viewer/ns/opml/1"

    /// A larger file is refused before it is parsed. Our own export takes about 350 bytes a gallery, so this
    /// holds about 3,000: six times the 500, though not the store's ceiling of 5,000.
    public static let maxBytes = 1_048_576
    /// Outlines in the file, categories included.
    public static let maxOutlines = FollowLimits.maxGalleries
    /// Nesting of elements (opml, body and 30 levels of folders).
    public static let maxDepth = 32
    /// Servers of `/@NAME` feeds asked what they run in one import, one at a time, each within
    /// `ServerSoftwareLookup.Limits.deadlineMilliseconds`: a list naming thousands cannot keep an import
    /// waiting for hours. Accounts on the servers past it are not recognised.
    public static let maxServersToAsk = 50

    /// What a subscription list holds for the app.
    public struct Import: Equatable, Sendable {
        /// The galleries it names, in the file's order, each once.
        public var galleries: [Entry] = []
        /// `https://SERVER/@NAME` feeds and links, which Mastodon and Misskey share: the server must say what
        /// it runs (`ServerSoftwareLookup`) before they can be followed. Each once.
        public var fediverseAccounts: [FediverseAccount] = []
        /// Feed outlines (with an `xmlUrl` or `htmlUrl`) that name no gallery of a service the app knows.
        public var notRecognised = 0

        public init(galleries: [Entry] = [], fediverseAccounts: [FediverseAccount] = [], notRecognised: Int = 0) {
            self.galleries = galleries
            self.fediverseAccounts = fediverseAccounts
            self.notRecognised = notRecognised
        }
    }

    /// One gallery to follow, with the name to show until a check learns the account's own.
    public struct Entry: Equatable, Sendable {
        public var key: FollowedGallery.Key
        public var displayName: String

        public init(key: FollowedGallery.Key, displayName: String) {
            self.key = key
            self.displayName = displayName
        }
    }

    /// `name` on `server` (host[:port], lower case), from a `/@NAME` feed or link.
    public struct FediverseAccount: Hashable, Sendable {
        public var name: String
        public var server: String

        public init(name: String, server: String) {
            self.name = name
            self.server = server
        }
    }

    /// Reads a subscription list on a GTask worker; `completion` runs on the main loop.
    @MainActor
    public static func parse(_ bytes: [UInt8], completion: @escaping @MainActor (Result<Import, FollowOpmlError>) -> Void) {
        // Refused here, before a file too large is handed to a worker.
        guard bytes.count <= maxBytes else { return completion(.failure(.tooLarge(limit: maxBytes))) }
        WorkerTask.run({ Result { () throws(FollowOpmlError) in try read(bytes) } }, completion: completion)
    }

    /// How many galleries of an import were newly followed, and how many were followed already.
    public struct Followed: Equatable, Sendable {
        public var added = 0
        public var alreadyFollowed = 0

        public init(added: Int = 0, alreadyFollowed: Int = 0) {
            self.added = added
            self.alreadyFollowed = alreadyFollowed
        }
    }

    /// Follows `entries` in `store`, one after the other in their order (each is the store's own small
    /// transaction, so an import stopped half-way keeps what it did). Stops at the first failure (a full list,
    /// a store that cannot write): `completion` gets the failure and how far it got.
    @MainActor
    public static func follow(_ entries: [Entry], in store: FollowStore,
                              completion: @escaping @MainActor (Followed, FollowStoreError?) -> Void) {
        followNext(entries[...], in: store, counted: Followed(), completion: completion)
    }

    @MainActor
    private static func followNext(_ entries: ArraySlice<Entry>, in store: FollowStore, counted: Followed,
                                   completion: @escaping @MainActor (Followed, FollowStoreError?) -> Void) {
        guard let entry = entries.first else { return completion(counted, nil) }
        store.follow(entry.key, displayName: entry.displayName) { result in
            var counts = counted
            switch result {
            case .success(true): counts.added += 1
            case .success(false): counts.alreadyFollowed += 1
            case .failure(let error): return completion(counts, error)
            }
            followNext(entries.dropFirst(), in: store, counted: counts, completion: completion)
        }
    }
}

/// Why a subscription list could not be read. Every case has a sentence the window or the command line shows.
public enum FollowOpmlError: Error, Equatable, Sendable {
    case tooLarge(limit: Int)
    /// Not well-formed XML, with GMarkup's words for where.
    case invalidXML(detail: String)
    /// Well-formed, but not an OPML document (another root element, no body).
    case notOPML
    case tooDeep(limit: Int)
    case tooManyOutlines(limit: Int)

    public var sentence: String {
        switch self {
        case .tooLarge(let limit):
            tr("The file is too large for a list of followed galleries (more than {size} bytes).", ["size": limit])
        case .invalidXML(let detail):
            tr("The file is not valid XML: {detail}", ["detail": DisplayText.clean(detail, limit: 300)])
        case .notOPML:
            tr("The file is not an OPML subscription list.")
        case .tooDeep(let limit):
            tr("The file’s outlines are nested more than {limit} levels deep.", ["limit": limit])
        case .tooManyOutlines(let limit):
            tr("The file has more than {limit} outlines.", ["limit": limit])
        }
    }
}
