extension FollowOpml {
    /// The galleries as an OPML 2.0 document (UTF-8 text): one top outline "Gallery Viewer" holding one outline
    /// per gallery, in the order given. A gallery with a feed is a `type="rss"` outline with `text`, `title`,
    /// `xmlUrl` and `htmlUrl` (where the service has a profile page); one without (a demo gallery with no
    /// demo server address) is a plain outline. Every one carries `gv:source` and `gv:username`.
    /// `endpointOverride` gives the override of each source (`--endpoint`, `GALLERY_VIEWER_ENDPOINT`), which
    /// moves its links as it moves its requests.
    public static func export(_ galleries: [FollowedGallery], endpointOverride: (SourceKind) -> String?) -> String {
        var document = """
            <?xml version="1.0" encoding="UTF-8"?>
            <opml version="2.0" xmlns:gv="\(namespace)">
              <head>
                <title>Gallery Viewer: followed galleries</title>
              </head>
              <body>
                <outline text="Gallery Viewer">

            """
        for gallery in galleries {
            document += "      <outline" + attributes(of: gallery, endpointOverride: endpointOverride(gallery.key.source)) + "/>\n"
        }
        document += """
                </outline>
              </body>
            </opml>

            """
        return document
    }

    private static func attributes(of gallery: FollowedGallery, endpointOverride: String?) -> String {
        let links = FollowOpmlLinks.links(for: gallery.key, endpointOverride: endpointOverride)
        let name = DisplayText.clean(gallery.displayName, limit: FollowLimits.maxDisplayNameLength)
        // OPML requires a text; a name cleaned away leaves the username.
        let text = name.isEmpty ? gallery.key.username : name
        var pairs: [(String, String?)] = [("type", links.feed == nil ? nil : "rss"), ("text", text), ("title", text)]
        pairs += [("xmlUrl", links.feed), ("htmlUrl", links.profile), ("description", links.note)]
        pairs += [("gv:source", gallery.key.source.rawValue), ("gv:username", gallery.key.username)]
        return pairs.compactMap { name, value in value.map { " \(name)=\"\(escapedAttribute($0))\"" } }.joined()
    }

    /// `text` as the value of a double-quoted attribute. The five markup characters become entities; tabs and
    /// line breaks become character references, which a parser keeps (a literal one would be read as a space);
    /// characters XML 1.0 does not allow at all (other C0 controls, U+FFFE, U+FFFF) are left out.
    static func escapedAttribute(_ text: String) -> String {
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\t", "\n", "\r": result += "&#\(scalar.value);"
            case "\u{0}"..."\u{1F}", "\u{FFFE}", "\u{FFFF}": continue
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
