import GalleryDemoServer

/// The documents of `HostileFeed`: DeviantArt-style RSS gone wrong, and a Mastodon statuses reply of zeros.
@MainActor
enum HostileFeeds {
    /// Thumbnail URLs of the odd-scheme items: (title, url). The relative ones must resolve against the feed
    /// and load; the others must become "Not a web address" rows.
    static func oddThumbnails(baseURL: String) -> [(title: String, url: String)] {
        let host = baseURL.dropFirst("http:".count)  // "//127.0.0.1:PORT"
        return [
            ("Relative path", "/img/valid?odd=relative"),
            ("Protocol-relative", "\(host)/img/valid?odd=protocol-relative"),
            ("Data URL", "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="),
            ("JavaScript URL", "javascript:alert(1)"),
            ("FTP URL", "ftp://127.0.0.1/image.png"),
            ("Malformed URL", "http://[::1"),
            ("File URL", "file:///etc/passwd"),
        ]
    }

    static func gallery(baseURL: String) -> String {
        var xml = channelStart(title: "Hostile gallery")
        for image in HostileImage.allCases {
            let url = baseURL + image.path
            xml.open("item")
            xml.element("title", text: "Hostile: \(image.rawValue)")
            xml.element("link", text: baseURL + "/art/\(image.rawValue)")
            xml.element("guid", text: "hostile-\(image.rawValue)")
            xml.element("media:thumbnail", [("url", url), ("width", "150"), ("height", "100")])
            xml.element("media:content", [("url", url), ("medium", "image")])
            xml.close()
        }
        for (index, odd) in oddThumbnails(baseURL: baseURL).enumerated() {
            xml.open("item")
            xml.element("title", text: "Odd URL: \(odd.title)")
            xml.element("link", text: HostileFeed.oddPageLinks[index % HostileFeed.oddPageLinks.count])
            xml.element("guid", text: "odd-\(index)")
            xml.element("media:thumbnail", [("url", odd.url), ("width", "150"), ("height", "100")])
            xml.close()
        }
        // A legitimately huge image: the original is a bomb, but the feed offers a screen-sized rendition.
        xml.open("item")
        xml.element("title", text: "Huge, with a rendition")
        xml.element("link", text: baseURL + "/art/huge-with-rendition")
        xml.element("guid", text: "huge-with-rendition")
        xml.element("media:thumbnail", [("url", baseURL + "/img/valid?rendition=150"), ("width", "150"), ("height", "100")])
        xml.element("media:thumbnail", [("url", baseURL + "/img/valid?rendition=1920"), ("width", "1920"), ("height", "1280")])
        // Its own URL for the same bomb: the same URL would make it the png-bomb row's duplicate.
        xml.element("media:content", [("url", baseURL + HostileImage.pngBomb.path + "?original"), ("medium", "image"),
                                      ("width", "30000"), ("height", "30000")])
        xml.close()
        return xml.finish()
    }

    /// The document of `feed`; `url` is the URL it was asked for (a self-loop links back to it exactly).
    static func document(_ feed: HostileFeed, baseURL: String, offset: Int, url: String) -> String {
        switch feed {
        case .gallery: return gallery(baseURL: baseURL)
        case .billionLaughs:
            var entities = #"<!ENTITY lol "lol">"#
            for level in 1...9 {
                entities += "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level == 1 ? "" : String(level - 1));", count: 10) + "\">"
            }
            return "<?xml version=\"1.0\"?><!DOCTYPE rss [\(entities)]>"
                + "<rss version=\"2.0\"><channel><title>&lol9;</title></channel></rss>"
        case .selfLoop:
            return page(items: [item(baseURL, "loop", title: "Looping")], next: url)
        case .emptyPages:
            return page(items: [], next: baseURL + "/rss.xml?type=deviation&q=gallery:\(feed.rawValue)&offset=\(offset + 1)")
        case .truncated:
            let whole = page(items: (0..<10).map { item(baseURL, "cut-\($0)", title: "Cut \($0)") }, next: nil)
            return String(whole.prefix(whole.count / 2))
        case .hugeTitle:
            return cached(feed) { page(items: [item("", "huge", escapedTitle: String(repeating: "A", count: 20 * 1_048_576))], next: nil) }
        case .longTitle:
            return cached(feed) {
                page(items: [item("", "long", escapedTitle: String(repeating: "Long title ", count: 6 * 1_048_576 / 11))], next: nil)
            }
        case .deepNesting:
            let depth = 100_000
            return "<rss version=\"2.0\"><channel>" + String(repeating: "<a>", count: depth)
                + String(repeating: "</a>", count: depth) + "</channel></rss>"
        case .html:
            return HTMLPage.render(title: "Welcome", body: "<p>This is a web page, not a feed.</p>")
        case .manyItems:
            return cached(feed) {
                var text = channelHead(title: "Many items")
                for index in 0..<100_000 { text += "<item><media:thumbnail url=\"/img/valid?n=\(index)\"/></item>\n" }
                return text + "</channel></rss>\n"
            }
        case .rateLimited, .rateLimitedBare:
            return ""  // answered with a status; see HostileServer
        case .sameFileNames:
            // Pleroma/Akkoma name every upload "image.png" under its own directory.
            return page(items: (0..<5).map { index in
                item(baseURL, "same-\(index)", title: "Same name \(index)", image: "/media/\(index)/image.png")
            }, next: nil)
        case .longNextLink:
            let start = baseURL + "/rss.xml?type=deviation&q=gallery:\(feed.rawValue)&offset=\(offset + 1)&pad="
            let length = HostileFeed.longNextLinkBytes + min(offset, 1)
            return page(items: [item(baseURL, "long-\(offset)", title: "Long link \(offset)")],
                        next: start + String(repeating: "a", count: max(0, length - start.utf8.count)))
        case .privateMedia:
            let port = baseURL.split(separator: ":").last.map(String.init) ?? "80"
            let hosts = ["10.0.0.1", "[::1]", "[::ffff:192.168.1.1]"]
            return page(items: [item(baseURL, "public", title: "On the gallery's server")] + hosts.enumerated().map { index, host in
                item("http://\(host):\(port)", "private-\(index)", title: "On \(host)")
            }, next: nil)
        case .controlCharacters:
            // XML cannot carry most C0 controls, but feeds double-escape their text and the second layer
            // can: "&amp;#27;" is an ESC once both are decoded. C1 controls and bidi overrides pass as they are.
            return page(items: [
                item(baseURL, "escape", escapedTitle: "Bell&amp;#7; and &amp;#27;[31mred&amp;#27;[0m and &amp;#x1b;]0;title&amp;#7;"),
                item(baseURL, "tabs", escapedTitle: "Tab\there\nnew line\r\nand \u{9B}CSI and \u{202E}gpj.exe"),
            ], next: nil)
        }
    }

    /// `[0,0,0,…]`: a 7 MB JSON array of 3.5 million "posts" that are not objects.
    static var mastodonZeros: String {
        if let zeros = cachedZeros { return zeros }
        let zeros = "[" + String(repeating: "0,", count: 3_500_000 - 1) + "0]"
        cachedZeros = zeros
        return zeros
    }

    /// The documents that take long to build (megabytes each) are built once per process: a server in the
    /// test process would otherwise keep its client waiting past the client's timeouts.
    @MainActor private static var documents: [HostileFeed: String] = [:]
    @MainActor private static var cachedZeros: String?

    @MainActor
    private static func cached(_ feed: HostileFeed, _ build: () -> String) -> String {
        if let document = documents[feed] { return document }
        let document = build()
        documents[feed] = document
        return document
    }

    /// Builds everything slow now, before a client waits for it.
    @MainActor
    static func prepare() {
        _ = mastodonZeros
        for feed in [HostileFeed.hugeTitle, .longTitle, .manyItems] { _ = document(feed, baseURL: "", offset: 0, url: "") }
    }

    // MARK: Building blocks

    private static func channelHead(title: String) -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss version=\"2.0\" xmlns:media=\"\(DemoFeed.mediaNamespace)\" "
            + "xmlns:atom=\"\(DemoFeed.atomNamespace)\"><channel><title>\(XMLEscaping.text(title))</title>\n"
    }

    private static func channelStart(title: String) -> XMLWriter {
        var xml = XMLWriter()
        xml.open("rss", [("version", "2.0"), ("xmlns:media", DemoFeed.mediaNamespace), ("xmlns:atom", DemoFeed.atomNamespace)])
        xml.open("channel")
        xml.element("title", text: title)
        return xml
    }

    private static func page(items: [String], next: String?) -> String {
        var text = channelHead(title: "Hostile")
        if let next { text += "<atom:link rel=\"next\" href=\"\(XMLEscaping.attribute(next))\"/>\n" }
        return text + items.joined() + "</channel></rss>\n"
    }

    private static func item(_ baseURL: String, _ id: String, title: String, image: String = "/img/valid") -> String {
        item(baseURL, id, escapedTitle: XMLEscaping.text(title), image: image)
    }

    private static func item(_ baseURL: String, _ id: String, escapedTitle: String, image: String = "/img/valid") -> String {
        let url = XMLEscaping.attribute(baseURL + image + (image.contains("?") ? "&" : "?") + "id=\(id)")
        return "<item><title>\(escapedTitle)</title><guid>\(id)</guid>"
            + "<media:thumbnail url=\"\(url)\" width=\"96\" height=\"64\"/>"
            + "<media:content url=\"\(url)\" medium=\"image\"/></item>\n"
    }
}
