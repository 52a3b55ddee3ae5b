/// One entry of a user's gallery, as a source described it. Plain data: no downloads, no widgets.
public struct GalleryItem: Hashable, Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        case image, video, audio, other
    }

    public struct Thumbnail: Hashable, Sendable {
        public var url: String
        public var width: Int?
        public var height: Int?

        public init(url: String, width: Int? = nil, height: Int? = nil) {
            self.url = url
            self.width = width
            self.height = height
        }

        var longSide: Int? {
            guard let width, let height else { return width ?? height }
            return max(width, height)
        }
    }

    /// Stable within its source (guid, media id, page id).
    public var id: String
    public var title: String
    public var kind: Kind
    public var thumbnails: [Thumbnail]
    /// The full-size image; nil for items that are not images (they open in the browser instead).
    public var fullImageURL: String?
    /// The item's page on the service, for "Open in Browser".
    public var pageURL: String?
    public var author: String?
    /// Alternative text / description written by the author.
    public var altText: String?
    /// Rated adult (DeviantArt) or marked sensitive (Mastodon): hidden until the user opts in.
    public var isSensitive: Bool
    public var width: Int?
    public var height: Int?
    /// A file name the source chose, for media whose URLs do not name the file (Mastodon's remote media are
    /// often stored under a bare id or a shared name like "original"). Nil: derived from the URLs.
    public var suggestedFileName: String?

    public init(id: String, title: String, kind: Kind = .image, thumbnails: [Thumbnail] = [],
                fullImageURL: String?, pageURL: String? = nil, author: String? = nil, altText: String? = nil,
                isSensitive: Bool = false, width: Int? = nil, height: Int? = nil) {
        self.id = id
        self.title = title
        self.kind = kind
        self.thumbnails = thumbnails
        self.fullImageURL = fullImageURL
        self.pageURL = pageURL
        self.author = author
        self.altText = altText
        self.isSensitive = isSensitive
        self.width = width
        self.height = height
    }

    /// The file name shown in the row: the source's suggestion, else the last path segment of the image URL,
    /// percent-decoded.
    public var fileName: String {
        if let suggestedFileName, !suggestedFileName.isEmpty { return suggestedFileName }
        for candidate in [fullImageURL, thumbnails.first?.url, pageURL].compactMap({ $0 }) {
            if let name = URLText.lastPathSegment(of: candidate), !name.isEmpty { return name }
        }
        return id
    }

    /// The title, or the file name when the source gave no title.
    public var displayTitle: String { title.isEmpty ? fileName : title }

    /// The smallest thumbnail whose longer side covers `pixels`, else the largest one there is, else the full
    /// image. Thumbnails without a known size rank after sized ones that cover.
    public func thumbnailURL(covering pixels: Int) -> String? {
        let sized = thumbnails.filter { $0.longSide != nil }.sorted { $0.longSide! < $1.longSide! }
        if let covering = sized.first(where: { $0.longSide! >= pixels }) { return covering.url }
        if let unsized = thumbnails.first(where: { $0.longSide == nil }) { return unsized.url }
        if let largest = sized.last { return largest.url }
        return kind == .image ? fullImageURL : nil
    }

    /// Two items sharing a key show the same image (same URL, or same file name) and get one row.
    /// Items that are not images are told apart by their page and id.
    public var identityKeys: Set<String> {
        guard let url = fullImageURL else { return ["page:" + (pageURL ?? "") + " id:" + id] }
        return ["url:" + url, "file:" + fileName.lowercased()]
    }
}
