/// A user's gallery as DeviantArt's backend RSS (Media RSS), one page of 24 items per request.
///
/// The real feed is `https://backend.deviantart.com/rss.xml?type=deviation&q=gallery:USER&offset=N`; the demo
/// server answers the same path and query on its own base URL, and every URL in the feed points back at it.
public enum DemoFeed {
    public static let pageSize = 24
    public static let mediaNamespace = "http://search.yahoo.com/mrss/"
    public static let atomNamespace = "http://www.w3.org/2005/Atom"

    /// The path and query of a page ("/rss.xml?type=deviation&q=gallery:aurora&offset=24").
    public static func pagePath(user: String, offset: Int = 0) -> String {
        "/rss.xml?type=deviation&q=gallery:\(user)" + (offset > 0 ? "&offset=\(offset)" : "")
    }

    /// The XML of the page starting at `offset`. A user whose feed is broken gets the document cut off midway.
    public static func render(user: DemoUser, offset: Int, baseURL: String) -> String {
        let offset = max(0, offset)
        let document = renderValid(user: user.name, page: Array(user.items.dropFirst(offset).prefix(pageSize)),
                                   offset: offset, total: user.items.count, avatarPath: user.avatarPath,
                                   published: user.items.first?.published ?? DemoCatalog.newestDate, baseURL: baseURL)
        return user.feedIsBroken ? truncated(document) : document
    }

    /// A page of a synthetic gallery, made for the request (see `DemoHugeGallery`); its avatar is atlas's.
    public static func render(huge gallery: DemoHugeGallery, offset: Int, baseURL: String) -> String {
        let offset = max(0, offset)
        return renderValid(user: gallery.name, page: gallery.items(offset: offset, limit: pageSize), offset: offset,
                           total: gallery.count, avatarPath: "/avatars/atlas.png", published: gallery.item(index: 1).published,
                           baseURL: baseURL)
    }

    private static func renderValid(user: String, page: [DemoItem], offset: Int, total: Int, avatarPath: String,
                                    published: Int, baseURL: String) -> String {
        let galleryURL = baseURL + "/\(user)/gallery"
        var xml = XMLWriter()
        xml.open("rss", [("version", "2.0"), ("xmlns:media", mediaNamespace), ("xmlns:atom", atomNamespace)])
        xml.open("channel")
        xml.element("title", text: "DeviantArt: \(user)'s gallery")
        xml.element("link", text: galleryURL)
        xml.element("description", text: "DeviantArt RSS for gallery:\(user) (offline demo)")
        xml.element("language", text: "en-us")
        xml.element("copyright", text: "Copyright 2024, the demo artists")
        xml.element("pubDate", text: RFC822Date.format(secondsSince1970: published))
        xml.element("generator", text: "GalleryDemoServer")
        xml.element("atom:link", [("rel", "self"), ("type", "application/rss+xml"),
                                  ("href", baseURL + pagePath(user: user, offset: offset))])
        if offset + pageSize < total {
            xml.element("atom:link", [("rel", "next"), ("type", "application/rss+xml"),
                                      ("href", baseURL + pagePath(user: user, offset: offset + pageSize))])
        }
        for item in page { write(item, baseURL: baseURL, avatarURL: baseURL + avatarPath, to: &xml) }
        return xml.finish()
    }

    private static func write(_ item: DemoItem, baseURL: String, avatarURL: String,
                              to xml: inout XMLWriter) {
        let link = baseURL + item.pagePath
        let thumbnail300 = baseURL + item.imagePath(thumbnailLongSide: 300)
        xml.open("item")
        xml.element("title", text: item.title)
        xml.element("link", text: link)
        xml.element("guid", [("isPermaLink", "true")], text: link)
        xml.element("pubDate", text: RFC822Date.format(secondsSince1970: item.published))
        xml.element("media:title", [("type", "plain")], text: item.title)
        xml.element("media:rating", text: item.rating.rawValue)
        xml.element("media:category", [("label", item.categoryLabel)], text: item.categoryPath)
        xml.element("media:credit", [("role", "author"), ("scheme", "urn:ebu")], text: item.user)
        xml.element("media:credit", [("role", "author"), ("scheme", "urn:ebu")], text: avatarURL)
        xml.element("media:copyright", text: "Copyright 2024 \(item.user)")
        // The artist's description, HTML as DeviantArt sends it; none for an untitled upload.
        let description = item.altText.map { "<p>\(XMLEscaping.html($0))</p>" }
        if let description { xml.element("media:description", [("type", "html")], text: description) }
        // The real feed lists thumbnail sizes in no fixed order; so does this one.
        let sides = item.index % 3 == 0 ? DemoItem.thumbnailLongSides.reversed() : DemoItem.thumbnailLongSides
        for side in sides {
            let size = item.thumbnailSize(longSide: side)
            xml.element("media:thumbnail", [("url", baseURL + item.imagePath(thumbnailLongSide: side)),
                                            ("width", String(size.width)), ("height", String(size.height))])
        }
        xml.element("media:content", [("url", baseURL + item.imagePath()), ("width", String(item.width)),
                                      ("height", String(item.height)), ("medium", "image")])
        xml.element("description", text: "<a href=\"\(XMLEscaping.html(link))\"><img src=\"\(XMLEscaping.html(thumbnail300))\" "
                    + "alt=\"\(XMLEscaping.html(item.title))\"/></a><br/>" + (description ?? ""))
        xml.close()
    }

    /// Cuts the document at a tag boundary a little past its middle: malformed, but plausibly so.
    private static func truncated(_ document: String) -> String {
        let scalars = Array(document.unicodeScalars)
        var cut = scalars.count * 11 / 20
        while cut > 0, scalars[cut] != "<" { cut -= 1 }
        var result = String.UnicodeScalarView()
        result.append(contentsOf: scalars[..<(cut + 4)])
        return String(result)
    }
}
