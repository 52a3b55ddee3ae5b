/// The demo's HTML pages: the index, a user's gallery page and an item's page (the feed's `<link>`).
enum DemoPages {
    static func index(catalog: DemoCatalog, baseURL: String) -> ServerResponse {
        let rows = catalog.users.map { user in
            let feed = baseURL + DemoFeed.pagePath(user: user.name)
            return "<li><a href=\"\(XMLEscaping.html(feed))\">\(XMLEscaping.html(user.name))</a> — \(user.items.count) items"
                + (user.feedIsBroken ? " (malformed feed)" : "") + "</li>"
        }
        let huge = "<li><a href=\"\(XMLEscaping.html(baseURL + DemoFeed.pagePath(user: "huge")))\">huge</a> — "
            + "\(DemoHugeGallery.defaultCount) items made on the fly; huge-N has N (up to \(DemoHugeGallery.maxCount))</li>"
        let body = "<p>Offline demo galleries in DeviantArt's RSS format. Default user: "
            + "\(XMLEscaping.html(catalog.defaultUserName)).</p>\n<ul>\n\((rows + [huge]).joined(separator: "\n"))\n</ul>\n"
            + "<p>The same users in Bluesky's format (handle NAME\(DemoBluesky.handleSuffix), at /xrpc/) and in Misskey's "
            + "(NAME@any.host, POST /api/users/show and /api/users/notes), Mastodon's (NAME@any.host, "
            + "/api/v1/accounts/lookup and /api/v1/accounts/ID/statuses) and Wikimedia Commons' (Name, /w/api.php).</p>"
        return .text(HTMLPage.render(title: "Gallery Viewer demo server", body: body),
                     contentType: "text/html; charset=utf-8")
    }

    static func gallery(_ user: DemoUser, baseURL: String) -> ServerResponse {
        let rows = user.items.map { item in
            "<li><a href=\"\(XMLEscaping.html(baseURL + item.pagePath))\">\(XMLEscaping.html(displayTitle(item)))</a></li>"
        }
        return .text(HTMLPage.render(title: "\(user.name)'s gallery", body: "<ol>\n\(rows.joined(separator: "\n"))\n</ol>"),
                     contentType: "text/html; charset=utf-8")
    }

    static func item(_ item: DemoItem, baseURL: String) -> ServerResponse {
        let full = XMLEscaping.html(baseURL + item.imagePath())
        let thumbnail = XMLEscaping.html(baseURL + item.imagePath(thumbnailLongSide: 300))
        let body = """
            <p><a href="\(full)"><img src="\(thumbnail)" alt="\(XMLEscaping.html(item.title))"></a></p>
            <p>By \(XMLEscaping.html(item.user)), \(item.width) × \(item.height) \(item.format.rawValue.uppercased()), \
            \(XMLEscaping.html(RFC822Date.format(secondsSince1970: item.published))).</p>
            """
        return .text(HTMLPage.render(title: displayTitle(item), body: body), contentType: "text/html; charset=utf-8")
    }

    private static func displayTitle(_ item: DemoItem) -> String { item.title.isEmpty ? "Untitled" : item.title }
}
