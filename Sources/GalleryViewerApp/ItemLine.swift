import FoundationEssentials
import GalleryCore

/// How the command line prints an item, for `--list` and `--check` alike: the sources already dropped control
/// characters from every text and every URL that is not http(s); each line is checked again here, because it
/// goes to a terminal.
enum ItemLine {
    /// TITLE, KIND and the image's (else the page's) URL, to be joined by tabs.
    static func fields(_ item: GalleryItem) -> [String] {
        [item.displayTitle, item.kind.rawValue, web(item.fullImageURL) ?? web(item.pageURL) ?? ""].map { DisplayText.clean($0) }
    }

    /// One JSON object; with `gallery`, also the followed gallery it came from (`--check`).
    static func json(_ item: GalleryItem, gallery: FollowedGallery.Key? = nil) -> String {
        let record = ListedItem(
            id: item.id, title: item.title, fileName: item.fileName, kind: item.kind.rawValue,
            sensitive: item.isSensitive, thumbnailURL: web(item.thumbnailURL(covering: 300)),
            fullURL: web(item.fullImageURL), pageURL: web(item.pageURL), author: item.author, altText: item.altText,
            published: item.published.flatMap(DateText.iso8601), width: item.width, height: item.height,
            mediaURL: web(item.media?.url), duration: item.media?.durationMilliseconds.map { Double($0) / 1000 },
            loops: item.media?.loops == true ? true : nil,
            gallerySource: gallery?.source.rawValue, galleryUsername: gallery?.username)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(record)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    private static func web(_ url: String?) -> String? { url.flatMap { URLText.isWebAddress($0) ? $0 : nil } }
}

/// One `--list --json` line. Unknown values are left out (`jq` reads them as null).
private struct ListedItem: Encodable {
    let id: String
    let title: String
    let fileName: String
    let kind: String
    let sensitive: Bool
    let thumbnailURL: String?
    let fullURL: String?
    let pageURL: String?
    let author: String?
    let altText: String?
    /// When the service says it was published, ISO 8601 in UTC.
    let published: String?
    let width: Int?
    let height: Int?
    /// A video's or sound's own file, its length in seconds, and whether it loops by itself (a gifv).
    let mediaURL: String?
    let duration: Double?
    let loops: Bool?
    /// `--check`: the followed gallery's source and username (as `--following` prints them).
    let gallerySource: String?
    let galleryUsername: String?

    enum CodingKeys: String, CodingKey {
        case id, title, fileName = "file_name", kind, sensitive, thumbnailURL = "thumbnail_url",
             fullURL = "full_url", pageURL = "page_url", author, altText = "alt_text", published, width, height,
             mediaURL = "media_url", duration, loops, gallerySource = "gallery_source", galleryUsername = "gallery_username"
    }
}
