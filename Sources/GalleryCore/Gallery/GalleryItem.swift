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

    /// Real services offer a few renditions of an item (DeviantArt 3, Commons and Mastodon 1–2): 16 leaves room
    /// for any of them, while a feed that repeats `<media:thumbnail>` thousands of times (up to the page's
    /// element cap) cannot make every item, and every search for a covering thumbnail, that large.
    public static let maxThumbnails = 16
    /// Real ids are a URL or a number; ids are hashed for every row (`identityKeys`) and saved in the
    /// snapshot, so a 100 KB guid is cut (between characters).
    public static let maxIDBytes = 256

    // The fields the initializer cleans or bounds are set nowhere else outside this module: a packed item
    // (`PackedGalleryItem`) is unpacked as stored, not cleaned again.

    /// Stable within its source (guid, media id, page id); at most `maxIDBytes` of UTF-8.
    public internal(set) var id: String
    public internal(set) var title: String
    public var kind: Kind
    public internal(set) var thumbnails: [Thumbnail]
    /// The full-size image; nil for items that are not images (they open in the browser instead).
    public var fullImageURL: String?
    /// The item's page on the service, for "Open in Browser".
    public var pageURL: String?
    public internal(set) var author: String?
    /// Alternative text / description written by the author: Mastodon's `description`, Bluesky's `alt`, Misskey's
    /// `comment`, Commons' and DeviantArt's descriptions made plain text. The large view's accessible description.
    public internal(set) var altText: String?
    /// Rated adult (DeviantArt) or marked sensitive (Mastodon): hidden until the user opts in.
    public var isSensitive: Bool
    public var width: Int?
    public var height: Int?
    /// A file name the source chose, for media whose URLs do not name the file (Mastodon's remote media are
    /// often stored under a bare id or a shared name like "original"). Nil: derived from the URLs.
    public var suggestedFileName: String?
    /// The source named the picture by a URL the app does not fetch (`data:`, `javascript:`, `ftp:`, a
    /// malformed one): the URL was dropped, and the row says "Not a web address" instead of showing nothing.
    public var mediaURLRejected = false
    /// When the service says the item was published (posted, uploaded): seconds since the Unix epoch, within
    /// `publishedRange`.
    public internal(set) var published: Int?

    /// A video's or a sound's own file, which the large view plays: what Mastodon's gifv, video and audio
    /// attachments, Misskey's video and audio drive files and Commons' WebM and Ogg files name. Nil for
    /// pictures, and for media the app cannot fetch itself (it opens the post in the browser then).
    public var media: Media?

    public struct Media: Hashable, Sendable {
        public var url: String
        /// The length the service states, in milliseconds (rows show it before anything is downloaded).
        public var durationMilliseconds: Int?
        /// Plays by itself, silent and looping (Mastodon's gifv: a GIF converted to a video).
        public var loops: Bool

        public init(url: String, durationMilliseconds: Int? = nil, loops: Bool = false) {
            self.url = url
            self.durationMilliseconds = durationMilliseconds.flatMap { (0...Self.maxDurationMilliseconds).contains($0) ? $0 : nil }
            self.loops = loops
        }

        /// `seconds` as the services give it (88.654), bounded to a sane range (nil beyond).
        public init(url: String, seconds: Double?, loops: Bool = false) {
            let milliseconds = seconds.flatMap { $0.isFinite && $0 >= 0 && $0 * 1000 <= Double(Self.maxDurationMilliseconds) ? Int(($0 * 1000).rounded()) : nil }
            self.init(url: url, durationMilliseconds: milliseconds, loops: loops)
        }

        /// A week: no real video is longer, and a feed's "1e300 seconds" is no length at all.
        public static let maxDurationMilliseconds = 7 * 24 * 3600 * 1000
    }

    /// Years 1 to 9999, what GLib's dates hold: a feed's "year 300,000" is no date at all.
    public static let publishedRange = -62_135_596_800...253_402_300_799
    /// The longest alt text kept, in characters: Mastodon's own limit (Misskey's is 512, Bluesky's 2000).
    public static let maxAltTextLength = 1500

    public init(id: String, title: String, kind: Kind = .image, thumbnails: [Thumbnail] = [],
                fullImageURL: String?, pageURL: String? = nil, author: String? = nil, altText: String? = nil,
                isSensitive: Bool = false, width: Int? = nil, height: Int? = nil, published: Int? = nil) {
        // Text from a feed is shown in the window and printed by --list: no control characters, bounded.
        self.id = id.prefix(utf8Bytes: Self.maxIDBytes)
        self.title = DisplayText.clean(title, limit: 1000)
        self.kind = kind
        self.thumbnails = Array(thumbnails.prefix(Self.maxThumbnails))
        self.fullImageURL = fullImageURL
        self.pageURL = pageURL
        self.author = author.map { DisplayText.clean($0, limit: 200) }
        self.altText = altText.map { DisplayText.clean($0, keepLineBreaks: true, limit: Self.maxAltTextLength) }
            .flatMap { $0.isEmpty ? nil : $0 }
        self.isSensitive = isSensitive
        self.width = width
        self.height = height
        self.published = published.flatMap { Self.publishedRange.contains($0) ? $0 : nil }
    }

    /// The file name shown in the row: the source's suggestion, else the last path segment of the image's (or
    /// the video's) URL, percent-decoded.
    public var fileName: String {
        // Percent-decoding can bring back any character ("%1B"): cleaned like every other text.
        if let suggestedFileName, !suggestedFileName.isEmpty { return DisplayText.clean(suggestedFileName, limit: 255) }
        for candidate in [fullImageURL, media?.url, thumbnails.first?.url, pageURL].compactMap({ $0 }) {
            if let name = URLText.lastPathSegment(of: candidate), !name.isEmpty { return DisplayText.clean(name, limit: 255) }
        }
        return DisplayText.clean(id, limit: 255)
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

    /// The image for the large view on a screen whose longer side is `pixels`: the original, unless it
    /// declares more than `maxPixels` — then a rendition the service offers (see `rendition(covering:)`).
    public func largeImageURL(fitting pixels: Int, maxPixels: Int) -> String? {
        guard let full = fullImageURL else { return nil }
        guard let width, let height, ImageHeader.area(width, height) > maxPixels else { return full }
        return rendition(covering: pixels) ?? full
    }

    /// A scaled copy the service made of the image: the smallest thumbnail of known size whose longer side
    /// covers `pixels`, else the largest one there is.
    public func rendition(covering pixels: Int) -> String? {
        let sized = thumbnails.filter { $0.longSide != nil }.sorted { $0.longSide! < $1.longSide! }
        return (sized.first { $0.longSide! >= pixels } ?? sized.last)?.url
    }

    /// Two items sharing a key are the same entry and get one row: the same image URL, or the same id in the
    /// source. Never the file name: Pleroma and Akkoma call many different uploads "image.png".
    public var identityKeys: Set<String> {
        var keys: Set<String> = ["id:" + id]
        if let url = fullImageURL { keys.insert("url:" + url) }
        return keys
    }
}
