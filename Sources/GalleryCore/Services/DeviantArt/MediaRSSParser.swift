import GObjectBindings

/// Parses a Media RSS page (DeviantArt's backend feed, and the demo server's copy of it) into items and the
/// channel's `atom:link rel="next"`.
///
/// GMarkup does the XML (no entity expansion, no network); this type resolves namespace prefixes from the
/// document's own `xmlns` declarations, so `media:` and `atom:` are matched by namespace URI, not by the
/// prefix a feed happened to choose.
struct MediaRSSPage {
    var items: [GalleryItem] = []
    var nextLink: String?
    var channelFound = false
    /// More items than `maxItems`: the rest of the document was not read.
    var itemsLeftOut = false
    /// The first item's author credits when they give both a name and an avatar URL (DeviantArt's do):
    /// the gallery owner's avatar, as far as the feed says.
    var firstAuthorAvatar: (author: String, url: String)?
}

enum MediaRSSParser {
    static let mediaNamespace = "http://search.yahoo.com/mrss/"
    static let atomNamespace = "http://www.w3.org/2005/Atom"

    /// Limits that keep a hostile feed from costing more than a real one ever would. A real page has 60 items
    /// of about 20 elements each.
    static let maxDepth = 64
    static let maxItems = 1000
    static let maxElements = 50_000
    static let maxTextLength = 4096

    /// Bytes of a page read for its next link ahead of the items: a real channel's heading is a few hundred.
    static let maxHeadingBytes = 16 * 1024

    /// Parses one page; relative URLs in it are resolved against `baseURL` (the URL the page came from).
    /// Items past `maxItems` end the parse early: the page keeps the items before them.
    static func parse(_ bytes: Bytes, baseURL: String) throws(GLibError) -> MediaRSSPage {
        let handler = Handler(baseURL: baseURL)
        do {
            try MarkupParser.parse(bytes, delegate: handler)
        } catch where handler.page.itemsLeftOut {
            // Stopped on purpose at the item limit.
        }
        return handler.page
    }

    /// The channel's next link if it comes before the first item, read from at most `maxHeadingBytes`: cheap
    /// enough for the main thread whatever the page's size. Whatever the rest holds (a broken item, another
    /// next link after the items) only `parse` knows.
    static func nextLinkAheadOfItems(_ bytes: Bytes, baseURL: String) -> String? {
        let handler = Handler(baseURL: baseURL, stopsAtFirstItem: true)
        try? MarkupParser.parse(bytes, upTo: maxHeadingBytes, delegate: handler)
        return handler.page.nextLink
    }

    private final class Handler: MarkupParserDelegate {
        let baseURL: String
        /// Reading only the channel's heading: the first item ends the parse.
        let stopsAtFirstItem: Bool
        var page = MediaRSSPage()
        private var elements = 0
        /// Open elements as (namespace URI, local name), innermost last.
        private var path: [(namespace: String, name: String)] = []
        /// Prefix → namespace URI, one frame per open element.
        private var scopes: [[String: String]] = []
        private var text = ""
        private var item: ItemBuilder?

        init(baseURL: String, stopsAtFirstItem: Bool = false) {
            self.baseURL = baseURL
            self.stopsAtFirstItem = stopsAtFirstItem
        }

        func startElement(_ qualifiedName: String, attributes: [String: String]) throws {
            guard path.count < MediaRSSParser.maxDepth else { throw MarkupParser.Stop(tr("The feed is nested too deeply")) }
            elements += 1
            guard elements <= MediaRSSParser.maxElements else { throw MarkupParser.Stop(tr("The feed has too many elements")) }
            var scope: [String: String] = [:]
            for (key, value) in attributes {
                if key == "xmlns" { scope[""] = value }
                if key.hasPrefix("xmlns:") { scope[String(key.dropFirst(6))] = value }
            }
            scopes.append(scope)
            let element = resolve(qualifiedName)
            path.append(element)
            text = ""

            switch (element.namespace, element.name) {
            case ("", "channel") where path.count == 2:
                page.channelFound = path[0].name == "rss"
            case ("", "item") where isInChannel:
                if stopsAtFirstItem { throw MarkupParser.Stop("heading read") }
                guard page.items.count < MediaRSSParser.maxItems else {
                    page.itemsLeftOut = true
                    throw MarkupParser.Stop(tr("The feed has too many items"))
                }
                item = ItemBuilder(baseURL: baseURL)
            case (MediaRSSParser.atomNamespace, "link") where isDirectChildOfChannel:
                if attributes["rel"] == "next", let href = attributes["href"] { page.nextLink = href.trimmed }
            case (MediaRSSParser.mediaNamespace, "content"):
                item?.addContent(attributes)
            case (MediaRSSParser.mediaNamespace, "thumbnail"):
                item?.addThumbnail(attributes)
            case (MediaRSSParser.mediaNamespace, "credit"):
                item?.creditRole = attributes["role"]
            case (MediaRSSParser.mediaNamespace, "description"):
                item?.descriptionIsHTML = attributes["type"]?.lowercased() == "html"
            default:
                break
            }
        }

        func text(_ fragment: String) throws {
            let remaining = MediaRSSParser.maxTextLength - text.utf8.count
            guard item != nil, remaining > 0 else { return }
            text += fragment.prefix(utf8Bytes: remaining)
        }

        func endElement(_ qualifiedName: String) throws {
            let element = path.removeLast()
            defer {
                scopes.removeLast()
                text = ""
            }
            guard var builder = item else { return }
            // Only the short fields use it: a description's HTML is made plain text whole, below.
            var value: String { HTMLText.decodeEntities(text.trimmed) }
            switch (element.namespace, element.name) {
            case ("", "item"):
                if page.firstAuthorAvatar == nil, let author = builder.author, let avatar = builder.authorAvatar {
                    page.firstAuthorAvatar = (author, avatar)
                }
                if let built = builder.build() { page.items.append(built) }
                item = nil
                return
            case ("", "title"): builder.plainTitle = value
            case ("", "link"): builder.link = value
            case ("", "guid"): builder.guid = value
            case (MediaRSSParser.mediaNamespace, "title"): builder.mediaTitle = value
            case (MediaRSSParser.mediaNamespace, "rating"): builder.rating = value.lowercased()
            case (MediaRSSParser.mediaNamespace, "credit"): builder.addCredit(value)
            case ("", "pubDate"): builder.published = DateText.published(rfc822: value)
            // The artist's description: Media RSS's own, else the item's (HTML with the thumbnail in it). The raw
            // text, not `value`: entities are decoded once, after the tags are gone.
            case (MediaRSSParser.mediaNamespace, "description"):
                builder.mediaDescription = builder.descriptionIsHTML ? HTMLText.plainText(text) : HTMLText.decodeEntities(text)
            // Kept as it came: made plain text (the costliest step of a page) only if it is needed, in build().
            case ("", "description"): builder.itemDescriptionHTML = text
            default: break
            }
            item = builder
        }

        private var isInChannel: Bool { path.count == 3 && path[1].name == "channel" }
        private var isDirectChildOfChannel: Bool { path.count == 3 && path[1].name == "channel" && path[0].name == "rss" }

        /// Runs for every element: the name is cut at its first colon in place, not split into an array.
        private func resolve(_ qualifiedName: String) -> (namespace: String, name: String) {
            // RSS 2.0 elements have no namespace; a default xmlns on them would not change their meaning. A
            // name with nothing before or after its colon has no prefix either.
            guard let colon = qualifiedName.firstIndex(of: ":"), colon != qualifiedName.startIndex,
                  qualifiedName.index(after: colon) != qualifiedName.endIndex
            else { return ("", qualifiedName) }
            let prefix = String(qualifiedName[..<colon])
            let name = String(qualifiedName[qualifiedName.index(after: colon)...])
            for scope in scopes.reversed() {
                if let uri = scope[prefix] { return (uri, name) }
            }
            // An undeclared prefix never matches a real namespace.
            return ("undeclared:\(prefix)", name)
        }
    }

    /// Collects one `<item>`'s fields; media elements come in any order and any number.
    private struct ItemBuilder {
        let baseURL: String
        var plainTitle = ""
        var mediaTitle: String?
        var link: String?
        var guid: String?
        var rating: String?
        var creditRole: String?
        var author: String?
        var published: Int?
        /// Media RSS's `type`: "plain" (its default) or "html".
        var descriptionIsHTML = false
        var mediaDescription: String?
        /// The item's own description, HTML; the alt text only where Media RSS's is missing or empty.
        var itemDescriptionHTML: String?
        var image: (url: String, width: Int?, height: Int?)?
        var otherMedia = false
        var thumbnails: [GalleryItem.Thumbnail] = []
        /// A media URL that is not a web address was left out.
        var mediaRejected = false

        init(baseURL: String) { self.baseURL = baseURL }

        /// An http(s) URL from a media element's `url`, relative ones resolved; nil (and noted) for others.
        private mutating func mediaURL(_ attributes: [String: String]) -> String? {
            guard let text = attributes["url"]?.trimmed, !text.isEmpty else { return nil }
            guard let url = URLText.webURL(text, relativeTo: baseURL) else {
                mediaRejected = true
                return nil
            }
            return url
        }

        mutating func addContent(_ attributes: [String: String]) {
            guard let url = mediaURL(attributes) else { return }
            let medium = attributes["medium"]?.lowercased()
            let type = attributes["type"]?.lowercased()
            if medium == "image" || (medium == nil && type?.hasPrefix("image/") == true) {
                if image == nil { image = (url, Int(attributes["width"] ?? ""), Int(attributes["height"] ?? "")) }
            } else {
                otherMedia = true
            }
        }

        mutating func addThumbnail(_ attributes: [String: String]) {
            // GalleryItem keeps no more: the rest are not even collected.
            guard thumbnails.count < GalleryItem.maxThumbnails, let url = mediaURL(attributes) else { return }
            thumbnails.append(.init(url: url, width: Int(attributes["width"] ?? ""),
                                    height: Int(attributes["height"] ?? "")))
        }

        /// The author credit's URL form: DeviantArt's avatar of the author.
        var authorAvatar: String?

        /// DeviantArt sends two author credits: the name, then the avatar URL. The name is the item's author.
        mutating func addCredit(_ value: String) {
            defer { creditRole = nil }
            guard creditRole == "author", !value.isEmpty else { return }
            if value.contains("://") {
                if authorAvatar == nil { authorAvatar = value }
            } else if author == nil {
                author = value
            }
        }

        func build() -> GalleryItem? {
            let title = mediaTitle.flatMap { $0.isEmpty ? nil : $0 } ?? plainTitle
            let id = guid ?? link ?? image?.url ?? thumbnails.first?.url
            guard let id, !id.isEmpty else { return nil }
            // Only http(s) pages are ever opened: a `file:`, `smb:` or `javascript:` link is no link.
            let pageURL = URLText.webURL(link, relativeTo: baseURL)
            if image == nil && thumbnails.isEmpty && pageURL == nil && !mediaRejected { return nil }
            var item = GalleryItem(
                id: id, title: title, kind: image != nil || mediaRejected ? .image : .other, thumbnails: thumbnails,
                fullImageURL: image?.url, pageURL: pageURL, author: author,
                altText: Self.nonEmpty(mediaDescription) ?? itemDescriptionHTML.flatMap { Self.nonEmpty(HTMLText.plainText($0)) },
                isSensitive: rating == "adult", width: image?.width, height: image?.height, published: published)
            item.mediaURLRejected = mediaRejected
            return item
        }

        private static func nonEmpty(_ text: String?) -> String? {
            guard let trimmed = text?.trimmed, !trimmed.isEmpty else { return nil }
            return trimmed
        }
    }
}
