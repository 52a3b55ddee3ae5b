import FoundationEssentials
import GObjectBindings
import GalleryCore

/// `gallery-viewer --list [--json] [--source S] [--endpoint URL] USERNAME|LINK`: prints every item of every
/// page and exits — the same sources, client and messages as the window, without one.
@MainActor
struct ListCommand {
    let options: Options

    func run() -> Int32 {
        let session = CommandSession(options: options)
        let source: any GallerySource
        switch session.makeSource() {
        case .success(let made): source = made
        case .failure(let error): return session.fail(error)
        }
        let failure = session.readGallery(source) { item in print(line(for: item)) }
        if session.interrupted { return CommandSession.interruptedStatus }
        session.reportItemCeiling()
        return failure.map(session.fail) ?? (session.stoppedAtItemCeiling ? 1 : 0)
    }

    /// One line per item: the sources already dropped control characters from every text and every URL that
    /// is not http(s); the line is checked again here, because it goes to a terminal.
    private func line(for item: GalleryItem) -> String {
        let web = { (url: String?) in url.flatMap { URLText.isWebAddress($0) ? $0 : nil } }
        guard options.json else {
            return [item.displayTitle, item.kind.rawValue, web(item.fullImageURL) ?? web(item.pageURL) ?? ""]
                .map { DisplayText.clean($0) }.joined(separator: "\t")
        }
        let record = ListedItem(
            id: item.id, title: item.title, fileName: item.fileName, kind: item.kind.rawValue,
            sensitive: item.isSensitive, thumbnailURL: web(item.thumbnailURL(covering: 300)),
            fullURL: web(item.fullImageURL), pageURL: web(item.pageURL), author: item.author, altText: item.altText,
            published: item.published.flatMap(DateText.iso8601), width: item.width, height: item.height,
            mediaURL: web(item.media?.url), duration: item.media?.durationMilliseconds.map { Double($0) / 1000 },
            loops: item.media?.loops == true ? true : nil)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(record)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
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

    enum CodingKeys: String, CodingKey {
        case id, title, fileName = "file_name", kind, sensitive, thumbnailURL = "thumbnail_url",
             fullURL = "full_url", pageURL = "page_url", author, altText = "alt_text", published, width, height,
             mediaURL = "media_url", duration, loops
    }
}
